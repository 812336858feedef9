#!/usr/bin/env python3
"""Held-out retrieval evaluation set for a mixed fashion/home shop (EN + DE).

Deterministic (fixed seed, stdlib only). Writes catalogue.jsonl and
conversations.jsonl next to this file.
"""
import json
import os
import random

SEED = 20240611
HERE = os.path.dirname(os.path.abspath(__file__))
BASE = "https://shop.example"

# ---------------------------------------------------------------------------
# Content pages: topic -> {lang: (id, title, path, text)}
# ---------------------------------------------------------------------------
PAGES = {
"shipping": {
 "en": ("page-en-shipping", "Shipping and delivery", "/en/help/shipping",
  "We ship from our warehouse in Leipzig to Germany, Austria, the Netherlands, Belgium, Luxembourg, France, Italy, Spain, Denmark, Sweden and Poland. "
  "Orders within Germany usually arrive in 1-3 working days, orders to other EU countries in 3-6 working days. "
  "Standard shipping costs EUR 4.95 within Germany and EUR 7.95 to the other EU countries. Orders over EUR 60 ship free within Germany, orders over EUR 100 ship free to the rest of the EU. "
  "Orders placed before 2 pm on a working day leave our warehouse the same day. All parcels travel with DHL GoGreen; you can also choose a DHL Packstation or a parcel shop as delivery address (not for furniture). "
  "For express delivery, delivery outside the EU and furniture deliveries please see the separate pages."),
 "de": ("page-de-versand", "Versand und Zustellung", "/de/hilfe/versand",
  "Wir versenden aus unserem Lager in Leipzig nach Deutschland, Österreich, in die Niederlande, nach Belgien, Luxemburg, Frankreich, Italien, Spanien, Dänemark, Schweden und Polen. "
  "Innerhalb Deutschlands beträgt die Lieferzeit in der Regel 1-3 Werktage, in die übrigen EU-Länder 3-6 Werktage. "
  "Die Versandkosten betragen 4,95 EUR innerhalb Deutschlands und 7,95 EUR in die anderen EU-Länder. Ab einem Bestellwert von 60 EUR liefern wir innerhalb Deutschlands versandkostenfrei, in die übrige EU ab 100 EUR. "
  "Bestellungen, die werktags bis 14 Uhr eingehen, verlassen unser Lager noch am selben Tag. Alle Pakete verschicken wir klimaneutral mit DHL GoGreen; Zustellung an eine Packstation oder Postfiliale ist möglich (nicht bei Möbeln). "
  "Informationen zu Expressversand, Lieferungen außerhalb der EU und Speditionslieferungen finden Sie auf den eigenen Seiten."),
},
"express": {
 "en": ("page-en-express", "Express and next-day delivery", "/en/help/express-delivery",
  "Need it fast? Choose Express at checkout: orders placed by 12 noon Monday to Friday are delivered by DHL Express on the next working day within Germany. "
  "Express costs EUR 12.90 regardless of order value. Saturday delivery can be booked for EUR 19.90 when you order by Friday 12 noon. "
  "Express to Austria takes 1-2 working days and costs EUR 19.90. Express is not available for furniture, for Packstation addresses or for the German islands."),
 "de": ("page-de-express", "Expressversand", "/de/hilfe/expressversand",
  "Es muss schnell gehen? Wählen Sie im Checkout den Expressversand: Bestellungen, die Montag bis Freitag bis 12 Uhr eingehen, stellt DHL Express am nächsten Werktag innerhalb Deutschlands zu. "
  "Der Expressversand kostet unabhängig vom Bestellwert 12,90 EUR. Eine Samstagszustellung ist für 19,90 EUR buchbar, wenn Sie bis Freitag 12 Uhr bestellen. "
  "Express nach Österreich dauert 1-2 Werktage und kostet 19,90 EUR. Nicht möglich für Möbel, Packstationen und die deutschen Inseln."),
},
"international": {
 "en": ("page-en-international", "Shipping outside the EU", "/en/help/international-shipping",
  "Outside the EU we currently deliver to Switzerland, the United Kingdom, Norway, the USA and Canada. "
  "Delivery takes 5-10 working days and costs a flat EUR 19.95, free from an order value of EUR 200. "
  "Please note: customs duties and import VAT are set by the destination country and are paid by the recipient on delivery; the carrier may add a handling fee. "
  "We are not able to ship to Australia, Asia or South America at the moment. Furniture is delivered within Germany and Austria only. Returns from non-EU countries are at your own cost."),
 "de": ("page-de-international", "Lieferung außerhalb der EU", "/de/hilfe/lieferung-international",
  "Außerhalb der EU liefern wir derzeit in die Schweiz, nach Großbritannien, Norwegen, in die USA und nach Kanada. "
  "Die Lieferzeit beträgt 5-10 Werktage, die Versandpauschale 19,95 EUR, ab 200 EUR Bestellwert versandkostenfrei. "
  "Bitte beachten Sie: Zölle und Einfuhrumsatzsteuer legt das Empfängerland fest, sie werden bei der Zustellung vom Empfänger bezahlt; der Zusteller kann eine Bearbeitungsgebühr erheben. "
  "Nach Australien, Asien und Südamerika liefern wir zurzeit nicht. Möbel liefern wir nur innerhalb Deutschlands und Österreichs. Rücksendungen aus Nicht-EU-Ländern erfolgen auf eigene Kosten."),
},
"freight": {
 "en": ("page-en-furniture-delivery", "Furniture delivery by freight carrier", "/en/help/furniture-delivery",
  "Tables, chairs, sideboards and other large items are delivered by our freight partner, not by parcel service. "
  "Furniture is made to order in small batches, so the delivery time is 2-4 weeks. The carrier calls or e-mails you a few days in advance to agree on a 4-hour time window. "
  "Kerbside delivery costs EUR 49 in Germany and EUR 79 in Austria; delivery to the room of your choice is EUR 30 extra. Assembly is not included, but our tables come with simple instructions and tools. "
  "Please check the goods in the presence of the driver and note any visible damage on the delivery receipt."),
 "de": ("page-de-spedition", "Speditionslieferung für Möbel", "/de/hilfe/speditionslieferung",
  "Tische, Stühle, Sideboards und andere sperrige Artikel liefert unsere Partnerspedition, nicht der Paketdienst. "
  "Unsere Möbel werden in kleinen Serien gefertigt, die Lieferzeit beträgt daher 2-4 Wochen. Die Spedition meldet sich einige Tage vorher telefonisch oder per E-Mail und vereinbart mit Ihnen ein Zeitfenster von 4 Stunden. "
  "Die Lieferung bis Bordsteinkante kostet 49 EUR in Deutschland und 79 EUR in Österreich; die Lieferung in den Raum Ihrer Wahl kostet 30 EUR Aufpreis. Ein Aufbau ist nicht inbegriffen, Werkzeug und Anleitung liegen bei. "
  "Bitte prüfen Sie die Ware im Beisein des Fahrers und vermerken Sie sichtbare Schäden auf dem Lieferschein."),
},
"holidays": {
 "en": ("page-en-holiday-delivery", "Delivery times at Christmas and on public holidays", "/en/help/holiday-delivery",
  "Around Christmas and on public holidays our warehouse and DHL need a little longer. For delivery before Christmas within Germany please order standard shipping by 19 December and express by 21 December, 12 noon. "
  "Orders to other EU countries should be placed by 15 December. Between Christmas and New Year dispatch continues on working days. On public holidays no parcels are collected or delivered, so add one working day per holiday to the usual delivery time."),
 "de": ("page-de-feiertage", "Lieferzeiten an Weihnachten und Feiertagen", "/de/hilfe/lieferzeiten-feiertage",
  "Rund um Weihnachten und an Feiertagen brauchen unser Lager und DHL etwas länger. Damit Ihre Bestellung innerhalb Deutschlands vor Heiligabend ankommt, bestellen Sie mit Standardversand bis zum 19. Dezember, mit Express bis zum 21. Dezember, 12 Uhr. "
  "Bestellungen in andere EU-Länder sollten bis zum 15. Dezember eingehen. Zwischen den Jahren versenden wir an Werktagen weiter. An gesetzlichen Feiertagen wird nicht abgeholt oder zugestellt; rechnen Sie pro Feiertag einen Werktag zur üblichen Lieferzeit hinzu."),
},
"collect": {
 "en": ("page-en-click-collect", "Click & collect", "/en/help/click-and-collect",
  "Order online and pick up your order free of charge in one of our stores in Berlin, Hamburg, Munich or Vienna. Choose 'Collect in store' at checkout. "
  "Items that are in stock in the store are ready within 2 hours; otherwise we send them from our warehouse and they are ready in 2-3 working days. We will e-mail you as soon as your order is ready. "
  "We keep it for 7 days. Please bring your order confirmation and a photo ID. You can try things on and return them directly at the till."),
 "de": ("page-de-abholung", "Abholung im Geschäft (Click & Collect)", "/de/hilfe/abholung",
  "Bestellen Sie online und holen Sie Ihre Bestellung kostenlos in einem unserer Geschäfte in Berlin, Hamburg, München oder Wien ab. Wählen Sie dazu im Checkout 'Im Geschäft abholen'. "
  "Vorrätige Artikel liegen innerhalb von 2 Stunden bereit, sonst schicken wir sie aus dem Lager und sie sind in 2-3 Werktagen abholbereit. Sie erhalten eine E-Mail, sobald alles bereitliegt. "
  "Wir bewahren die Bestellung 7 Tage für Sie auf. Bitte bringen Sie die Bestellbestätigung und einen Lichtbildausweis mit. Anprobieren und Zurückgeben geht direkt an der Kasse."),
},
"tracking": {
 "en": ("page-en-tracking", "Track your order", "/en/help/order-tracking",
  "As soon as your parcel leaves our warehouse you receive a dispatch confirmation by e-mail with a DHL tracking link. "
  "If you have a customer account, you can also see the status under 'My orders': 'Received', 'In preparation', 'Shipped' or 'Delivered'. "
  "It can take up to 24 hours until the tracking shows the first scan. Orders with several items may arrive in more than one parcel, each with its own tracking number. Furniture orders are tracked by the freight carrier, who contacts you directly."),
 "de": ("page-de-sendungsverfolgung", "Sendungsverfolgung", "/de/hilfe/sendungsverfolgung",
  "Sobald Ihr Paket unser Lager verlässt, erhalten Sie eine Versandbestätigung per E-Mail mit einem DHL-Trackinglink. "
  "Mit Kundenkonto sehen Sie den Status auch unter 'Meine Bestellungen': 'Eingegangen', 'In Bearbeitung', 'Versendet' oder 'Zugestellt'. "
  "Bis die Sendungsverfolgung den ersten Scan anzeigt, können bis zu 24 Stunden vergehen. Bestellungen mit mehreren Artikeln kommen manchmal in mehreren Paketen mit eigener Sendungsnummer. Möbel verfolgt die Spedition, die sich direkt bei Ihnen meldet."),
},
"lost": {
 "en": ("page-en-parcel-missing", "My parcel hasn't arrived", "/en/help/parcel-missing",
  "If the expected delivery date has passed, first check the tracking link in your dispatch e-mail. If it says 'delivered' but you cannot find the parcel, ask your neighbours and look for a DHL card in your letterbox; the parcel may be waiting at a parcel shop. "
  "If it still does not turn up within 2 working days, contact us with your order number. We open an investigation with DHL and, if the parcel is lost, send a replacement or refund you in full. "
  "If a parcel arrives visibly damaged, please take photos before unpacking and send them to us."),
 "de": ("page-de-paket-fehlt", "Mein Paket ist nicht angekommen", "/de/hilfe/paket-nicht-angekommen",
  "Ist der erwartete Liefertermin vorbei, prüfen Sie zuerst den Trackinglink aus der Versandbestätigung. Steht dort 'zugestellt', Sie finden das Paket aber nicht, fragen Sie bei den Nachbarn und schauen Sie nach einer DHL-Benachrichtigungskarte im Briefkasten; vielleicht liegt das Paket in einer Filiale. "
  "Taucht es auch nach 2 Werktagen nicht auf, melden Sie sich mit Ihrer Bestellnummer bei uns. Wir stellen einen Nachforschungsauftrag bei DHL und schicken bei Verlust Ersatz oder erstatten den vollen Betrag. "
  "Kommt ein Paket sichtbar beschädigt an, machen Sie bitte vor dem Auspacken Fotos und schicken Sie sie uns."),
},
"returns": {
 "en": ("page-en-returns", "Returns and refunds", "/en/help/returns",
  "You have 30 days from delivery to return items. They should be unworn, unwashed and with the original tags. "
  "Returns from Germany and Austria are free: use the prepaid DHL label in your parcel or create one in your customer account under 'My orders'. From other countries return shipping of EUR 5.95 is deducted from your refund. "
  "We refund to your original payment method within 14 days after your return has arrived at our warehouse; PayPal refunds usually show up within 2 days. "
  "For hygiene reasons, opened pillows and duvets cannot be returned. Sale items can be returned as usual. Furniture has its own return procedure."),
 "de": ("page-de-ruecksendung", "Rücksendung und Erstattung", "/de/hilfe/ruecksendung",
  "Sie haben ab Zustellung 30 Tage Zeit für eine Rücksendung. Die Artikel sollten ungetragen, ungewaschen und mit Originaletikett sein. "
  "Rücksendungen aus Deutschland und Österreich sind kostenlos: Nutzen Sie das beiliegende DHL-Retourenlabel oder erstellen Sie eines im Kundenkonto unter 'Meine Bestellungen'. Aus anderen Ländern ziehen wir 5,95 EUR Rücksendekosten von der Erstattung ab. "
  "Die Erstattung erfolgt über die ursprüngliche Zahlungsart innerhalb von 14 Tagen nach Eingang der Rücksendung in unserem Lager; bei PayPal meist innerhalb von 2 Tagen. "
  "Aus hygienischen Gründen sind geöffnete Kopfkissen und Bettdecken vom Umtausch und der Rückgabe ausgeschlossen. Reduzierte Artikel können ganz normal zurückgeschickt werden. Für Möbel gilt ein eigenes Verfahren."),
},
"exchange": {
 "en": ("page-en-exchanges", "Exchanges", "/en/help/exchanges",
  "Would you like a different size or colour? We do not swap items by post: please return the item free of charge as described under Returns and simply place a new order for the size or colour you want. "
  "Tip: place the new order straight away, since popular sizes sell out quickly. "
  "Items bought online can also be exchanged in any of our stores within 30 days; bring the delivery note. Gift cards cannot be exchanged."),
 "de": ("page-de-umtausch", "Umtausch", "/de/hilfe/umtausch",
  "Sie möchten eine andere Größe oder Farbe? Einen direkten Umtausch per Post bieten wir nicht an: Schicken Sie den Artikel wie unter Rücksendung beschrieben kostenlos zurück und bestellen Sie die gewünschte Größe oder Farbe einfach neu. "
  "Tipp: Bestellen Sie gleich neu, beliebte Größen sind schnell vergriffen. "
  "Online gekaufte Artikel können Sie innerhalb von 30 Tagen auch in unseren Geschäften umtauschen; bringen Sie dazu den Lieferschein mit. Gutscheine sind vom Umtausch ausgeschlossen."),
},
"furniture_returns": {
 "en": ("page-en-furniture-returns", "Returning furniture and large items", "/en/help/furniture-returns",
  "You can return furniture within 30 days as well. Because tables, chairs and sideboards do not fit into a parcel, please contact customer service first; we arrange collection by our freight partner. "
  "A collection fee of EUR 49 (Germany) or EUR 79 (Austria) is deducted from the refund. Please pack the item securely, ideally in its original packaging. Assembled furniture can be returned if it is undamaged and complete."),
 "de": ("page-de-moebel-rueckgabe", "Rückgabe von Möbeln und sperrigen Artikeln", "/de/hilfe/moebel-rueckgabe",
  "Auch Möbel können Sie innerhalb von 30 Tagen zurückgeben. Da Tische, Stühle und Sideboards nicht in ein Paket passen, melden Sie sich bitte zuerst beim Kundenservice; wir beauftragen die Abholung durch unsere Spedition. "
  "Für die Abholung ziehen wir 49 EUR (Deutschland) bzw. 79 EUR (Österreich) von der Erstattung ab. Bitte verpacken Sie den Artikel sicher, am besten in der Originalverpackung. Aufgebaute Möbel nehmen wir zurück, wenn sie unbeschädigt und vollständig sind."),
},
"warranty": {
 "en": ("page-en-warranty", "Warranty and faulty items", "/en/help/warranty",
  "All products come with the 2-year statutory warranty. On our solid wood furniture we additionally give a 5-year guarantee on frame and joints. "
  "If something is faulty, e.g. a seam opens, a zip breaks or a glaze cracks, send us a short description and photos to service@shop.example together with your order number. We repair, replace or refund the item, and of course we cover the postage. "
  "Transport damage should be reported within 7 days. Normal wear and tear, such as pilling on knitwear, is not a defect."),
 "de": ("page-de-gewaehrleistung", "Gewährleistung und Reklamation", "/de/hilfe/reklamation",
  "Für alle Produkte gilt die gesetzliche Gewährleistung von 2 Jahren. Auf unsere Massivholzmöbel geben wir zusätzlich 5 Jahre Garantie auf Gestell und Verbindungen. "
  "Ist etwas defekt, etwa eine aufgegangene Naht, ein kaputter Reißverschluss oder eine gesprungene Glasur, schicken Sie uns eine kurze Beschreibung und Fotos mit Ihrer Bestellnummer an service@shop.example. Wir reparieren, ersetzen oder erstatten den Artikel, die Versandkosten übernehmen wir. "
  "Transportschäden melden Sie bitte innerhalb von 7 Tagen. Normale Gebrauchsspuren wie Pilling bei Strick sind kein Mangel."),
},
"payment": {
 "en": ("page-en-payment", "Payment methods", "/en/help/payment",
  "You can pay with Visa, Mastercard, American Express, PayPal, Apple Pay, Google Pay, Klarna (pay later or in instalments) and by bank transfer in advance. "
  "Your card is only charged when your order is dispatched. With prepayment we reserve the items for 7 days and dispatch as soon as the money has arrived. "
  "Unfortunately we do not offer cash on delivery. In our stores you can pay by cash, debit card and all major credit cards."),
 "de": ("page-de-zahlung", "Zahlungsarten", "/de/hilfe/zahlungsarten",
  "Sie können mit Visa, Mastercard, American Express, PayPal, Apple Pay, Google Pay, Klarna (Rechnung oder Ratenkauf) und per Vorkasse (Überweisung) bezahlen. "
  "Ihre Karte wird erst belastet, wenn die Bestellung versendet wird. Bei Vorkasse reservieren wir die Artikel 7 Tage und versenden, sobald das Geld eingegangen ist. "
  "Eine Zahlung per Nachnahme ist leider nicht möglich. In unseren Geschäften zahlen Sie bar, mit Girocard oder allen gängigen Kreditkarten."),
},
"paylater": {
 "en": ("page-en-klarna", "Pay later and instalments with Klarna", "/en/help/klarna",
  "With Klarna 'Pay in 30 days' you receive your order first and pay within 30 days, without extra cost. "
  "For orders from EUR 200 you can also spread the amount: 3 interest-free monthly payments, or financing over 6 to 24 months at the rate shown at checkout. "
  "Klarna runs a credit check; you must be at least 18 and have a billing address in Germany, Austria or the Netherlands. If you return items, Klarna adjusts your invoice automatically."),
 "de": ("page-de-klarna", "Kauf auf Rechnung und Ratenzahlung mit Klarna", "/de/hilfe/rechnung-ratenzahlung",
  "Mit Klarna 'Rechnung' erhalten Sie zuerst Ihre Ware und bezahlen innerhalb von 30 Tagen, ohne Zusatzkosten. "
  "Ab 200 EUR Bestellwert können Sie den Betrag auch aufteilen: 3 zinsfreie Monatsraten oder eine Finanzierung über 6 bis 24 Monate zum im Checkout angezeigten Zinssatz. "
  "Klarna führt eine Bonitätsprüfung durch; Sie müssen mindestens 18 Jahre alt sein und eine Rechnungsadresse in Deutschland, Österreich oder den Niederlanden haben. Bei Rücksendungen passt Klarna Ihre Rechnung automatisch an."),
},
"giftcards": {
 "en": ("page-en-gift-cards", "Gift cards", "/en/gift-cards",
  "Our gift cards are available with any value from EUR 20 to EUR 500. The digital gift card arrives by e-mail within minutes and can be printed at home; in our stores you can also buy it as a card in a gift box. "
  "Gift cards are valid for 3 years from the end of the year of purchase and can be redeemed online and in all stores, also in several steps. Enter the code at checkout in the field 'Gift card or voucher'. "
  "You can check the remaining balance on this page. Gift cards cannot be paid out in cash or used to buy other gift cards."),
 "de": ("page-de-gutscheine", "Geschenkgutscheine", "/de/gutscheine",
  "Unsere Geschenkgutscheine gibt es mit beliebigem Wert von 20 bis 500 EUR. Der digitale Gutschein kommt innerhalb weniger Minuten per E-Mail und lässt sich zu Hause ausdrucken; in unseren Geschäften gibt es ihn auch als Karte in einer Geschenkbox. "
  "Gutscheine sind 3 Jahre ab Ende des Kaufjahres gültig und online sowie in allen Geschäften einlösbar, auch in mehreren Teilbeträgen. Geben Sie den Code im Checkout im Feld 'Gutschein oder Geschenkkarte' ein. "
  "Das Restguthaben können Sie auf dieser Seite abfragen. Eine Barauszahlung oder der Kauf weiterer Gutscheine mit einem Gutschein ist nicht möglich."),
},
"discounts": {
 "en": ("page-en-discount-codes", "Discount codes and promotions", "/en/help/discount-codes",
  "Only one discount code can be used per order. Enter it at checkout in the field 'Gift card or voucher' and the discount is shown before you pay. "
  "Discount codes are not valid on gift cards and, unless stated otherwise, not on items that are already reduced. If a code is not accepted, please check the expiry date and the minimum order value. "
  "Codes cannot be applied retroactively to orders that have already been placed. If you return part of an order, the discount is shared proportionally."),
 "de": ("page-de-rabattcodes", "Rabattcodes und Aktionen", "/de/hilfe/rabattcodes",
  "Pro Bestellung kann nur ein Rabattcode eingelöst werden. Geben Sie ihn im Checkout im Feld 'Gutschein oder Geschenkkarte' ein, der Rabatt wird vor dem Bezahlen angezeigt. "
  "Rabattcodes gelten nicht für Geschenkgutscheine und, sofern nicht anders angegeben, nicht für bereits reduzierte Artikel. Wird ein Code nicht akzeptiert, prüfen Sie bitte Ablaufdatum und Mindestbestellwert. "
  "Nachträglich auf bereits abgeschlossene Bestellungen können Codes nicht angerechnet werden. Bei Teilrücksendungen wird der Rabatt anteilig verrechnet."),
},
"newsletter": {
 "en": ("page-en-newsletter", "Newsletter", "/en/newsletter",
  "Sign up for our newsletter and get 10% off your first order as a welcome code. We write about twice a month about new collections, care tips and stories from our makers, and subscribers get early access to the sale. "
  "You can unsubscribe at any time with the link at the bottom of every newsletter."),
 "de": ("page-de-newsletter", "Newsletter", "/de/newsletter",
  "Melden Sie sich für unseren Newsletter an und erhalten Sie 10 % Rabatt auf Ihre erste Bestellung als Willkommenscode. Wir schreiben etwa zweimal im Monat über neue Kollektionen, Pflegetipps und Geschichten aus unseren Werkstätten, Abonnenten kommen früher in den Sale. "
  "Abmelden können Sie sich jederzeit über den Link am Ende jedes Newsletters."),
},
"care_linen": {
 "en": ("page-en-care-linen-cotton", "Caring for linen and cotton", "/en/care/linen-cotton",
  "Linen and cotton are easy to care for. Wash at 30-40 degrees with similar colours, turn garments inside out and use a mild detergent without optical brighteners. Bed linen and towels can be washed at 60 degrees. "
  "Linen becomes softer with every wash. Avoid tumble drying linen at high heat, as it can shrink by up to 3%; dry it on a line and iron it while still slightly damp. Cotton percale and sateen can be tumble dried on low."),
 "de": ("page-de-pflege-leinen-baumwolle", "Pflegehinweise für Leinen und Baumwolle", "/de/pflege/leinen-baumwolle",
  "Leinen und Baumwolle sind pflegeleicht. Waschen Sie bei 30-40 Grad mit ähnlichen Farben, drehen Sie Kleidung auf links und verwenden Sie ein mildes Waschmittel ohne optische Aufheller. Bettwäsche und Handtücher vertragen 60 Grad. "
  "Leinen wird mit jeder Wäsche weicher. Trocknen Sie Leinen nicht heiß im Trockner, es kann bis zu 3 % einlaufen; lieber auf der Leine trocknen und leicht feucht bügeln. Perkal und Satin aus Baumwolle dürfen schonend in den Trockner."),
},
"care_wool": {
 "en": ("page-en-care-wool", "Wool and cashmere care", "/en/care/wool-cashmere",
  "Wool and cashmere rarely need washing: airing them out overnight is often enough. When you do wash, use the wool programme at 30 degrees or wash by hand in cold water with a wool detergent; never wring. "
  "Dry flat on a towel, never in the dryer or on the radiator. Pilling is normal in the first weeks and can be removed with a cashmere comb. Store knitwear folded, not on a hanger, and protect it from moths with cedar wood."),
 "de": ("page-de-pflege-wolle", "Pflege von Wolle und Kaschmir", "/de/pflege/wolle-kaschmir",
  "Wolle und Kaschmir müssen selten gewaschen werden, meist genügt es, sie über Nacht auszulüften. Wenn doch, nutzen Sie das Wollprogramm bei 30 Grad oder waschen Sie von Hand in kaltem Wasser mit Wollwaschmittel; nicht auswringen. "
  "Liegend auf einem Handtuch trocknen, nie im Trockner oder auf der Heizung. Knötchenbildung (Pilling) ist in den ersten Wochen normal und lässt sich mit einem Kaschmirkamm entfernen. Strick gefaltet statt auf dem Bügel lagern und mit Zedernholz vor Motten schützen."),
},
"care_wood": {
 "en": ("page-en-care-wood", "Looking after oak and wooden furniture", "/en/care/wood",
  "Our tables, chairs and sideboards are made of solid wood with a natural oil finish. Wipe them with a damp, well wrung-out cloth and dry them afterwards; avoid microfibre cloths and harsh cleaners. "
  "Re-oil the surface once or twice a year with our care set. Use coasters under hot pots and glasses, and keep furniture at least 30 cm away from radiators. Light scratches can be sanded with fine sandpaper and re-oiled."),
 "de": ("page-de-pflege-holz", "Pflege von Eiche und Massivholzmöbeln", "/de/pflege/holz",
  "Unsere Tische, Stühle und Sideboards sind aus Massivholz mit natürlicher Öloberfläche. Wischen Sie sie mit einem feuchten, gut ausgewrungenen Tuch ab und trocknen Sie nach; Mikrofasertücher und scharfe Reiniger bitte vermeiden. "
  "Ölen Sie die Oberfläche ein- bis zweimal im Jahr mit unserem Pflegeset nach. Verwenden Sie Untersetzer für heiße Töpfe und Gläser und halten Sie mindestens 30 cm Abstand zur Heizung. Leichte Kratzer lassen sich mit feinem Schleifpapier anschleifen und nachölen."),
},
"size_women": {
 "en": ("page-en-size-guide-women", "Size guide: women", "/en/size-guide/women",
  "Our women's sizes in body measurements (bust / waist / hips in cm): XS (EU 34) 80 / 64 / 88; S (EU 36) 84 / 68 / 92; M (EU 38) 88 / 72 / 96; L (EU 40) 94 / 78 / 102; XL (EU 42-44) 100 / 84 / 108. "
  "Measure over light underwear with a tape measure held level. If you are between two sizes, choose the larger size for linen and the smaller one for knitwear, which stretches a little. Our models are 175 cm tall and wear size S."),
 "de": ("page-de-groessen-damen", "Größentabelle Damen", "/de/groessentabelle/damen",
  "Unsere Damengrößen in Körpermaßen (Brust / Taille / Hüfte in cm): XS (34) 80 / 64 / 88; S (36) 84 / 68 / 92; M (38) 88 / 72 / 96; L (40) 94 / 78 / 102; XL (42-44) 100 / 84 / 108. "
  "Messen Sie über leichter Unterwäsche mit waagerecht gehaltenem Maßband. Liegen Sie zwischen zwei Größen, wählen Sie bei Leinen die größere, bei Strick die kleinere Größe, da Strick etwas nachgibt. Unsere Models sind 175 cm groß und tragen Größe S."),
},
"size_men": {
 "en": ("page-en-size-guide-men", "Size guide: men", "/en/size-guide/men",
  "Our men's sizes in body measurements (chest / waist in cm): S 88-94 / 76-82; M 95-101 / 83-89; L 102-108 / 90-96; XL 109-115 / 97-103; XXL 116-122 / 104-110. "
  "Trousers are sized by waist (W) and inside leg (L) in inches: W30 = 76 cm, W32 = 81 cm, W34 = 86 cm, W36 = 91 cm; L32 = 81 cm, L34 = 86 cm. Our shirts have a regular fit; for a looser look choose one size up."),
 "de": ("page-de-groessen-herren", "Größentabelle Herren", "/de/groessentabelle/herren",
  "Unsere Herrengrößen in Körpermaßen (Brust / Taille in cm): S 88-94 / 76-82; M 95-101 / 83-89; L 102-108 / 90-96; XL 109-115 / 97-103; XXL 116-122 / 104-110. "
  "Hosen sind nach Bundweite (W) und Innenbeinlänge (L) in Zoll bemessen: W30 = 76 cm, W32 = 81 cm, W34 = 86 cm, W36 = 91 cm; L32 = 81 cm, L34 = 86 cm. Unsere Hemden haben eine normale Passform; wer es lockerer mag, nimmt eine Größe größer."),
},
"size_bedding": {
 "en": ("page-en-bedding-sizes", "Bed linen sizes explained", "/en/size-guide/bedding",
  "Duvet and pillow sizes differ between countries. Our duvet covers come in the common German sizes 135 x 200 cm (single), 155 x 220 cm (long single / comfort) and 200 x 200 cm (double). Pillowcases come in 80 x 80 cm and 40 x 80 cm. "
  "Measure your duvet and choose the same size for the cover; a cover that is a few centimetres larger is fine. UK and US duvet sizes do not match exactly; for a UK double (200 x 200) our 200 x 200 cm cover fits."),
 "de": ("page-de-bettwaesche-groessen", "Bettwäsche-Größen erklärt", "/de/groessentabelle/bettwaesche",
  "Unsere Bettbezüge gibt es in den üblichen Größen 135 x 200 cm, 155 x 220 cm (Komfortgröße) und 200 x 200 cm (Doppelbett), Kissenbezüge in 80 x 80 cm und 40 x 80 cm. "
  "Messen Sie Ihre Bettdecke und wählen Sie den Bezug in derselben Größe; ein paar Zentimeter mehr sind kein Problem. Für Übergrößen wie 240 x 220 cm bieten wir derzeit keine Bezüge an."),
},
"contact": {
 "en": ("page-en-contact", "Contact us", "/en/contact",
  "Our customer service team is there for you Monday to Friday 9:00-18:00 and Saturday 10:00-14:00. Phone: +49 30 1234 5678 (German landline rates). E-mail: service@shop.example, we reply within 24 hours on working days. "
  "You can also use the chat on our website. Our office address is Lindenstraße 12, 10969 Berlin; please do not send returns to this address, they go to our warehouse in Leipzig."),
 "de": ("page-de-kontakt", "Kontakt", "/de/kontakt",
  "Unser Kundenservice ist Montag bis Freitag von 9 bis 18 Uhr und samstags von 10 bis 14 Uhr für Sie da. Telefon: +49 30 1234 5678 (Festnetztarif). E-Mail: service@shop.example, wir antworten werktags innerhalb von 24 Stunden. "
  "Oder schreiben Sie uns im Chat auf unserer Website. Unsere Büroadresse: Lindenstraße 12, 10969 Berlin; bitte schicken Sie Rücksendungen nicht an diese Adresse, sondern an unser Lager in Leipzig."),
},
"privacy": {
 "en": ("page-en-privacy", "Privacy policy", "/en/privacy",
  "This privacy policy explains which personal data we process when you visit our website or place an order, why we do so and which rights you have. "
  "We process your name, addresses, e-mail and order data to fulfil your order, and pass on only what is needed to DHL, our freight partner and the payment providers (PayPal, Klarna, Stripe). Invoices are kept for 10 years as required by German tax law. "
  "You have the right to access, correct and delete your data and to object to marketing. Our data protection officer can be reached at privacy@shop.example. Cookies are described in our cookie settings."),
 "de": ("page-de-datenschutz", "Datenschutzerklärung", "/de/datenschutz",
  "Diese Datenschutzerklärung erläutert, welche personenbezogenen Daten wir beim Besuch unserer Website und bei einer Bestellung verarbeiten, zu welchem Zweck und welche Rechte Sie haben. "
  "Name, Adressen, E-Mail und Bestelldaten verarbeiten wir zur Vertragserfüllung und geben nur das Nötige an DHL, unsere Spedition und die Zahlungsdienstleister (PayPal, Klarna, Stripe) weiter. Rechnungen bewahren wir aufgrund steuerrechtlicher Pflichten 10 Jahre auf. "
  "Sie haben das Recht auf Auskunft, Berichtigung und Löschung Ihrer Daten sowie auf Widerspruch gegen Werbung. Unseren Datenschutzbeauftragten erreichen Sie unter datenschutz@shop.example. Cookies erläutern wir in den Cookie-Einstellungen."),
},
"sustainability": {
 "en": ("page-en-sustainability", "Our materials and sustainability", "/en/about/sustainability",
  "We use GOTS-certified organic cotton, European flax linen grown in France and Belgium, mulesing-free merino and FSC-certified oak from German forests. Most of our textiles are made in Portugal and Lithuania, our furniture in a family workshop in Saxony. "
  "Parcels are shipped climate-neutrally with DHL GoGreen in boxes made of recycled cardboard, without plastic filler. We publish our supplier list once a year and offer a repair service so your favourite pieces last longer."),
 "de": ("page-de-nachhaltigkeit", "Nachhaltigkeit und Materialien", "/de/ueber-uns/nachhaltigkeit",
  "Wir verwenden GOTS-zertifizierte Bio-Baumwolle, europäisches Leinen aus Flachs aus Frankreich und Belgien, mulesingfreie Merinowolle und FSC-zertifizierte Eiche aus deutschen Wäldern. Die meisten Textilien werden in Portugal und Litauen genäht, unsere Möbel in einer Familienwerkstatt in Sachsen. "
  "Pakete versenden wir klimaneutral mit DHL GoGreen in Kartons aus Recyclingpappe, ohne Plastikfüllmaterial. Einmal im Jahr veröffentlichen wir unsere Lieferantenliste, und mit unserem Reparaturservice halten Lieblingsstücke länger."),
},
"repair": {
 "en": ("page-en-repair", "Repair service", "/en/help/repair-service",
  "A hole in your jumper or a loose button? Our repair service mends knitwear, shirts, trousers and bags bought from us, even after the warranty period. "
  "Small repairs such as buttons and seams are free in the first year, after that they cost from EUR 8. Darning knitwear costs from EUR 15. Send the item with the repair form from your account or drop it off in one of our stores; repairs take about 2 weeks."),
 "de": ("page-de-reparatur", "Reparaturservice", "/de/hilfe/reparaturservice",
  "Ein Loch im Pullover oder ein loser Knopf? Unser Reparaturservice repariert Strick, Hemden, Hosen und Taschen aus unserem Sortiment, auch nach Ablauf der Gewährleistung. "
  "Kleine Reparaturen wie Knöpfe und Nähte sind im ersten Jahr kostenlos, danach ab 8 EUR. Strick stopfen wir ab 15 EUR. Schicken Sie den Artikel mit dem Reparaturformular aus Ihrem Kundenkonto ein oder geben Sie ihn in einem unserer Geschäfte ab; eine Reparatur dauert etwa 2 Wochen."),
},
"stores": {
 "en": ("page-en-stores", "Our stores", "/en/stores",
  "Visit us in Berlin Mitte (Alte Schönhauser Straße 20), Hamburg Karolinenviertel (Marktstraße 30), Munich Schwabing (Hohenzollernstraße 15) and Vienna Neubau (Neubaugasse 8). "
  "All stores are open Monday to Saturday from 10:00 to 19:00 and closed on Sundays and public holidays. The range in store differs slightly from the online shop and furniture is only on display in Berlin and Munich; call the store before you come if you are looking for a particular item."),
 "de": ("page-de-filialen", "Unsere Geschäfte", "/de/geschaefte",
  "Besuchen Sie uns in Berlin-Mitte (Alte Schönhauser Straße 20), Hamburg Karoviertel (Marktstraße 30), München-Schwabing (Hohenzollernstraße 15) und Wien-Neubau (Neubaugasse 8). "
  "Alle Geschäfte haben Montag bis Samstag von 10 bis 19 Uhr geöffnet, sonntags und an Feiertagen geschlossen. Das Sortiment im Laden weicht etwas vom Onlineshop ab, Möbel stellen wir nur in Berlin und München aus; rufen Sie vorher an, wenn Sie einen bestimmten Artikel suchen."),
},
"account": {
 "en": ("page-en-account", "Your customer account", "/en/help/account",
  "With a customer account you can see your order history, download invoices, save addresses and create return labels. You can also order as a guest without an account. "
  "Forgotten your password? Click 'Forgot password' on the login page and we will send you a link to set a new one; the link is valid for 24 hours. To delete your account, write to service@shop.example."),
 "de": ("page-de-kundenkonto", "Ihr Kundenkonto", "/de/hilfe/kundenkonto",
  "Im Kundenkonto sehen Sie Ihre Bestellhistorie, laden Rechnungen herunter, speichern Adressen und erstellen Retourenlabels. Bestellen können Sie auch als Gast ohne Konto. "
  "Passwort vergessen? Klicken Sie auf der Anmeldeseite auf 'Passwort vergessen', wir schicken Ihnen einen Link zum Zurücksetzen, der 24 Stunden gültig ist. Zum Löschen Ihres Kontos schreiben Sie an service@shop.example."),
},
"cancel": {
 "en": ("page-en-change-cancel", "Change or cancel an order", "/en/help/change-or-cancel",
  "Within 30 minutes after ordering you can cancel your order yourself with the link in your order confirmation. After that, please contact customer service as quickly as possible; as long as the order has not been packed we can still change the delivery address, remove items or cancel it. "
  "Once the parcel has been dispatched it can no longer be stopped; simply return it free of charge instead. Furniture orders can be cancelled free of charge until production starts."),
 "de": ("page-de-bestellung-aendern", "Bestellung ändern oder stornieren", "/de/hilfe/bestellung-aendern",
  "Innerhalb von 30 Minuten nach der Bestellung können Sie selbst über den Link in der Bestellbestätigung stornieren. Danach wenden Sie sich bitte so schnell wie möglich an den Kundenservice; solange die Bestellung noch nicht gepackt ist, können wir die Lieferadresse ändern, Artikel entfernen oder stornieren. "
  "Ist das Paket bereits unterwegs, lässt es sich nicht mehr aufhalten; schicken Sie es dann einfach kostenlos zurück. Möbelbestellungen sind bis zum Produktionsbeginn kostenlos stornierbar."),
},
"giftwrap": {
 "en": ("page-en-gift-wrapping", "Gift wrapping", "/en/help/gift-wrapping",
  "Sending a present? For EUR 3.50 per order we wrap your items in recycled paper with a cotton ribbon and add a card with your personal message. "
  "When you choose the gift option, the delivery note shows no prices. Gift wrapping is not available for furniture and for orders collected in store."),
 "de": ("page-de-geschenkverpackung", "Geschenkverpackung", "/de/hilfe/geschenkverpackung",
  "Sie verschicken ein Geschenk? Für 3,50 EUR pro Bestellung verpacken wir Ihre Artikel in Recyclingpapier mit Baumwollband und legen eine Karte mit Ihrem persönlichen Gruß bei. "
  "Mit der Geschenkoption enthält der Lieferschein keine Preise. Für Möbel und Abholbestellungen ist die Geschenkverpackung nicht verfügbar."),
},
"terms": {
 "en": ("page-en-terms", "Terms and conditions", "/en/terms",
  "These terms and conditions apply to all orders placed in our online shop. The contract is concluded when we send the dispatch confirmation. All prices include German VAT; shipping costs are shown separately. "
  "Consumers have a statutory right of withdrawal of 14 days; we voluntarily extend it to 30 days. The goods remain our property until paid in full. The contract is governed by German law; the EU online dispute resolution platform is available."),
 "de": ("page-de-agb", "Allgemeine Geschäftsbedingungen (AGB)", "/de/agb",
  "Diese AGB gelten für alle Bestellungen in unserem Onlineshop. Der Vertrag kommt mit unserer Versandbestätigung zustande. Alle Preise enthalten die gesetzliche Mehrwertsteuer, Versandkosten werden gesondert ausgewiesen. "
  "Verbrauchern steht ein gesetzliches Widerrufsrecht von 14 Tagen zu; wir verlängern die Frist freiwillig auf 30 Tage. Die Ware bleibt bis zur vollständigen Bezahlung unser Eigentum. Es gilt deutsches Recht; die OS-Plattform der EU steht zur Verfügung."),
},
"imprint": {
 "de": ("page-de-impressum", "Impressum", "/de/impressum",
  "Angaben gemäß § 5 TMG: Nordlicht Home & Wear GmbH, Lindenstraße 12, 10969 Berlin. Vertreten durch die Geschäftsführerin Anna Becker. Registergericht Amtsgericht Charlottenburg, HRB 123456 B. "
  "Umsatzsteuer-ID DE 123 456 789. Kontakt: service@shop.example, Telefon +49 30 1234 5678."),
},
}

# ---------------------------------------------------------------------------
# Products
# ---------------------------------------------------------------------------
SIZES_MEN = ["S", "M", "L", "XL", "XXL"]
SIZES_WOMEN = ["XS", "S", "M", "L", "XL"]
TABLE_MEN_EN = "Size table (body measurements, chest / waist in cm): S 88-94 / 76-82, M 95-101 / 83-89, L 102-108 / 90-96, XL 109-115 / 97-103, XXL 116-122 / 104-110."
TABLE_MEN_DE = "Größentabelle (Körpermaße Brust / Taille in cm): S 88-94 / 76-82, M 95-101 / 83-89, L 102-108 / 90-96, XL 109-115 / 97-103, XXL 116-122 / 104-110."
TABLE_WOMEN_EN = "Size table (bust / waist / hips in cm): XS (34) 80/64/88, S (36) 84/68/92, M (38) 88/72/96, L (40) 94/78/102, XL (42-44) 100/84/108."
TABLE_WOMEN_DE = "Größentabelle (Brust / Taille / Hüfte in cm): XS (34) 80/64/88, S (36) 84/68/92, M (38) 88/72/96, L (40) 94/78/102, XL (42-44) 100/84/108."
TABLE_UNISEX_EN = "Size table (chest width of the garment laid flat, cm): XS 50, S 53, M 56, L 59, XL 62."

CARE = {
 "linen_en": "Machine wash at 40 °C, gentle cycle. Do not tumble dry. Iron while damp.",
 "cotton_en": "Machine wash at 40 °C. Tumble dry on low. Iron on medium heat.",
 "wool_en": "Hand wash cold or wool programme at 30 °C. Dry flat. Do not tumble dry.",
 "cashmere_en": "Hand wash cold with wool detergent or dry clean. Dry flat.",
 "viscose_en": "Machine wash at 30 °C, gentle cycle, inside out. Do not tumble dry.",
 "bedding_en": "Machine wash up to 60 °C. Tumble dry on low.",
 "linenbed_en": "Machine wash up to 60 °C. Line dry, do not tumble dry at high heat.",
 "rain_en": "Machine wash at 30 °C without fabric softener. Do not tumble dry. Do not dry clean.",
 "leather_en": "Wipe with a dry cloth; treat occasionally with leather balm.",
 "wood_en": "Wipe with a damp cloth; re-oil once or twice a year.",
 "ceramic_en": "Dishwasher and microwave safe.",
 "candle_en": "Trim the wick to 5 mm before lighting; do not burn longer than 4 hours at a time.",
 "leinen_de": "Maschinenwäsche 40 °C, Schonwaschgang. Nicht in den Trockner. Feucht bügeln.",
 "baumwolle_de": "Maschinenwäsche 40 °C. Trockner bei niedriger Temperatur möglich.",
 "wolle_de": "Handwäsche kalt oder Wollprogramm 30 °C. Liegend trocknen. Nicht in den Trockner.",
 "kaschmir_de": "Handwäsche kalt mit Wollwaschmittel oder chemische Reinigung. Liegend trocknen.",
 "bett_de": "Waschbar bis 60 °C. Trockner bei niedriger Temperatur möglich.",
 "daune_de": "Waschbar bei 60 °C in großer Maschine, mit Tennisbällen im Trockner trocknen.",
 "holz_de": "Mit feuchtem Tuch abwischen, ein- bis zweimal im Jahr nachölen.",
 "glas_de": "Spülmaschinengeeignet.",
 "filz_de": "Nicht waschen; Flecken mit Wasser und etwas Wollwaschmittel ausbürsten.",
 "socken_de": "Wollprogramm 30 °C. Nicht in den Trockner.",
}

# fields: code, lang, name, type, kind, material, mat_word, desc, price, sizes, table, care,
#         variants [(suffix, colour/variant label, [aliases], price override or None)], group
# German: art_nom / pron (pronoun for "gibt's ___ auch")
F = []
def fam(**kw):
    F.append(kw)

fam(code="LS-410", lang="en", name="Porto", type="Linen shirt", kind="apparel", group="shirts",
    material="100% European linen, garment-washed", mat_word="linen", price=59,
    desc="A relaxed men's shirt in light, garment-washed linen with a button-down collar and chest pocket. Breathable and cool on hot days.",
    sizes=SIZES_MEN, table=TABLE_MEN_EN, care="linen_en",
    variants=[("WH", "white", ["white"]), ("SB", "sky blue", ["blue", "light blue", "sky blue"]),
              ("SA", "sand", ["sand", "beige"]), ("OL", "olive", ["olive", "green"])])
fam(code="OX-220", lang="en", name="Hamilton", type="Oxford shirt", kind="apparel", group="shirts",
    material="100% organic cotton Oxford cloth (GOTS)", mat_word="cotton", price=49,
    desc="A classic men's Oxford shirt in sturdy organic cotton, regular fit, button-down collar. Gets softer with every wash.",
    sizes=SIZES_MEN, table=TABLE_MEN_EN, care="cotton_en",
    variants=[("WH", "white", ["white"]), ("LB", "light blue", ["light blue", "blue"]),
              ("PS", "pink stripe", ["pink", "striped"])])
fam(code="MJ-118", lang="en", name="Fell", type="Merino jumper", kind="knit", group="knit_en",
    material="100% extra-fine merino wool, mulesing-free", mat_word="merino",
    price=89, desc="A fine-knit crew-neck jumper in soft extra-fine merino, unisex fit. Warm without bulk, easy to layer.",
    sizes=["XS", "S", "M", "L", "XL"], table=TABLE_UNISEX_EN, care="wool_en",
    variants=[("NV", "navy", ["navy", "dark blue"]), ("GR", "grey melange", ["grey", "gray"]),
              ("BU", "burgundy", ["burgundy", "red", "wine red"])])
fam(code="SW-190", lang="en", name="Loop", type="Sweatshirt", kind="apparel", group="knit_en",
    material="100% organic cotton loopback jersey (GOTS), 340 g/m²", mat_word="cotton", price=59,
    desc="A heavyweight unisex sweatshirt in organic cotton loopback with ribbed cuffs. Slightly boxy fit.",
    sizes=["XS", "S", "M", "L", "XL"], table=TABLE_UNISEX_EN, care="cotton_en",
    variants=[("GM", "grey melange", ["grey", "gray"]), ("FG", "forest green", ["green", "forest green"]),
              ("EC", "ecru", ["ecru", "cream", "off-white"])])
fam(code="CS-077", lang="en", name="Aura", type="Cashmere scarf", kind="accessory", group="scarf",
    material="100% cashmere from Inner Mongolia, woven in Scotland", mat_word="cashmere", price=119,
    desc="A soft, lightweight woven cashmere scarf with fringed ends, 180 x 30 cm. One size.",
    sizes=None, table=None, care="cashmere_en",
    variants=[("CA", "camel", ["camel", "brown"]), ("CH", "charcoal", ["charcoal", "dark grey"])])
fam(code="WD-260", lang="en", name="Lina", type="Wrap dress", kind="apparel", group="dresses",
    material="100% LENZING ECOVERO viscose", mat_word="viscose", price=79,
    desc="A flowing midi wrap dress with long sleeves and a tie waist. Lined bodice, falls just below the knee.",
    sizes=SIZES_WOMEN, table=TABLE_WOMEN_EN, care="viscose_en",
    variants=[("FL", "floral print", ["floral", "flowery", "flower print"]), ("BK", "black", ["black"]),
              ("EM", "emerald", ["green", "emerald"])])
fam(code="LD-270", lang="en", name="Sola", type="Linen dress", kind="apparel", group="dresses",
    material="100% European linen", mat_word="linen", price=95,
    desc="A sleeveless A-line summer dress in mid-weight linen with side pockets and a square neckline.",
    sizes=SIZES_WOMEN, table=TABLE_WOMEN_EN, care="linen_en",
    variants=[("TC", "terracotta", ["terracotta", "rust", "orange"]), ("WH", "white", ["white"])])
fam(code="RJ-150", lang="en", name="Skagen", type="Rain jacket", kind="apparel", group="jackets",
    material="100% recycled polyester with PU coating, taped seams, water column 10,000 mm", mat_word="recycled polyester",
    price=129, desc="A hooded unisex rain jacket with taped seams, adjustable cuffs and two snap pockets. Fully waterproof.",
    sizes=["XS", "S", "M", "L", "XL"], table=TABLE_UNISEX_EN, care="rain_en",
    variants=[("YE", "yellow", ["yellow"]), ("NV", "navy", ["navy", "dark blue", "blue"])])
fam(code="CH-210", lang="en", name="Dune", type="Chinos", kind="apparel", group="trousers_en",
    material="98% organic cotton, 2% elastane twill", mat_word="cotton", price=69,
    desc="Men's slim straight chinos in comfortable stretch twill with a mid-rise waist.",
    sizes=["W30", "W32", "W34", "W36"], table="Waist sizes: W30 = 76 cm, W32 = 81 cm, W34 = 86 cm, W36 = 91 cm; inside leg 32 inches (81 cm).", care="cotton_en",
    variants=[("BE", "beige", ["beige", "sand", "khaki"]), ("NV", "navy", ["navy", "blue"]), ("OL", "olive", ["olive", "green"])])
fam(code="TB-080", lang="en", name="Harbour", type="Canvas tote bag", kind="accessory", group="bags",
    material="Heavy organic cotton canvas (500 g/m²) with leather handles", mat_word="canvas", price=29,
    desc="A roomy tote bag, 42 x 38 x 12 cm, with an inner zip pocket. Fits a laptop up to 14 inches.",
    sizes=None, table=None, care="cotton_en",
    variants=[("NA", "natural", ["natural", "cream", "beige"]), ("BK", "black", ["black"])])
fam(code="BL-060", lang="en", name="Ridge", type="Leather belt", kind="accessory", group="bags",
    material="Full-grain, vegetable-tanned leather with a brass buckle", mat_word="leather", price=55,
    desc="A 3.5 cm wide belt in full-grain leather that develops a patina over time.",
    sizes=["85 cm", "90 cm", "95 cm", "100 cm", "110 cm"], table="Belt length is measured from the buckle to the middle hole; choose 10 cm more than your trouser waist.", care="leather_en",
    variants=[("BR", "cognac brown", ["brown", "cognac"]), ("BK", "black", ["black"])])
fam(code="BT-700", lang="en", name="Calm", type="Organic cotton towel", kind="home_textile", group="towels",
    material="100% organic cotton terry, 600 g/m²", mat_word="terry", price=29,
    desc="A thick, absorbent terry towel with a hanging loop. Prices: hand towel 50 x 100 cm EUR 14, bath towel 70 x 140 cm EUR 29, bath sheet 100 x 150 cm EUR 45.",
    sizes=["hand towel", "bath towel", "bath sheet"], table=None, care="bedding_en",
    variants=[("WH", "white", ["white"]), ("GR", "stone grey", ["grey", "gray"]), ("SG", "sage", ["sage", "green"])])
fam(code="LB-500", lang="en", name="Nora", type="Linen duvet cover set", kind="home_textile", group="bedding",
    material="100% stonewashed European linen", mat_word="linen", price=139,
    desc="Duvet cover with matching pillowcase in soft stonewashed linen, with coconut buttons. Sizes and prices: 135 x 200 cm + 80 x 80 cm EUR 139; 155 x 220 cm + 80 x 80 cm EUR 159; 200 x 200 cm + 2 x 80 x 80 cm EUR 199.",
    sizes=["135 x 200", "155 x 220", "200 x 200"], table=None, care="linenbed_en",
    variants=[("NA", "natural", ["natural", "oatmeal", "beige"]), ("WH", "white", ["white"]), ("SG", "sage", ["sage", "green"])])
fam(code="PC-510", lang="en", name="Crisp", type="Percale duvet cover set", kind="home_textile", group="bedding",
    material="100% organic cotton percale, 200 thread count", mat_word="percale", price=89,
    desc="Cool, crisp duvet cover with pillowcase in organic cotton percale with a hidden zip. Sizes and prices: 135 x 200 cm EUR 89; 155 x 220 cm EUR 99; 200 x 200 cm EUR 129.",
    sizes=["135 x 200", "155 x 220", "200 x 200"], table=None, care="bedding_en",
    variants=[("WH", "white", ["white"]), ("GR", "light grey", ["grey", "light grey"])])
fam(code="WT-330", lang="en", name="Hygge", type="Wool throw", kind="home_textile", group="throws",
    material="100% lambswool, woven in Lithuania", mat_word="lambswool", price=99,
    desc="A cosy throw, 130 x 180 cm, in brushed lambswool with fringes. Perfect for the sofa.",
    sizes=None, table=None, care="wool_en",
    variants=[("OC", "ochre", ["ochre", "mustard", "yellow"]), ("GR", "grey", ["grey", "gray"])])
fam(code="CP-640", lang="en", name="Kiln", type="Stoneware dinner plate set", kind="tableware", group="tableware",
    material="Reactive-glazed stoneware, made in Portugal", mat_word="stoneware", price=59,
    desc="Set of 4 dinner plates, 27 cm diameter, with a slightly raised rim. Each plate varies a little because of the reactive glaze.",
    sizes=None, table=None, care="ceramic_en",
    variants=[("WH", "white", ["white"]), ("SP", "speckled sand", ["speckled", "sand", "beige"])])
fam(code="ML-650", lang="en", name="Kiln", type="Stoneware mug", kind="tableware", group="tableware",
    material="Reactive-glazed stoneware, made in Portugal", mat_word="stoneware", price=16,
    desc="A 350 ml mug with a generous handle, from the same range as our Kiln plates. Sold individually.",
    sizes=None, table=None, care="ceramic_en",
    variants=[("WH", "white", ["white"]), ("SP", "speckled sand", ["speckled", "sand", "beige"])])
fam(code="VA-660", lang="en", name="Tide", type="Ceramic vase", kind="tableware", group="decor",
    material="Hand-thrown ceramic, watertight glaze inside", mat_word="ceramic", price=45,
    desc="A bulbous vase, 25 cm high, opening 8 cm, thrown by hand in a small workshop in Porto.",
    sizes=None, table=None, care="ceramic_en",
    variants=[("BL", "blue glaze", ["blue"]), ("WH", "matte white", ["white", "matte white"])])
fam(code="SC-720", lang="en", name="Ember", type="Scented candle", kind="candle", group="decor",
    material="200 g soy wax in a reusable amber glass, cotton wick", mat_word="soy wax", price=32,
    desc="A hand-poured candle with about 45 hours of burn time.",
    sizes=None, table=None, care="candle_en",
    variants=[("FG", "fig", ["fig"]), ("CE", "cedarwood", ["cedar", "cedarwood"])])
fam(code="OT-900", lang="en", name="Rune", type="Oak side table", kind="furniture", group="tables",
    material="Solid FSC oak, natural oil finish", mat_word="oak", price=249,
    desc="A round side table, 45 cm diameter and 50 cm high, made from solid oak in Saxony. Delivered fully assembled by parcel.",
    sizes=None, table=None, care="wood_en",
    variants=[("NA", "natural oak", ["natural", "light"]), ("BL", "black-stained oak", ["black", "dark"])])

# ---- German families
fam(code="LH-310", lang="de", name="Marie", type="Leinenhose", art="die", pron="die", kind="apparel", group="linen_de",
    material="100 % europäisches Leinen", mat_word="Leinen", price=79,
    desc="Weite Damenhose aus leichtem Leinen mit elastischem Bund, Tunnelzug und Seitentaschen. Knöchellang.",
    sizes=SIZES_WOMEN, table=TABLE_WOMEN_DE, care="leinen_de",
    variants=[("SA", "sand", ["sand", "beige"]), ("SW", "schwarz", ["schwarz"]), ("OG", "olivgrün", ["oliv", "grün", "olivgrün"])])
fam(code="LB-315", lang="de", name="Ida", type="Leinenbluse", art="die", pron="die", kind="apparel", group="linen_de",
    material="100 % europäisches Leinen", mat_word="Leinen", price=69,
    desc="Lockere Damenbluse aus Leinen mit Stehkragen und Perlmuttknöpfen, leicht überschnittene Schultern.",
    sizes=SIZES_WOMEN, table=TABLE_WOMEN_DE, care="leinen_de",
    variants=[("WS", "weiß", ["weiß", "weiss"]), ("HB", "hellblau", ["hellblau", "blau"])])
fam(code="SJ-140", lang="de", name="Frida", type="Strickjacke", art="die", pron="die", kind="apparel", group="knit_de",
    material="100 % Bio-Baumwolle (GOTS)", mat_word="Baumwolle", price=89,
    desc="Grobstrick-Cardigan für Damen mit Holzknöpfen und aufgesetzten Taschen, locker geschnitten.",
    sizes=SIZES_WOMEN, table=TABLE_WOMEN_DE, care="baumwolle_de",
    variants=[("CR", "creme", ["creme", "weiß", "hell"]), ("DB", "dunkelblau", ["dunkelblau", "navy", "blau"])])
fam(code="KP-120", lang="de", name="Ella", type="Kaschmirpullover", art="der", pron="den", kind="knit", group="knit_de",
    material="100 % Kaschmir", mat_word="Kaschmir", price=169,
    desc="Weicher Damenpullover aus reinem Kaschmir mit Rundhals und leicht verlängertem Rücken.",
    sizes=SIZES_WOMEN, table=TABLE_WOMEN_DE, care="kaschmir_de",
    variants=[("CA", "camel", ["camel", "braun"]), ("GR", "grau", ["grau"]), ("RO", "rosé", ["rosa", "rosé", "rose"])])
fam(code="WM-160", lang="de", name="Greta", type="Wollmantel", art="der", pron="den", kind="apparel", group="coats_de",
    material="80 % Schurwolle, 20 % Polyamid; Futter 100 % Viskose", mat_word="Wolle", price=249,
    desc="Langer Damenmantel aus Wolle mit Reverskragen, Bindegürtel und Innentasche. Reicht bis zur Wade.",
    sizes=SIZES_WOMEN, table=TABLE_WOMEN_DE, care="kaschmir_de",
    variants=[("GR", "grau", ["grau"]), ("CA", "camel", ["camel", "braun"])])
fam(code="JN-200", lang="de", name="Anton", type="Jeans Straight Fit", art="die", pron="die", kind="apparel", group="trousers_de",
    material="98 % Bio-Baumwolle, 2 % Elasthan, 12 oz Denim", mat_word="Denim", price=99,
    desc="Herrenjeans mit gerader Beinform und mittlerer Leibhöhe, gefertigt in Portugal.",
    sizes=["W30", "W32", "W34", "W36"], table="Größen: Bundweite W30-W36, jeweils in Länge L32 und L34. W30 = 76 cm, W32 = 81 cm, W34 = 86 cm, W36 = 91 cm.", care="baumwolle_de",
    variants=[("HB", "hellblau", ["hellblau", "hell"]), ("DB", "dunkelblau", ["dunkelblau", "dunkel", "indigo"]), ("SW", "schwarz", ["schwarz"])])
fam(code="TS-180", lang="de", name="Basic", type="T-Shirt", art="das", pron="das", kind="apparel", group="tees_de",
    material="100 % Bio-Baumwolle, 180 g/m²", mat_word="Baumwolle", price=25,
    desc="Schweres Unisex-T-Shirt mit Rundhals, formstabil auch nach vielen Wäschen.",
    sizes=SIZES_MEN, table=TABLE_MEN_DE, care="baumwolle_de",
    variants=[("WS", "weiß", ["weiß", "weiss"]), ("SW", "schwarz", ["schwarz"]), ("GR", "grau meliert", ["grau", "meliert"])])
fam(code="HS-090", lang="de", name="Stube", type="Filzhausschuhe", art="die", pron="die", kind="apparel", group="home_de",
    material="100 % Schafwollfilz, Sohle aus Naturkautschuk", mat_word="Filz", price=49,
    desc="Warme Hausschuhe aus gewalktem Wollfilz mit rutschfester Sohle.",
    sizes=["36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46"], table="Fallen normal aus; bei halben Größen eine Nummer größer wählen.", care="filz_de",
    variants=[("GR", "grau", ["grau"]), ("RT", "rot", ["rot"])])
fam(code="SK-095", lang="de", name="Alpin", type="Wollsocken 3er-Pack", art="die", pron="die", kind="apparel", group="home_de",
    material="70 % Merinowolle, 25 % Polyamid, 5 % Elasthan", mat_word="Merino", price=29,
    desc="Drei Paar dicke Wandersocken aus Merinowolle mit verstärkter Ferse und Spitze.",
    sizes=["35-38", "39-42", "43-46"], table=None, care="socken_de",
    variants=[("AN", "anthrazit", ["anthrazit", "dunkelgrau", "grau"]), ("NA", "natur", ["natur", "beige"])])
fam(code="BW-530", lang="de", name="Nacht", type="Satin-Bettwäsche", art="die", pron="die", kind="home_textile", group="bedding",
    material="100 % Baumwollsatin, 300 Fäden", mat_word="Satin", price=79,
    desc="Glänzende, glatte Bettwäsche aus Baumwollsatin mit Reißverschluss, Bezug plus ein Kissenbezug 80 x 80 cm. Größen und Preise: 135 x 200 cm 79 EUR, 155 x 220 cm 99 EUR.",
    sizes=["135 x 200", "155 x 220"], table=None, care="bett_de",
    variants=[("AN", "anthrazit", ["anthrazit", "dunkelgrau", "grau"]), ("WS", "weiß", ["weiß", "weiss"])])
fam(code="KK-520", lang="de", name="Wolke", type="Daunenkopfkissen", art="das", pron="das", kind="home_textile", group="pillows",
    material="Füllung 90 % Daunen, 10 % Federn; Bezug 100 % Baumwolle, weiß", mat_word="Daunen", price=49,
    desc="Weiches, bauschiges Kopfkissen mit Daunenfüllung aus Europa, Downpass-zertifiziert.",
    sizes=None, table=None, care="daune_de",
    variants=[("4080", "40 x 80 cm", ["40x80", "40 x 80"], 49), ("8080", "80 x 80 cm", ["80x80", "80 x 80"], 69)])
fam(code="BD-540", lang="de", name="Traum", type="Ganzjahresbettdecke", art="die", pron="die", kind="home_textile", group="pillows",
    material="Füllung 100 % Lyocell (TENCEL), Bezug Baumwolle", mat_word="Lyocell", price=119,
    desc="Atmungsaktive Bettdecke für das ganze Jahr, auch für Allergiker geeignet.",
    sizes=None, table=None, care="bett_de",
    variants=[("135", "135 x 200 cm", ["135x200", "135 x 200"], 119), ("155", "155 x 220 cm", ["155x220", "155 x 220"], 149)])
fam(code="TD-600", lang="de", name="Tafel", type="Leinentischdecke", art="die", pron="die", kind="home_textile", group="table_linen",
    material="100 % Leinen, vorgewaschen", mat_word="Leinen", price=69,
    desc="Tischdecke aus vorgewaschenem Leinen mit breitem Saum. Größen: 140 x 180 cm 69 EUR, 140 x 250 cm 89 EUR.",
    sizes=["140 x 180", "140 x 250"], table=None, care="leinen_de",
    variants=[("NA", "natur", ["natur", "beige"]), ("WS", "weiß", ["weiß", "weiss"]), ("BS", "blau gestreift", ["blau", "gestreift"])])
fam(code="KH-610", lang="de", name="Velours", type="Samt-Kissenhülle", art="die", pron="die", kind="home_textile", group="cushions",
    material="100 % Baumwollsamt, Rückseite Leinen", mat_word="Samt", price=29,
    desc="Kissenhülle 45 x 45 cm aus Baumwollsamt mit verdecktem Reißverschluss, ohne Füllung.",
    sizes=None, table=None, care="baumwolle_de",
    variants=[("PE", "petrol", ["petrol", "türkis"]), ("SE", "senf", ["senf", "gelb"]), ("RS", "altrosa", ["rosa", "altrosa"])])
fam(code="HT-620", lang="de", name="Waffel", type="Waffelpiqué-Handtuch", art="das", pron="das", kind="home_textile", group="towels",
    material="100 % Baumwolle, Waffelpiqué", mat_word="Waffelpiqué", price=19,
    desc="Leichtes, schnell trocknendes Handtuch in Waffelstruktur. Handtuch 50 x 100 cm 19 EUR, Duschtuch 70 x 140 cm 35 EUR.",
    sizes=["Handtuch", "Duschtuch"], table=None, care="bett_de",
    variants=[("WS", "weiß", ["weiß", "weiss"]), ("SA", "salbei", ["salbei", "grün"]), ("RS", "rosé", ["rosa", "rosé"])])
fam(code="MT-335", lang="de", name="Zopf", type="Strickdecke", art="die", pron="die", kind="home_textile", group="throws",
    material="100 % Bio-Baumwolle", mat_word="Baumwolle", price=79,
    desc="Kuschelige Wohndecke mit Zopfmuster, 130 x 170 cm.",
    sizes=None, table=None, care="baumwolle_de",
    variants=[("CR", "creme", ["creme", "weiß"]), ("GR", "grau", ["grau"])])
fam(code="GL-650", lang="de", name="Klar", type="Wasserglas-Set", art="das", pron="das", kind="tableware", group="glass_de",
    material="Mundgeblasenes Glas", mat_word="Glas", price=36,
    desc="6 Wassergläser à 300 ml, dünnwandig und stapelbar.",
    sizes=None, table=None, care="glas_de",
    variants=[("KL", "klar", ["klar", "durchsichtig"]), ("RG", "rauchgrau", ["rauchgrau", "grau"])])
fam(code="ET-910", lang="de", name="Eik", type="Esstisch", art="der", pron="den", kind="furniture", group="tables",
    material="Massive Eiche (FSC), natur geölt", mat_word="Eiche", price=1290,
    desc="Esstisch aus massiver Eiche mit Tischplatte 4 cm stark, Höhe 75 cm. Lieferung per Spedition, einfache Montage der Beine.",
    sizes=None, table=None, care="holz_de",
    variants=[("160", "160 x 90 cm", ["160", "160 cm", "6 Personen"], 1290), ("200", "200 x 100 cm", ["200", "200 cm", "8 Personen"], 1590)])
fam(code="ST-920", lang="de", name="Bo", type="Stuhl", art="der", pron="den", kind="furniture", group="chairs",
    material="Massive Buche (FSC), lackiert bzw. geölt", mat_word="Buche", price=189,
    desc="Stapelbarer Esszimmerstuhl aus massiver Buche mit geschwungener Rückenlehne. Sitzhöhe 46 cm.",
    sizes=None, table=None, care="holz_de",
    variants=[("NA", "natur", ["natur", "hell"]), ("SW", "schwarz", ["schwarz"])])
fam(code="SD-930", lang="de", name="Linn", type="Sideboard", art="das", pron="das", kind="furniture", group="chairs",
    material="Massive Eiche (FSC), geölt", mat_word="Eiche", price=1190,
    desc="Sideboard 180 x 45 x 75 cm mit zwei Schiebetüren und zwei Schubladen, Lieferung per Spedition.",
    sizes=None, table=None, care="holz_de",
    variants=[("NA", "Eiche natur", ["natur", "hell"]), ("SW", "Eiche schwarz gebeizt", ["schwarz", "dunkel"])])

# ---------------------------------------------------------------------------
rng = random.Random(SEED)

STOCK_EN = ["in stock", "in stock", "in stock", "only {n} left", "sold out, back in about 3 weeks"]
STOCK_DE = ["vorrätig", "vorrätig", "vorrätig", "nur noch {n} Stück", "ausverkauft, wieder da in ca. 3 Wochen"]

def eur(v, lang):
    s = f"{v:,.2f}"
    if lang == "de":
        s = s.replace(",", "X").replace(".", ",").replace("X", ".")
        return s + " EUR"
    return "EUR " + s

products = []  # dicts with sku, fam, variant info
catalogue = []
for f in F:
    lang = f["lang"]
    for v in f["variants"]:
        suffix, label, aliases = v[0], v[1], v[2]
        price = v[3] if len(v) > 3 else f["price"]
        sku = f"{f['code']}-{suffix}"
        title = f"{f['type']} {f['name']}, {label}"
        others = [w[1] for w in f["variants"] if w[0] != suffix]
        parts = [f["desc"]]
        if lang == "en":
            parts.append(f"Material: {f['material']}.")
            parts.append(f"Colour: {label}." if len(v) <= 3 else f"Size: {label}.")
            parts.append(f"Price: {eur(price, lang)} incl. VAT.")
            if f["sizes"]:
                st = []
                for s in f["sizes"]:
                    st.append(f"{s} " + rng.choice(STOCK_EN).format(n=rng.randint(1, 3)))
                parts.append("Sizes and availability: " + "; ".join(st) + ".")
            else:
                parts.append("Availability: " + rng.choice(STOCK_EN[:4]).format(n=rng.randint(2, 4)) + ".")
            if f["table"]:
                parts.append(f["table"])
            parts.append("Care: " + CARE[f["care"]])
            if others:
                parts.append("Also available in: " + ", ".join(others) + ".")
            parts.append(f"Article number: {sku}.")
        else:
            parts.append(f"Material: {f['material']}.")
            parts.append(f"Farbe: {label}." if len(v) <= 3 else f"Größe: {label}.")
            parts.append(f"Preis: {eur(price, lang)} inkl. MwSt.")
            if f["sizes"]:
                st = []
                for s in f["sizes"]:
                    st.append(f"{s} " + rng.choice(STOCK_DE).format(n=rng.randint(1, 3)))
                parts.append("Größen und Verfügbarkeit: " + "; ".join(st) + ".")
            else:
                parts.append("Verfügbarkeit: " + rng.choice(STOCK_DE[:4]).format(n=rng.randint(2, 4)) + ".")
            if f["table"]:
                parts.append(f["table"])
            parts.append("Pflege: " + CARE[f["care"]])
            if others:
                parts.append("Auch erhältlich in: " + ", ".join(others) + ".")
            parts.append(f"Artikelnummer: {sku}.")
        slug = f"{f['type']}-{f['name']}-{label}".lower()
        for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"), (" ", "-"), (",", ""), ("/", "-")):
            slug = slug.replace(a, b)
        url = f"{BASE}/{lang}/p/{slug}-{sku.lower()}"
        doc = {"id": sku, "title": title, "text": " ".join(parts), "url": url, "identifiers": [sku], "lang": lang}
        catalogue.append(doc)
        products.append({"sku": sku, "f": f, "label": label, "aliases": aliases, "price": price, "title": title})

for topic, langs in PAGES.items():
    for lang, (pid, title, path, text) in langs.items():
        catalogue.append({"id": pid, "title": title, "text": text, "url": BASE + path, "lang": lang})

PROD = {p["sku"]: p for p in products}
FAMS = {f["code"]: f for f in F}

def page_expect(topic, lang):
    langs = PAGES[topic]
    out = []
    if lang in langs:
        out.append(langs[lang][0])
    for l2, t in langs.items():
        if l2 != lang:
            out.append(t[0])
    return out

# ---------------------------------------------------------------------------
# Question pools for pages. DIRECT uses the page's own words; PARA is worded
# differently (used for paraphrase, subject_change and after_condensation).
# ---------------------------------------------------------------------------
DIRECT = {
 "shipping": {"en": ["What are your shipping and delivery costs?", "How much is standard shipping within Germany?"],
              "de": ["Wie hoch sind die Versandkosten innerhalb Deutschlands?", "Welche Lieferzeit hat der Versand in die EU-Länder?"]},
 "express": {"en": ["Do you offer express delivery?", "How much is next-day delivery?"],
             "de": ["Was kostet der Expressversand?", "Ist eine Samstagszustellung möglich?"]},
 "international": {"en": ["Do you ship outside the EU?"], "de": ["Liefert ihr auch außerhalb der EU?"]},
 "freight": {"en": ["How does furniture delivery by freight carrier work?"], "de": ["Wie läuft die Speditionslieferung für Möbel ab?"]},
 "holidays": {"en": ["What are the delivery times at Christmas?"], "de": ["Wie sind die Lieferzeiten an Weihnachten?"]},
 "collect": {"en": ["Do you offer click & collect?"], "de": ["Kann ich meine Bestellung im Geschäft abholen?"]},
 "tracking": {"en": ["How can I track my order?"], "de": ["Wo finde ich die Sendungsverfolgung?"]},
 "lost": {"en": ["My parcel hasn't arrived, what should I do?"], "de": ["Mein Paket ist nicht angekommen. Was nun?"]},
 "returns": {"en": ["What is your returns and refunds policy?", "How long does a refund take?"],
             "de": ["Wie funktioniert die Rücksendung?", "Wann bekomme ich meine Erstattung?"]},
 "exchange": {"en": ["Can I exchange an item for a different size?"], "de": ["Ist ein Umtausch in eine andere Größe möglich?"]},
 "furniture_returns": {"en": ["How do I return furniture?"], "de": ["Wie funktioniert die Rückgabe von Möbeln?"]},
 "warranty": {"en": ["What warranty do you give?", "What do I do with a faulty item?"], "de": ["Wie lange gilt die Gewährleistung?", "Wie läuft eine Reklamation ab?"]},
 "payment": {"en": ["Which payment methods do you accept?"], "de": ["Welche Zahlungsarten gibt es?"]},
 "paylater": {"en": ["Can I pay in instalments with Klarna?"], "de": ["Ist Ratenzahlung mit Klarna möglich?"]},
 "giftcards": {"en": ["Do you sell gift cards?", "How long is a gift card valid?"], "de": ["Wie lange sind Geschenkgutscheine gültig?"]},
 "discounts": {"en": ["Can I use two discount codes on one order?"], "de": ["Kann ich mehrere Rabattcodes pro Bestellung einlösen?"]},
 "newsletter": {"en": ["Is there a discount if I sign up for the newsletter?"], "de": ["Gibt es Rabatt bei Anmeldung zum Newsletter?"]},
 "care_linen": {"en": ["How should I care for linen?"], "de": ["Habt ihr Pflegehinweise für Leinen?"]},
 "care_wool": {"en": ["How do I care for cashmere?"], "de": ["Wie pflege ich Kaschmir richtig?"]},
 "care_wood": {"en": ["How do I look after oak furniture?"], "de": ["Wie pflege ich Massivholzmöbel?"]},
 "size_women": {"en": ["Where is the size guide for women?"], "de": ["Wo finde ich die Größentabelle für Damen?"]},
 "size_men": {"en": ["Do you have a size guide for men?"], "de": ["Gibt es eine Größentabelle für Herren?"]},
 "size_bedding": {"en": ["What bed linen sizes do you have?"], "de": ["Welche Bettwäsche-Größen gibt es?"]},
 "contact": {"en": ["How can I contact you?"], "de": ["Wie kann ich euch kontaktieren?"]},
 "privacy": {"en": ["Where is your privacy policy?"], "de": ["Wo ist eure Datenschutzerklärung?"]},
 "sustainability": {"en": ["What about sustainability and your materials?"], "de": ["Wie nachhaltig sind eure Materialien?"]},
 "repair": {"en": ["Do you have a repair service?"], "de": ["Gibt es einen Reparaturservice?"]},
 "stores": {"en": ["Where are your stores?"], "de": ["Wo sind eure Geschäfte?"]},
 "account": {"en": ["How do I reset the password of my customer account?"], "de": ["Wie setze ich das Passwort für mein Kundenkonto zurück?"]},
 "cancel": {"en": ["How can I cancel an order?"], "de": ["Kann ich meine Bestellung stornieren?"]},
 "giftwrap": {"en": ["Do you offer gift wrapping?"], "de": ["Bietet ihr Geschenkverpackung an?"]},
 "terms": {"en": ["Where can I read your terms and conditions?"], "de": ["Wo finde ich eure AGB?"]},
 "imprint": {"de": ["Wo ist das Impressum?"]},
}

PARA = {
 "shipping": {
  "en": ["how long till my stuff gets here? I'm in Hamburg", "Is delivery free if I spend enough?", "do u deliver to france and what does it cost", "I'm in Belgium – how many days would a package take?"],
  "de": ["wann kommt mein Paket an? wohne in Köln", "ab wann ist die Lieferung gratis?", "Schickt ihr auch nach Italien? Was kostet das Porto?", "wie lang dauert's bis nach Dänemark?"]},
 "express": {
  "en": ["I need it by tomorrow, is that possible?", "can you rush my order? birthday is on friday", "Is there a faster option than normal post?"],
  "de": ["Ich brauch das bis morgen, geht das?", "Gibt es eine schnellere Zustellung? Ist ein Geburtstagsgeschenk", "Kann man auch am Samstag beliefert werden?"]},
 "international": {
  "en": ["Do you ship to Canada?", "I live in Zurich, will I have to pay customs?", "can I order from the UK after brexit?", "Do you send orders to Australia?"],
  "de": ["Liefert ihr in die Schweiz?", "Muss ich bei einer Bestellung nach Norwegen Zoll zahlen?", "Kann meine Schwester in den USA bei euch bestellen?"]},
 "freight": {
  "en": ["how will the table get to my flat? I live on the 4th floor", "will someone carry the sideboard inside for me?", "what does it cost to get a dining table delivered?"],
  "de": ["Wie kommt der Tisch zu mir? Wohne im 3. Stock", "Tragen die Lieferanten den Schrank auch rein?", "Was kostet die Lieferung von einem Esstisch?"]},
 "holidays": {
  "en": ["If I order now will it be there before xmas?", "whats the last day to order for christmas presents?"],
  "de": ["Kommt das noch vor Heiligabend an, wenn ich heute bestelle?", "bis wann muss ich bestellen damit es zu weihnachten da ist?"]},
 "collect": {
  "en": ["Can I just pick it up in the Hamburg shop instead of getting it sent?", "is there an option to collect my order in person in Vienna?"],
  "de": ["kann ich das in München abholen statt liefern lassen?", "Geht Selbstabholung in Wien?"]},
 "tracking": {
  "en": ["where is my package right now?", "how do I see where my parcel is?", "I got a shipping email but no idea where the order is"],
  "de": ["Wo ist mein Paket gerade?", "wie seh ich wo meine bestellung ist", "Gibt es eine Trackingnummer für meine Lieferung?"]},
 "lost": {
  "en": ["DHL says delivered but there's nothing at my door", "my order never showed up", "the package came completely crushed, what now?"],
  "de": ["Laut DHL zugestellt, aber hier ist nichts angekommen", "Meine Lieferung ist verschwunden", "Das Paket kam total kaputt an, was soll ich tun?"]},
 "returns": {
  "en": ["can I send it back if it doesn't fit?", "Do I have to pay for sending stuff back?", "when do I get my money back?", "I want to return a sweater, how long do I have?"],
  "de": ["kann ich das zurückschicken wenn es nicht passt?", "Ist die Retoure kostenlos?", "Wann krieg ich mein Geld zurück?", "Wie lange hab ich Zeit, was zurückzugeben?"]},
 "exchange": {
  "en": ["It's too small – can I swap it for a bigger one?", "Could I trade the white one for the blue one?"],
  "de": ["Zu klein – kann ich das gegen eine größere Größe tauschen?", "kann ich die farbe tauschen?"]},
 "furniture_returns": {
  "en": ["the table doesn't fit in our kitchen, can I give it back?", "how do I send back a chair? it won't fit in a box"],
  "de": ["Der Esstisch ist zu groß für unser Zimmer – kann ich ihn zurückgeben?", "Wie schicke ich ein Sideboard zurück?"]},
 "warranty": {
  "en": ["the zip on my jacket broke after two months", "a seam came open on my shirt, is that covered?", "one of the plates has a crack in the glaze"],
  "de": ["Der Reißverschluss ist nach 2 Monaten kaputt gegangen", "Am Hemd ist eine Naht aufgegangen, was kann ich tun?", "Ist auf den Tisch Garantie?"]},
 "payment": {
  "en": ["can I pay with paypal?", "Do you take Amex?", "is cash on delivery possible?"],
  "de": ["Kann ich mit PayPal zahlen?", "geht auch Nachnahme?", "Nehmt ihr Apple Pay?"]},
 "paylater": {
  "en": ["Can I buy now and pay later?", "is it possible to split the payment for the table into monthly payments?"],
  "de": ["Kann ich auf Rechnung kaufen?", "Kann man den Tisch in Raten abbezahlen?"]},
 "giftcards": {
  "en": ["I'd like to give my sister a voucher for her birthday", "do gift certificates expire?", "how do I check how much is left on my gift card?"],
  "de": ["Ich möchte einen Gutschein verschenken, geht das?", "Verfallen eure Gutscheine irgendwann?", "Wie viel Guthaben ist noch auf meiner Geschenkkarte?"]},
 "discounts": {
  "en": ["my promo code isn't working", "I forgot to enter my code, can you still take it off?", "does the 15% code work on sale stuff?"],
  "de": ["Mein Rabattcode funktioniert nicht", "Ich habe vergessen den Code einzugeben, könnt ihr das noch abziehen?", "Gilt der Code auch auf reduzierte Sachen?"]},
 "newsletter": {
  "en": ["how do I get the welcome discount?", "how do I stop getting your emails?"],
  "de": ["wie bekomme ich die 10 % für Neukunden?", "Wie melde ich mich von euren Mails ab?"]},
 "care_linen": {
  "en": ["will linen shrink in the dryer?", "what temperature do I wash linen bedding at?"],
  "de": ["Läuft Leinen im Trockner ein?", "Bei wie viel Grad wasche ich Leinenbettwäsche?"]},
 "care_wool": {
  "en": ["my wool jumper is getting little bobbles, what do I do?", "how do I wash a merino sweater without ruining it?", "how do I keep moths away from knitwear?"],
  "de": ["Mein Wollpulli bekommt Knötchen, was tun?", "Wie wasche ich Merino ohne dass es einläuft?", "wie schütze ich pullis vor motten?"]},
 "care_wood": {
  "en": ["there's a scratch in my oak table, can it be fixed?", "what should I clean the wooden table with?"],
  "de": ["Im Eichentisch ist ein Kratzer, kann man das reparieren?", "Womit soll ich den Holztisch putzen?"]},
 "size_women": {
  "en": ["I'm a UK 12 / EU 40, what size should I get in your dresses?", "my hips are 96 cm, which women's size is that?"],
  "de": ["Ich trage sonst 38, welche Größe ist das bei euch?", "Hüfte 102 cm, welche Damengröße passt?"]},
 "size_men": {
  "en": ["my chest is 104 cm, what size shirt is that?", "what waist is W34 in cm?"],
  "de": ["Brustumfang 98 cm, welche Herrengröße brauche ich?", "Wie viel cm ist W32 bei Männerhosen?"]},
 "size_bedding": {
  "en": ["will your duvet covers fit a UK double duvet?", "what size cover do I need for a 155x220 duvet?"],
  "de": ["Habt ihr Bettbezüge für 240x220?", "Welche Bezuggröße passt auf eine Decke 135 x 200?"]},
 "contact": {
  "en": ["Is there a phone number I can call?", "what's your customer service email?", "when is customer service open on saturdays?"],
  "de": ["Gibt es eine Telefonnummer?", "Wann ist der Kundenservice erreichbar?", "an welche mail adresse kann ich schreiben?"]},
 "privacy": {
  "en": ["what do you do with my personal data?", "I want you to delete all my data"],
  "de": ["Was macht ihr mit meinen Daten?", "Gebt ihr meine Adresse an andere weiter?"]},
 "sustainability": {
  "en": ["is your cotton organic?", "where are your clothes made?", "is the packaging plastic-free?"],
  "de": ["Ist die Baumwolle bio?", "Wo wird eure Kleidung produziert?", "Verwendet ihr Plastik beim Verpacken?"]},
 "repair": {
  "en": ["I've got a hole in my jumper, can you mend it?", "can you sew a button back on for me?"],
  "de": ["Mein Pulli hat ein Loch, könnt ihr den flicken?", "Näht ihr Knöpfe wieder an?"]},
 "stores": {
  "en": ["Is there a shop in Munich I can visit?", "what are the opening hours of the Berlin store?", "are you open on sundays?"],
  "de": ["Habt ihr einen Laden in Hamburg?", "Wie lange hat der Laden in Wien offen?", "Kann ich die Möbel irgendwo live anschauen?"]},
 "account": {
  "en": ["I forgot my login password", "do I need to register to order?", "where can I download my invoice?"],
  "de": ["Passwort vergessen, was tun?", "Muss ich mich registrieren um zu bestellen?", "Wo kann ich meine Rechnung runterladen?"]},
 "cancel": {
  "en": ["I ordered the wrong thing, can I still stop the order?", "I made a typo in my address, can you change it?"],
  "de": ["Ich habe mich verklickt, kann ich die Bestellung noch rückgängig machen?", "Kann ich die Lieferadresse noch ändern?"]},
 "giftwrap": {
  "en": ["can you wrap it up as a present?", "I'm sending this to my mum – will she see the price?"],
  "de": ["Könnt ihr das als Geschenk einpacken?", "Steht auf dem Lieferschein der Preis? Ist ein Geschenk"]},
 "terms": {
  "en": ["is VAT included in your prices?", "when exactly is the purchase contract made?"],
  "de": ["Sind die Preise inklusive Mehrwertsteuer?", "wie lange ist das widerrufsrecht?"]},
 "imprint": {"de": ["Wer ist der Betreiber von dem Shop?"]},
}

# questions that switch to another product line: (lang, question, family codes)
PRODUCT_SWITCH = [
 ("en", "Completely different thing – do you sell scented candles?", ["SC-720"]),
 ("en", "Oh and do you have any rain jackets?", ["RJ-150"]),
 ("en", "unrelated, but do you have mugs that match plates?", ["ML-650"]),
 ("en", "Also looking for a vase for my mum, anything?", ["VA-660"]),
 ("en", "Do you stock belts as well?", ["BL-060"]),
 ("de", "Andere Frage: habt ihr auch warme Socken?", ["SK-095"]),
 ("de", "Habt ihr eigentlich auch Hausschuhe?", ["HS-090"]),
 ("de", "Noch was anderes – verkauft ihr Tischdecken?", ["TD-600"]),
 ("de", "Gibt's bei euch auch Wassergläser?", ["GL-650"]),
 ("de", "Ich bräuchte noch ein neues Kopfkissen, habt ihr sowas?", ["KK-520"]),
]

# hand-written product questions: (lang, category, question, expect skus)
PRODUCT_Q = [
 ("en", "direct", "What does the Linen shirt Porto in sky blue cost?", ["LS-410-SB"]),
 ("en", "direct", "Is the Merino jumper Fell, burgundy in stock in size M?", ["MJ-118-BU"]),
 ("en", "direct", "How big is the Canvas tote bag Harbour?", ["TB-080-NA", "TB-080-BK"]),
 ("en", "direct", "Is the Stoneware dinner plate set Kiln, speckled sand dishwasher safe?", ["CP-640-SP"]),
 ("en", "direct", "What sizes does the Percale duvet cover set Crisp come in?", ["PC-510-WH", "PC-510-GR"]),
 ("en", "direct", "Wrap dress Lina in emerald – which sizes are available?", ["WD-260-EM"]),
 ("en", "direct", "How long does the Scented candle Ember, fig burn?", ["SC-720-FG"]),
 ("de", "direct", "Was kostet die Leinenhose Marie in olivgrün?", ["LH-310-OG"]),
 ("de", "direct", "Ist der Kaschmirpullover Ella in rosé in Größe S verfügbar?", ["KP-120-RO"]),
 ("de", "direct", "Wie groß ist die Samt-Kissenhülle Velours?", ["KH-610-PE", "KH-610-SE", "KH-610-RS"]),
 ("de", "direct", "Welche Maße hat das Sideboard Linn?", ["SD-930-NA", "SD-930-SW"]),
 ("de", "direct", "Was kostet das Daunenkopfkissen Wolke in 80 x 80 cm?", ["KK-520-8080"]),
 ("de", "direct", "Jeans Straight Fit Anton in schwarz: welche Weiten gibt es?", ["JN-200-SW"]),
 ("de", "direct", "Ist der Stuhl Bo in schwarz stapelbar?", ["ST-920-SW"]),
 ("en", "paraphrase", "got any breezy linen button-ups for guys in beige? for a wedding in italy", ["LS-410-SA"]),
 ("en", "paraphrase", "looking for a warm blanket for the couch, mustard coloured", ["WT-330-OC"]),
 ("en", "paraphrase", "do you have a waterproof coat in yellow, like a fisherman one?", ["RJ-150-YE"]),
 ("en", "paraphrase", "I need green bath towels, the big fluffy ones", ["BT-700-SG"]),
 ("en", "paraphrase", "smth to put flowers in, blue?", ["VA-660-BL"]),
 ("en", "paraphrase", "a summer dress in that rusty orange colour, do you have one?", ["LD-270-TC"]),
 ("en", "paraphrase", "is there a small round coffee table in black wood?", ["OT-900-BL"]),
 ("de", "paraphrase", "Suche eine luftige Sommerhose für Damen in schwarz", ["LH-310-SW"]),
 ("de", "paraphrase", "habt ihr nen Cardigan in navy?", ["SJ-140-DB"]),
 ("de", "paraphrase", "Ich suche einen großen Holztisch für 8 Leute", ["ET-910-200"]),
 ("de", "paraphrase", "Bettzeug in dunkelgrau, so glänzend glatt", ["BW-530-AN"]),
 ("de", "paraphrase", "gibts bei euch dicke Wintersocken aus Wolle, eher hell?", ["SK-095-NA"]),
 ("de", "paraphrase", "Suche Kissenbezüge aus Samt in Gelb fürs Sofa", ["KH-610-SE"]),
 ("de", "paraphrase", "warmer langer Mantel in braun für den Winter?", ["WM-160-CA"]),
]

# ---------------------------------------------------------------------------
# Conversation generation
# ---------------------------------------------------------------------------
GROUP_NEED = {
 "shirts": ("I need a shirt for summer, what do you have?", "Ich suche ein Herrenhemd für den Sommer."),
 "knit_en": ("I'm after something warm to wear, a jumper or sweatshirt maybe?", "Ich suche was Warmes zum Drüberziehen, Pulli oder Sweatshirt."),
 "dresses": ("Looking for a dress for a summer party", "Ich suche ein Kleid für eine Gartenparty."),
 "bags": ("Any accessories for a birthday present for my boyfriend?", "Habt ihr Accessoires als Geschenk für meinen Freund?"),
 "towels": ("I need new towels", "Ich brauche neue Handtücher."),
 "bedding": ("I need a new duvet cover", "Ich suche neue Bettwäsche."),
 "throws": ("Do you have blankets for the sofa?", "Habt ihr Decken fürs Sofa?"),
 "tableware": ("Looking for tableware, plates or mugs", "Ich suche Geschirr, Teller oder Tassen."),
 "decor": ("Something nice for the living room as a gift?", "Habt ihr was Schönes fürs Wohnzimmer als Mitbringsel?"),
 "tables": ("I'm looking for a table", "Ich suche einen Tisch."),
 "linen_de": ("Something in linen for women for the summer?", "Ich suche was aus Leinen für den Sommer, für Damen."),
 "knit_de": ("I'm looking for a knit for women", "Ich suche Strick für Damen, Pullover oder Jacke."),
 "pillows": ("I need bedding: pillow or duvet", "Ich brauche was fürs Bett, Kissen oder Decke."),
 "home_de": ("Something cosy for my feet at home?", "Ich hab immer kalte Füße, habt ihr was Warmes?"),
 "chairs": ("What furniture do you have for the dining room?", "Welche Möbel habt ihr fürs Esszimmer?"),
}

def art_nom(f):
    return f.get("art", "die")

def acc(f):
    return f.get("pron", "die")

def is_plural(f):
    return f["code"] in ("HS-090", "SK-095")

def colour_variant(f):
    return len(f["variants"][0]) <= 3

def intro(p, lang, r):
    f = p["f"]
    if lang == "en" or f["lang"] == "en":
        if lang == "de":
            return r.choice([f"Hallo, ich interessiere mich für {p['title']}.", f"Was kostet {p['title']}?"])
        tl = f["type"].lower() if f["lang"] == "en" else f["type"]
        return r.choice([
            f"Hi! Tell me about the {tl} {f['name']} in {p['label']}.",
            f"I'm looking at the {f['name']} {tl}, the {p['label']} one.",
            f"hey, is the {tl} {f['name']} in {p['label']} any good?",
            f"Do you have the {p['title']}?",
            f"I saw the {p['label']} {tl} on your instagram, the {f['name']}. what's the price?",
        ])
    a = art_nom(f); ac = acc(f) if not is_plural(f) else "die"
    accart = {"die": "die", "den": "den", "das": "das"}[ac]
    verb = "sind" if is_plural(f) else "ist"
    return r.choice([
        f"Hallo, ich interessiere mich für {accart} {f['type']} {f['name']} in {p['label']}.",
        f"Was {'kosten' if is_plural(f) else 'kostet'} {a} {f['type']} {f['name']} in {p['label']}?",
        f"Hi, {verb} {a} {f['type']} „{f['name']}“ in {p['label']} noch da?",
        f"Erzähl mal was über {accart} {f['type']} {f['name']}, {p['label']}.",
        f"Ich hab {accart} {f['type']} {f['name']} in {p['label']} gesehen – was {'können' if is_plural(f) else 'kann'} {'die' if is_plural(f) else a}?",
    ])

def reply(p, lang, r):
    price = eur(p["price"], lang)
    if lang == "en":
        return r.choice([
            f"The {p['title']} costs {price}. It's made of {p['f']['material']}.",
            f"Yes, we have it: {p['title']}, {price}. {p['f']['desc']}",
            f"Sure! {p['title']} – {price}. Material: {p['f']['material']}.",
        ])
    return r.choice([
        f"{p['title']} kostet {price}. Material: {p['f']['material']}.",
        f"Ja, haben wir: {p['title']} für {price}. {p['f']['desc']}",
        f"Gern! {p['title']} – {price}, Material: {p['f']['material']}.",
    ])

FOLLOW_EN = {
 "apparel": ["is it machine washable?", "what's it made of?", "do you have it in {size}?", "is {size} in stock?", "can it go in the dryer?", "got it in a {size}?", "how does it fit? is there a size chart?", "ok and in size {size}??"],
 "knit": ["can I put it in the washing machine?", "what's the material exactly?", "do you have {size}?", "is size {size} available?", "how should I wash it?"],
 "accessory": ["what's it made of?", "how big is it?", "is it in stock?", "how do I take care of it?"],
 "home_textile": ["what sizes are there?", "can I wash it at 60?", "what's the material?", "do you have it in {size}?", "can it go in the tumble dryer?"],
 "tableware": ["is it dishwasher safe?", "how big is it?", "where is it made?", "is it in stock?"],
 "candle": ["how long does it burn?", "what's it made of?", "is it in stock?"],
 "furniture": ["how big is it?", "how do I clean it?", "is it solid wood?", "is it in stock?"],
}
FOLLOW_DE = {
 "apparel": ["Kann man {n} in der Maschine waschen?", "Aus was {v} {n}?", "gibt's {a} auch in {size}?", "Ist {size} noch da?", "Darf {n} in den Trockner?", "Habt ihr {a} in {size}?", "wie {vf} {n} aus? gibts ne größentabelle?", "und in größe {size}??"],
 "knit": ["Kann man {a} waschen?", "Woraus {v} {n} genau?", "gibts {a} in {size}?", "Ist {size} verfügbar?", "Wie muss ich {a} waschen?"],
 "home_textile": ["Welche Größen gibt es?", "Kann man {a} bei 60 Grad waschen?", "Aus welchem Material {v} {n}?", "Gibt es {a} in {size}?", "Darf {n} in den Trockner?"],
 "tableware": ["Spülmaschinenfest?", "Wie viel passt rein?", "{v} {n} vorrätig?"],
 "furniture": ["Wie groß {v} {n}?", "Wie pflege ich {a}?", "{v} {n} aus Massivholz?", "Wie wird {n} geliefert?"],
}
SWITCH_EN = ["and in {x}?", "do you have it in {x} too?", "what about {x}?", "is there a {x} one as well?", "same thing in {x}?", "hmm, rather {x}. is that available?", "and {x}?"]
SWITCH_DE = ["und in {x}?", "gibt's {a} auch in {x}?", "hast du {a} auch in {x}?", "lieber in {x} – geht das?", "gibts {a} auch in {x}", "Und in {x}, was kostet {n} da?"]

def follow_same(p, lang, r):
    f = p["f"]
    kind = f["kind"]
    size = r.choice(f["sizes"]) if f["sizes"] else None
    if lang == "en":
        pool = FOLLOW_EN[kind]
    else:
        pool = FOLLOW_DE.get(kind) or FOLLOW_DE["home_textile"]
        if kind == "accessory":
            pool = FOLLOW_DE["apparel"]
    pool = [q for q in pool if ("{size}" not in q or size)]
    if not colour_variant(f):  # variants are sizes: a sizes question would fit every variant
        pool = [q for q in pool if "Größen" not in q and "sizes" not in q]
    q = r.choice(pool)
    pl = is_plural(f)
    n = "die" if pl else {"die": "die", "den": "der", "das": "das"}[acc(f)]
    return q.format(size=size, n=n, a=("die" if pl else acc(f)), v=("sind" if pl else "ist"), vf=("fallen" if pl else "fällt"))

def follow_switch(p, lang, r):
    """Pick another variant of the same family; return (question, target product)."""
    f = p["f"]
    others = [q for q in products if q["f"] is f and q["sku"] != p["sku"]]
    tgt = r.choice(others)
    own = set(a for a in p["aliases"])
    for a in own:
        pass
    cands = [a for a in tgt["aliases"] if all(a not in o["aliases"] for o in products if o["f"] is f and o is not tgt)]
    x = r.choice(cands)
    pl = is_plural(f)
    if lang == "en":
        q = r.choice(SWITCH_EN).format(x=x)
    else:
        n = "die" if pl else {"die": "die", "den": "der", "das": "das"}[acc(f)]
        q = r.choice(SWITCH_DE).format(x=x, a=("die" if pl else acc(f)), n=n)
    return q, tgt

def convo_lang_products(lang):
    return [p for p in products if p["f"]["lang"] == lang]

LEAD_EN = ["", "", "Thanks! ", "ok cool. ", "Great, one more thing: ", "Alright. ", "thx. also "]
LEAD_DE = ["", "", "Danke! ", "Alles klar. ", "Super, noch eine Frage: ", "ok. ", "Ah ok. Andere Frage: "]

MID_EN = [("what's it made of?", "It's made of {mat}."), ("how much is it?", "It's {price}."), ("is it in stock?", "Yes, it's available right now.")]
MID_DE = [("Aus welchem Material?", "Material: {mat}."), ("Was kostet das?", "Das kostet {price}."), ("Ist das lieferbar?", "Ja, ist aktuell lieferbar.")]

items = []
seen = set()

def add(cat, lang, turns, expect, core=None):
    key = (cat, tuple(t["text"] for t in turns), json.dumps(core, sort_keys=True))
    if key in seen:
        return False
    seen.add(key)
    assert turns[-1]["role"] == "visitor"
    items.append({"lang": lang, "category": cat, "turns": turns, "core": core, "expect": expect})
    return True

V = lambda t: {"role": "visitor", "text": t}
A = lambda t: {"role": "assistant", "text": t}
PER_LANG = 29

# page pools (consumed without replacement where possible)
def page_pool(src, lang):
    out = []
    for topic, d in src.items():
        for q in d.get(lang, []):
            out.append((topic, q))
    return out

para_pool = {}
for lang in ("en", "de"):
    pp = page_pool(PARA, lang)
    rng.shuffle(pp)
    para_pool[lang] = pp

def take_para(lang):
    pp = para_pool[lang]
    if not pp:  # refill (reuse in another context) if exhausted
        pp.extend(page_pool(PARA, lang)); rng.shuffle(pp)
    return pp.pop()

# --- direct
for lang in ("en", "de"):
    prod = [x for x in PRODUCT_Q if x[0] == lang and x[1] == "direct"]
    pages = page_pool(DIRECT, lang)
    rng.shuffle(pages)
    n_pages = PER_LANG - len(prod)
    for topic, q in pages[:n_pages]:
        add("direct", lang, [V(q)], page_expect(topic, lang))
    for _, _, q, exp in prod:
        add("direct", lang, [V(q)], exp)

# --- paraphrase
for lang in ("en", "de"):
    prod = [x for x in PRODUCT_Q if x[0] == lang and x[1] == "paraphrase"]
    for _, _, q, exp in prod:
        add("paraphrase", lang, [V(q)], exp)
    # one per topic first for coverage, then random
    topics_done = set()
    pp = para_pool[lang]
    picked = []
    for i in range(len(pp) - 1, -1, -1):
        if pp[i][0] not in topics_done and len(picked) < PER_LANG - len(prod):
            topics_done.add(pp[i][0]); picked.append(pp.pop(i))
    for topic, q in picked:
        add("paraphrase", lang, [V(q)], page_expect(topic, lang))

# --- followup
for lang in ("en", "de"):
    pl = convo_lang_products(lang)
    n = 0
    while n < PER_LANG:
        p = rng.choice(pl)
        turns = [V(intro(p, lang, rng)), A(reply(p, lang, rng))]
        if rng.random() < 0.3:
            mq, ma = rng.choice(MID_EN if lang == "en" else MID_DE)
            turns += [V(mq), A(ma.format(mat=p["f"]["material"], price=eur(p["price"], lang)))]
        if rng.random() < 0.5:
            q, tgt = follow_switch(p, lang, rng)
        else:
            q, tgt = follow_same(p, lang, rng), p
        turns.append(V(q))
        if add("followup", lang, turns, [tgt["sku"]]):
            n += 1

# --- subject_change
for lang in ("en", "de"):
    pl = convo_lang_products(lang)
    switches = [x for x in PRODUCT_SWITCH if x[0] == lang]
    n = 0
    si = 0
    while n < PER_LANG:
        p = rng.choice(pl)
        turns = [V(intro(p, lang, rng)), A(reply(p, lang, rng))]
        if rng.random() < 0.5:
            mq, ma = rng.choice(MID_EN if lang == "en" else MID_DE)
            turns += [V(mq), A(ma.format(mat=p["f"]["material"], price=eur(p["price"], lang)))]
        lead = rng.choice(LEAD_EN if lang == "en" else LEAD_DE)
        if si < len(switches) and n % 6 == 5:
            _, q, fams = switches[si]; si += 1
            if p["f"]["code"] in fams:
                continue
            exp = [x["sku"] for x in products if x["f"]["code"] in fams]
        else:
            topic, q = take_para(lang)
            exp = page_expect(topic, lang)
        if exp and exp[0] in PROD:
            lead = ""  # product-switch questions carry their own lead-in
        turns.append(V(lead + q))
        if add("subject_change", lang, turns, exp):
            n += 1

# --- after_condensation
CORE_EN = ["Visitor is interested in the {title} and asked about price and availability.",
           "Customer is looking for {need}; was shown the {title} ({price}).",
           "Visitor wants to buy the {title} as a gift and asked about the material.",
           "Visitor asked about the {title}; assistant gave price {price} and material."]
CORE_DE = ["Besucher interessiert sich für {title} und fragte nach Preis und Verfügbarkeit.",
           "Kundin sucht {need}; gezeigt wurde {title} ({price}).",
           "Besucherin möchte {title} verschenken und fragte nach dem Material.",
           "Besucher fragte nach {title}; Assistent nannte Preis {price} und Material."]
NEED_SHORT = {
 "apparel": {"en": "new clothes for the season", "de": "neue Kleidung für die Saison"},
 "knit": {"en": "warm knitwear", "de": "warmen Strick"},
 "accessory": {"en": "a present", "de": "ein Geschenk"},
 "home_textile": {"en": "textiles for the home", "de": "Heimtextilien"},
 "tableware": {"en": "new tableware", "de": "neues Geschirr bzw. Gläser"},
 "candle": {"en": "a small gift", "de": "ein kleines Geschenk"},
 "furniture": {"en": "furniture for a new flat", "de": "Möbel für die neue Wohnung"},
}
NEED_FALLBACK = {"en": "something for everyday use", "de": "etwas für den Alltag"}
for lang in ("en", "de"):
    pl = convo_lang_products(lang)
    n = 0
    while n < PER_LANG:
        p = rng.choice(pl)
        need = NEED_SHORT.get(p["f"]["kind"], NEED_FALLBACK)[lang]
        tpl = rng.choice(CORE_EN if lang == "en" else CORE_DE)
        core = {"request": tpl.format(title=p["title"], price=eur(p["price"], lang), need=need),
                "objects": [{"kind": "article", "id": p["sku"], "label": p["title"]}]}
        turns = []
        if rng.random() < 0.5:
            turns.append(A(reply(p, lang, rng)))
        if n % 2 == 0:
            if rng.random() < 0.5:
                q, tgt = follow_switch(p, lang, rng)
            else:
                q, tgt = follow_same(p, lang, rng), p
            exp = [tgt["sku"]]
        else:
            topic, q = take_para(lang)
            lead = rng.choice(LEAD_EN if lang == "en" else LEAD_DE)
            q = lead + q
            exp = page_expect(topic, lang)
        turns.append(V(q))
        if add("after_condensation", lang, turns, exp, core):
            n += 1

# --- multi_product
ORD_EN = ["the first one", "the second one", "the third one"]
ORD_DE = ["Nummer 1", "Nummer 2", "Nummer 3"]
ORD_DE2 = ["das erste", "das zweite", "das dritte"]
MQ_EN = ["Is {ref} machine washable?", "How much was {ref} again?", "Tell me more about {ref}.", "ok I'll take {ref} – is it in stock?",
         "Does {ref} come in {size}?", "what is {ref} made of?", "{Ref}: do you have that in {size}?", "I like {ref}. how do I wash it?"]
MQ_DE = ["Ist {ref} waschbar?", "Was kostet {ref} nochmal?", "Erzähl mir mehr über {ref}.", "Ich nehme {ref} – ist das vorrätig?",
         "Gibt es {ref} in {size}?", "Woraus ist {ref}?", "{Ref} gefällt mir. Gibt's das in {size}?", "und {ref}, wie wäscht man das?"]

def build_refs(cands, i, lang):
    """Reference expressions for cands[i] that are unique among cands."""
    me = cands[i]
    refs = []
    if lang == "en":
        refs.append(ORD_EN[i])
        if i == len(cands) - 1:
            refs.append("the last one")
    else:
        refs.append(ORD_DE[i]); refs.append(ORD_DE2[i])
        if i == len(cands) - 1:
            refs.append("das letzte")
    if colour_variant(me["f"]):
        for a in me["aliases"]:
            if all(a not in o["aliases"] for o in cands if o is not me):
                refs.append(f"the {a} one" if lang == "en" else f"das in {a}")
                break
    else:
        a = me["aliases"][0]
        if all(a not in o["aliases"] for o in cands if o is not me):
            refs.append(f"the {a} one" if lang == "en" else f"das in {a}")
    mw = me["f"]["mat_word"]
    if all(o["f"]["mat_word"] != mw for o in cands if o is not me):
        refs.append(f"the {mw} one" if lang == "en" else f"das aus {mw}")
    nm = me["f"]["name"]
    if all(o["f"]["name"] != nm for o in cands if o is not me):
        refs.append(f"the {nm}" if lang == "en" else f"Modell {nm}")
    prices = [o["price"] for o in cands]
    if len(set(prices)) == len(prices):
        if me["price"] == min(prices):
            refs.append(("the cheaper one" if len(cands) == 2 else "the cheapest one") if lang == "en" else ("das günstigere" if len(cands) == 2 else "das günstigste"))
        if me["price"] == max(prices):
            refs.append(("the more expensive one" if len(cands) == 2 else "the priciest one") if lang == "en" else ("das teurere" if len(cands) == 2 else "das teuerste"))
    return refs

groups = {}
for f in F:
    groups.setdefault(f["group"], []).append(f)
multi_groups = [g for g, fs in groups.items() if len(fs) >= 2]
for lang in ("en", "de"):
    n = 0
    tries = 0
    while n < PER_LANG and tries < 5000:
        tries += 1
        if rng.random() < 0.55:
            g = rng.choice(multi_groups)
            fs = [f for f in groups[g]]
            if not any(f["lang"] == lang for f in fs):
                continue
            rng.shuffle(fs)
            fs = fs[:rng.choice([2, 2, 3])]
            cands = [rng.choice([p for p in products if p["f"] is f]) for f in fs]
            need = GROUP_NEED[g][0 if lang == "en" else 1]
            v1 = need
        else:
            f = rng.choice([f for f in F if f["lang"] == lang and len(f["variants"]) >= 2])
            vs = [p for p in products if p["f"] is f]
            rng.shuffle(vs)
            cands = vs[:min(len(vs), rng.choice([2, 3]))]
            if lang == "en":
                v1 = rng.choice([f"Which colours does the {f['type'].lower()} {f['name']} come in?", f"what options are there for the {f['name']} {f['type'].lower()}?"])
            else:
                v1 = rng.choice([f"In welchen Varianten gibt es {art_nom(f)} {f['type']} {f['name']}?", f"Welche Farben hat {art_nom(f)} {f['type']} {f['name']}?"])
        if len(cands) < 2:
            continue
        if lang == "en":
            a1 = "We have: " + "; ".join(f"{k+1}. {c['title']} – {eur(c['price'], lang)}" for k, c in enumerate(cands)) + "."
        else:
            a1 = "Wir haben: " + "; ".join(f"{k+1}. {c['title']} – {eur(c['price'], lang)}" for k, c in enumerate(cands)) + "."
        turns = [V(v1), A(a1)]
        if rng.random() < 0.35 and len({c["f"]["code"] for c in cands}) > 1:
            if lang == "en":
                turns += [V("what's the difference between them?"), A(" ".join(f"The {c['title']} is made of {c['f']['material']}." for c in cands))]
            else:
                turns += [V("Was ist der Unterschied?"), A(" ".join(f"{c['title']}: {c['f']['material']}." for c in cands))]
        i = rng.randrange(len(cands))
        tgt = cands[i]
        refs = build_refs(cands, i, lang)
        ref = rng.choice(refs)
        size = rng.choice(tgt["f"]["sizes"]) if tgt["f"]["sizes"] else None
        pool = MQ_EN if lang == "en" else MQ_DE
        pool = [q for q in pool if ("{size}" not in q or size)]
        if tgt["f"]["kind"] in ("tableware", "candle", "furniture"):
            pool = [q for q in pool if "wash" not in q and "wäsch" not in q and "waschbar" not in q]
        q = rng.choice(pool).format(ref=ref, Ref=ref[0].upper() + ref[1:], size=size)
        turns.append(V(q))
        if add("multi_product", lang, turns, [tgt["sku"]]):
            n += 1

# ---------------------------------------------------------------------------
# ids and dev/test split, write files
# ---------------------------------------------------------------------------
cats = ["direct", "paraphrase", "followup", "subject_change", "after_condensation", "multi_product"]
out = []
for cat in cats:
    cat_items = [it for it in items if it["category"] == cat]
    rng.shuffle(cat_items)
    for k, it in enumerate(cat_items):
        it["part"] = "dev" if k % 2 == 0 else "test"
        it["id"] = f"{cat}-{k+1:03d}"
        out.append({"id": it["id"], "lang": it["lang"], "category": cat, "part": it["part"],
                    "turns": it["turns"], "core": it["core"], "expect": it["expect"]})

ids = {d["id"] for d in catalogue}
assert len(ids) == len(catalogue)
for it in out:
    for e in it["expect"]:
        assert e in ids, e
    for o in (it["core"] or {}).get("objects", []):
        assert o["id"] in ids

with open(os.path.join(HERE, "catalogue.jsonl"), "w", encoding="utf-8") as fh:
    for d in catalogue:
        fh.write(json.dumps(d, ensure_ascii=False) + "\n")
with open(os.path.join(HERE, "conversations.jsonl"), "w", encoding="utf-8") as fh:
    for it in out:
        fh.write(json.dumps(it, ensure_ascii=False) + "\n")

if __name__ == "__main__":
    from collections import Counter
    print("documents:", len(catalogue), Counter(d["lang"] for d in catalogue),
          "products:", sum(1 for d in catalogue if "identifiers" in d))
    print("conversations:", len(out))
    print(Counter(it["category"] for it in out))
    print(Counter((it["category"], it["lang"]) for it in out))
    print(Counter(it["part"] for it in out), Counter(it["lang"] for it in out))
