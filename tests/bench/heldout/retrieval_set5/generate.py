"""Held-out retrieval set 5: writes conversations.jsonl next to this file.

Stdlib only. Conversations are held as data below; run `python3 generate.py`.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def V(text):
    return {"role": "visitor", "text": text}


def A(text):
    return {"role": "assistant", "text": text}


# service pages: EN id, DE id
P = {
    "shipping": ["page-en-shipping", "page-de-versand"],
    "express": ["page-en-express", "page-de-express"],
    "international": ["page-en-international", "page-de-international"],
    "furniture_delivery": ["page-en-furniture-delivery", "page-de-spedition"],
    "holiday": ["page-en-holiday-delivery", "page-de-feiertage"],
    "click_collect": ["page-en-click-collect", "page-de-abholung"],
    "tracking": ["page-en-tracking", "page-de-sendungsverfolgung"],
    "parcel_missing": ["page-en-parcel-missing", "page-de-paket-fehlt"],
    "returns": ["page-en-returns", "page-de-ruecksendung"],
    "exchanges": ["page-en-exchanges", "page-de-umtausch"],
    "furniture_returns": ["page-en-furniture-returns", "page-de-moebel-rueckgabe"],
    "warranty": ["page-en-warranty", "page-de-gewaehrleistung"],
    "payment": ["page-en-payment", "page-de-zahlung"],
    "klarna": ["page-en-klarna", "page-de-klarna"],
    "gift_cards": ["page-en-gift-cards", "page-de-gutscheine"],
    "discount": ["page-en-discount-codes", "page-de-rabattcodes"],
    "newsletter": ["page-en-newsletter", "page-de-newsletter"],
    "care_linen": ["page-en-care-linen-cotton", "page-de-pflege-leinen-baumwolle"],
    "care_wool": ["page-en-care-wool", "page-de-pflege-wolle"],
    "care_wood": ["page-en-care-wood", "page-de-pflege-holz"],
    "size_women": ["page-en-size-guide-women", "page-de-groessen-damen"],
    "size_men": ["page-en-size-guide-men", "page-de-groessen-herren"],
    "bedding_sizes": ["page-en-bedding-sizes", "page-de-bettwaesche-groessen"],
    "contact": ["page-en-contact", "page-de-kontakt"],
    "privacy": ["page-en-privacy", "page-de-datenschutz"],
    "sustainability": ["page-en-sustainability", "page-de-nachhaltigkeit"],
    "repair": ["page-en-repair", "page-de-reparatur"],
    "stores": ["page-en-stores", "page-de-filialen"],
    "account": ["page-en-account", "page-de-kundenkonto"],
    "change_cancel": ["page-en-change-cancel", "page-de-bestellung-aendern"],
    "gift_wrapping": ["page-en-gift-wrapping", "page-de-geschenkverpackung"],
    "terms": ["page-en-terms", "page-de-agb"],
    "impressum": ["page-de-impressum"],
}


def art(id_, label):
    return {"kind": "article", "id": id_, "label": label}


def page(id_, label):
    return {"kind": "page", "id": id_, "label": label}


def order(no, label=None):
    return {"kind": "order", "id": no, "label": label or ("Order " + no)}


def core(request, objects, constraints):
    return {"request": request, "objects": objects, "constraints": constraints}


# ---------------------------------------------------------------- paraphrase
# One visitor message; the page/product is described in the visitor's own words.
PARAPHRASE_EN = [
    (P["express"], [V("hi!! my sisters birthday is on thursday and i completly forgot \U0001F648 if i order something today before lunch could it be at hers in cologne tomorrow??")]),
    (P["international"], [V("Hey there, do you guys deliver to Toronto? And am I gonna get slapped with import fees when the box shows up?")]),
    (P["holiday"], [V("What's the latest I can order so the presents are definitely under the tree by the 24th? It's going to my parents in Freiburg, just standard postage.")]),
    (P["tracking"], [V("Ordered last night, got the email this morning saying it's left your warehouse, but the DHL link shows absolutely nothing yet. How long before it starts showing anything?")]),
    (P["exchanges"], [V("The trousers I got are a bit tight round the middle. Can I just swap them for the next size up, or how does that work with you?")]),
    (P["warranty"], [V("Good afternoon. I purchased a set of your dinner plates in August and one of them has developed a crack through the glaze, although nobody has dropped it. What can be done about this?")]),
    (P["klarna"], [V("is there a way to spread the cost over a few months? the table plus chairs comes to like 2k and i cant pay that in one go")]),
    (P["discount"], [V("Got 15% off from an insta ad and my friend sent me her 10% one too - can I use both at the same time on one order?")]),
    (P["newsletter"], [V("do you give anything if I put my email in for your mailing list? and how often would you actually write to me, I hate getting flooded")]),
    (P["care_wool"], [V("my merino jumper smells a bit of pub after friday night. do i actually have to wash it every time?? terrified it'll shrink")]),
    (P["size_men"], [V("I measure roughly 98 cm round the chest and 85 at the waist. What would I order in your blokes' shirts and tops?")]),
    (P["bedding_sizes"], [V("We've just moved over from Manchester and brought our UK double duvet with us. Which of your covers is going to fit it?")]),
    (P["privacy"], [V("Before I order anything: who else ends up with my name and address? Do you hand it on to other companies, and how long do you hang on to it?")]),
    (P["repair"], [V("A moth got to the elbow of a knit I bought from you two winters ago and there's a small hole now. Is that something you'd mend, and roughly what would it cost me?")]),
    (P["account"], [V("Cant log in. Think i forgot my password, how do i get a new one")]),
    (P["gift_wrapping"], [V("I'm ordering something to go straight to my mum for her 70th. Can you make it look nice and make sure she doesn't see what I paid?")]),
    (["RJ-150-YE"], [V("Looking for something to wear walking the dog on dark rainy evenings. Needs a hood, has to keep me properly dry, and I'd like it bright so cars actually see me. Unisex is fine.")]),
    (["TB-080-BK"], [V("hi, I need a bag for uni that takes my 13\" laptop plus a couple of books, over the shoulder, in black. not a backpack please. anything?")]),
    (["SC-720-CE"], [V("I want to bring something to a housewarming that makes the flat smell woody, like a cabin in the forest. Budget about 30-35 euros. Ideas?")]),
    (["OT-900-BL"], [V("I'm after a little round table to put next to my reading chair, in a dark wood finish, and it would be great if it turns up ready to use without me having to build it.")]),
]

PARAPHRASE_DE = [
    (P["shipping"], [V("Ab welchem Betrag schickt ihr portofrei? Wohne in Dresden.")]),
    (P["furniture_delivery"], [V("Wie läuft das bei euch mit nem großen Tisch, bringt den jemand bis in die Wohnung? Wir wohnen im 3. Stock ohne Aufzug.")]),
    (P["click_collect"], [V("Griaß Gott, kann i online bestellen und des dann in Wien im Laden mitnehmen? Ohne dass ma Porto zahlt?")]),
    (P["parcel_missing"], [V("laut dhl wurde meine lieferung gestern zugestellt aber hier ist nix. nachbarn haben auch nichts. was jetzt??")]),
    (P["returns"], [V("Wie lange darf ich die Sachen behalten, bevor ich sie nicht mehr zurueckgeben kann? Und muss ich das Porto selber zahlen? Bin aus Oesterreich.")]),
    (P["furniture_returns"], [V("Das Sideboard passt farblich leider gar nicht zu unserem Boden. Wie kriege ich so ein riesiges Teil wieder zu euch, und kostet mich das was?")]),
    (P["payment"], [V("Geht bei euch Nachnahme? Ich hab keine Kreditkarte und PayPal mag ich nicht so.")]),
    (P["gift_cards"], [V("Hab von meiner Tante 50 € Guthaben für euren Shop bekommen, so mit Code per Mail. Verfällt das irgendwann?")]),
    (P["care_linen"], [V("Wie wäscht man eigentlich Sachen aus Naturfasern wie Flachs richtig? Meine Sommerhose ist im Trockner eingelaufen \U0001F629 Und muss man sowas echt bügeln?")]),
    (P["care_wood"], [V("Auf unserem Holztisch von euch sind jetzt weiße Ränder von Gläsern und ein paar feine Kratzer. Was kann ich da selbst machen?")]),
    (P["size_women"], [V("Ich hab Hüfte 101 und Taille 77 cm. Welche Nummer wäre das bei euch für Frauen?")]),
    (P["contact"], [V("Wann erreicht man bei euch jemanden am Telefon? Geht das auch am Samstag?")]),
    (P["sustainability"], [V("Woher kommt eigentlich euer Leinen und wo wird das genäht? Ich will nix, was einmal um die halbe Welt geflogen ist.")]),
    (P["stores"], [V("Gibts euch in München auch zum Anfassen? Also ein echter Laden, und bis wann hat der auf?")]),
    (P["change_cancel"], [V("Oh nein, hab grad bestellt und gesehen dass noch die alte Adresse drin ist!! Kann man das noch korrigieren??")]),
    (P["terms"], [V("Mal ne juristische Frage: Wann genau ist bei euch der Kaufvertrag geschlossen, schon mit der Bestellbestätigung? Und welches Recht gilt?")]),
    (P["impressum"], [V("Wer steckt eigentlich hinter dem Shop? Ich bräuchte für ein Schreiben den Firmennamen, die Geschäftsführung und die Handelsregisternummer.")]),
    (["HS-090-RT"], [V("Meine Mutter hat immer eiskalte Füße auf den Fliesen. Habt ihr was Warmes aus Wolle zum Reinschlüpfen, am liebsten in rot? Sie hat Größe 39.")]),
    (["KK-520-8080"], [V("suche ein großes quadratisches kopfkissen, so richtig fluffig mit daunen drin")]),
    (["GL-650-RG"], [V("Hallo! Habt ihr Trinkgläser in so einem getönten Grauton? Bräuchte sechs Stück, gern dünnwandig.")]),
]

# ------------------------------------------------------------ subject_change
SUBJECT_CHANGE_EN = [
    (P["stores"], [
        V("Hi, is the olive linen shirt still available in medium?"),
        A("Hi! The Porto linen shirt in olive is running low in M – there are only 3 left at the moment. L, XL and XXL are in stock."),
        V("ok cool, I'll grab one today then. btw is there a shop of yours in Hamburg? Id rather see the other colours in person"),
    ]),
    (P["payment"], [
        V("Hello, I'm looking at the Lina wrap dress in black. Does it come in size S?"),
        A("Yes, the black Lina wrap dress is in stock in S, M and L. XS and XL are sold out at the moment and should be back in about 3 weeks."),
        V("Lovely. And it's midi length, yeah?"),
        A("Exactly – it's a midi dress that falls just below the knee, with long sleeves and a tie waist."),
        V("Perfect. Totally different thing, can I pay with Apple Pay on your site?"),
    ]),
    (P["account"], [
        V("Is the navy merino jumper unisex? Want it for my boyfriend but I'll probably end up stealing it"),
        A("It is! The Fell crew-neck in navy has a unisex fit and is in stock in every size from XS to XL."),
        V("Haha perfect. Oh and unrelated, I've somehow ended up with two logins with different emails. How do I get rid of one?"),
    ]),
    (["OT-900-NA"], [
        V("Do the beige chinos have any stretch in them?"),
        A("They do – the Dune chinos are 98% organic cotton with 2% elastane, so there's a bit of give. In beige, W32, W34 and W36 are in stock; W30 is sold out for about 3 weeks."),
        V("W32 it is. While I'm here, my wife wants a small round table for next to the sofa, light wood. Do you do anything like that?"),
    ]),
    (P["change_cancel"], [
        V("hey whats the difference between the yellow and navy rain jacket apart from colour"),
        A("Only the colour – both Skagen jackets are the same: recycled polyester with PU coating, taped seams, a 10,000 mm water column, a hood and two snap pockets. Availability differs: the navy is in stock in M, L and XL."),
        V("ok navy M please. actually diff topic, I ordered some towels on monday and changed my mind, pretty sure it hasnt gone out yet. can I still call it off?"),
    ]),
    (P["international"], [
        A("Hi! How can I help you today?"),
        V("Good morning. How long is the Aura cashmere scarf, and is the camel a warm shade?"),
        A("Good morning! The Aura scarf measures 180 x 30 cm with fringed ends. The camel is a warm, golden-brown tone; there's also charcoal. It's 100% cashmere, woven in Scotland."),
        V("That sounds lovely. I live in Zurich, however – do you send parcels to Switzerland at all?"),
    ]),
    (P["contact"], [
        V("Need the Nora linen duvet set in sage for a 200x200 duvet. Got it?"),
        A("Yes, the sage Nora set is in stock in 200 x 200 cm. That size comes with two 80 x 80 cm pillowcases and costs EUR 199."),
        V("Great, thanks"),
        A("You're welcome! Anything else I can help with?"),
        V("Yes actually, I'd rather speak to a real person about an old order. What number do I ring and when are you there?"),
    ]),
    (["SC-720-FG"], [
        V("Are the Kiln dinner plates dishwasher safe?"),
        A("They are – the Kiln plates are dishwasher and microwave safe. They come as a set of 4, 27 cm across, in white or speckled sand."),
        V("nice. and do you sell scented candles? something with fig maybe"),
    ]),
    (P["newsletter"], [
        V("Is the forest green Loop sweatshirt available in L?"),
        A("Sorry, the forest green sweatshirt is sold out in L at the moment – it should be back in about 3 weeks. XS, S and M are in stock, and there's 1 left in XL."),
        V("Ugh. ok then, I'll wait. Do you lot do a discount if I sign up for your emails in the meantime?"),
    ]),
    (P["shipping"], [
        V("Hiya, is the white Oxford shirt a slim fit?"),
        A("It's a regular fit with a button-down collar; if you like a looser look, go one size up. In white, M, XL and XXL are in stock, L has one left and S is back in about 3 weeks."),
        V("Ok. Another question – how long does normal delivery to Belgium usually take?"),
    ]),
    (P["terms"], [
        V("Hi there, I'm looking at the Calm bath sheet in sage – is that the 100 x 150 one?"),
        A("Yes, the bath sheet is 100 x 150 cm and costs EUR 45. In sage it's in stock; the hand towel and bath towel in sage are currently sold out."),
        V("Right, just the bath sheet then."),
        A("Sounds good – it's 600 g/m² organic cotton terry, so nice and thick."),
        V("Something I've always wondered with German shops: if there's ever a dispute, which country's law applies to my purchase?"),
    ]),
    (P["gift_cards"], [
        V("Is the Tide vase watertight? It's handmade so I wasn't sure"),
        A("Yes – it's thrown by hand in a small workshop in Porto and has a watertight glaze inside. It's 25 cm high with an 8 cm opening."),
        V("Nice, I'll get the blue one. Unrelated, my aunt gave me a gift card from you last year, how do I see how much is still on it?"),
    ]),
    (["TB-080-NA"], [
        V("I'm a 95 in the cognac Ridge belt, is that in stock?"),
        A("Yes, 95 cm is in stock in cognac brown. Just so you know, 100 cm is sold out for about 3 weeks in case you were between sizes."),
        V("95 is right. Also need a cheap sturdy bag for the weekly shop, canvas, undyed colour ideally"),
    ]),
    (P["returns"], [
        V("The Sola linen dress in terracotta – does it have pockets??"),
        A("It does! Side pockets, a square neckline and an A-line cut. It's sleeveless, in mid-weight linen."),
        V("Sold. Is S available?"),
        A("Yes, S is in stock in terracotta."),
        V("brilliant. unrelated but I sent back a jumper last week and paid with paypal, how long till I see the money?"),
    ]),
    (P["furniture_delivery"], [
        V("I'm interested in the ochre Hygge throw. Is it scratchy?"),
        A("It's brushed lambswool, so it's soft and cosy. It measures 130 x 180 cm with fringes and is in stock in ochre."),
        V("Sounds good. We're also eyeing up a dining table from you. How does something that size get to us – normal parcel, or something else?"),
    ]),
    (P["stores"], [
        V("how big is the kiln mug"),
        A("The Kiln mug holds 350 ml and has a generous handle. It's sold individually; the speckled sand version has only 4 left."),
        V("ok. btw is your vienna shop open on sundays? visiting next weekend"),
    ]),
    (["KK-520-8080"], [
        V("Do you have the Crisp percale duvet cover in white for a 155 x 220 duvet?"),
        A("Yes, the white Crisp set is in stock in 155 x 220 cm for EUR 99. It's organic cotton percale with a hidden zip."),
        V("Great. Now I need pillows too – two big square ones with down filling."),
    ]),
    (P["sustainability"], [
        V("Sky blue linen shirt in L – how many left?"),
        A("Only 2 left in L in sky blue, so I wouldn't wait too long. S, M and XL are in stock."),
        V("Ok ordering now. One more thing, more general: is your cotton certified organic, and where do your clothes actually get made?"),
    ]),
    (P["klarna"], [
        V("Do the olive chinos come in W30?"),
        A("Yes, olive is in stock in all waist sizes, W30 to W36. The inside leg is 32 inches (81 cm)."),
        V("Great. Separate question – can I use the pay-in-30-days thing with Klarna if I live in Amsterdam?"),
    ]),
    (P["click_collect"], [
        V("Is the grey merino jumper itchy? I'm quite sensitive to wool"),
        A("It's extra-fine merino, which most people find soft. In grey melange, S and M are in stock, and there are 3 left in XL."),
        V("Ok might try it. Last thing: if I order online can I pick it up from your Berlin shop for free?"),
    ]),
]

SUBJECT_CHANGE_DE = [
    (P["privacy"], [
        V("Hallo, die Leinenhose Marie in sand – gibt's die noch in M?"),
        A("Hallo! In sand ist M noch da, allerdings nur noch 2 Stück. XS, S und L sind vorrätig, XL kommt in ca. 3 Wochen wieder."),
        V("Ok danke. Ganz andere Frage: Wie lange speichert ihr eigentlich meine Rechnungen und Adressdaten?"),
    ]),
    (P["shipping"], [
        V("Ist die Strickjacke Frida in creme eher dick?"),
        A("Ja, die Frida ist ein Grobstrick-Cardigan aus Bio-Baumwolle, locker geschnitten, mit Holzknöpfen und aufgesetzten Taschen. In creme sind XS, S, L und XL vorrätig, M kommt in ca. 3 Wochen wieder."),
        V("Schön. Was anderes: wie lange braucht ein normales Paket von euch nach Österreich?"),
    ]),
    (["JN-200-DB"], [
        V("Den Kaschmirpullover Ella in rosé, hättet ihr den in S?"),
        A("In rosé gibt es S noch, aber nur 2 Stück. M, L und XL sind vorrätig, XS ist gerade ausverkauft."),
        V("Dann nehm ich den. Und für meinen Mann such ich noch eine dunkle Jeans, gerade geschnitten, W34."),
    ]),
    (P["klarna"], [
        V("Guten Tag, der Wollmantel Greta in grau, ist der gefüttert?"),
        A("Guten Tag! Ja, der Greta ist mit Viskose gefüttert. Außen 80 % Schurwolle und 20 % Polyamid, mit Reverskragen, Bindegürtel und Innentasche; er reicht bis zur Wade."),
        V("Sehr schön. Eine andere Frage hätte ich noch: Kann man bei Ihnen in Monatsraten bezahlen? Zusammen mit einem Pullover käme ich auf über 400 Euro."),
    ]),
    (P["holiday"], [
        V("jeans anton schwarz in w30??"),
        A("Die schwarze Anton ist in W30 leider ausverkauft, sie kommt in ca. 3 Wochen wieder. W32, W34 und W36 sind vorrätig."),
        V("mist. na gut. sagt mal wenn ich am 20. dezember ganz normal bestelle, liegt das dann noch unterm baum?"),
    ]),
    (P["parcel_missing"], [
        V("Ist das Basic T-Shirt in weiß blickdicht? Die dünnen sind immer so durchsichtig"),
        A("Das Basic ist ein schweres Unisex-Shirt aus Bio-Baumwolle mit 180 g/m², also deutlich dichter als dünne Shirts. In weiß sind S bis XL vorrätig, in XXL gibt es noch 3 Stück."),
        V("Super. Was ganz anderes: Meine Bestellung von letzter Woche hätte laut Mail am Dienstag kommen sollen, ist aber immer noch nicht da. Was mach ich da?"),
    ]),
    (P["account"], [
        V("Hausschuhe Stube grau in 37?"),
        A("Die grauen Stube-Hausschuhe sind in 37 leider ausverkauft, sie sollten in ca. 3 Wochen wieder da sein. 36 und 38 sind vorrätig. Bei halben Größen empfehlen wir eine Nummer größer."),
        V("Hm dann 38. Und wo find ich eigentlich die Rechnung von meiner letzten Bestellung zum Runterladen?"),
    ]),
    (P["stores"], [
        V("Moin! Sind die Alpin-Socken in anthrazit warm genug zum Wandern im Winter?"),
        A("Moin! Das sind dicke Wandersocken mit 70 % Merinowolle und verstärkter Ferse und Spitze, im 3er-Pack für 29 EUR. Alle Größen sind vorrätig."),
        V("Top. Kann man sich bei euch in Hamburg eigentlich auch was vor Ort anschauen? Wo genau wär das?"),
    ]),
    (["BD-540-155"], [
        V("Die Satin-Bettwäsche Nacht in anthrazit, habt ihr die in 155 x 220?"),
        A("In anthrazit ist 155 x 220 leider ausverkauft, wieder da in ca. 3 Wochen. In weiß ist die Größe vorrätig; in anthrazit gibt es 135 x 200 noch 3 Mal."),
        V("Ok, dann weiß. Ganz was anderes: Wir brauchen auch noch eine neue Bettdecke für meinen Mann, der ist Allergiker. Auch 155 x 220."),
    ]),
    (P["returns"], [
        A("Hallo! Wie kann ich Ihnen helfen?"),
        V("Hallo, wie groß ist das kleine Daunenkissen Wolke?"),
        A("Hallo! Das kleine Wolke-Kissen misst 40 x 80 cm und kostet 49 EUR. Füllung 90 % Daunen, 10 % Federn, Downpass-zertifiziert. Es ist vorrätig."),
        V("Ok. Andere Frage: Ich hab letzte Woche eine Bettdecke bei euch bestellt, ausgepackt und eine Nacht probegeschlafen, mag sie aber nicht. Darf ich die noch zurückschicken?"),
    ]),
    (P["warranty"], [
        V("Die blau gestreifte Tischdecke Tafel, welche Größen gibt es?"),
        A("Die Tafel gibt es in 140 x 180 cm für 69 EUR und in 140 x 250 cm für 89 EUR. In blau gestreift sind beide Größen vorrätig."),
        V("Danke. Und mal was anderes: Wie viele Jahre Garantie gebt ihr eigentlich auf euren Eichen-Esstisch?"),
    ]),
    (P["payment"], [
        V("is die samt kissenhülle in senf mit füllung?"),
        A("Nein, die Velours-Kissenhülle ist ohne Füllung. Sie misst 45 x 45 cm, hat einen verdeckten Reißverschluss und eine Rückseite aus Leinen. In senf gibt es nur noch 2 Stück."),
        V("ok. frage zum bezahlen: wird die kreditkarte gleich belastet oder erst wenn ihr verschickt"),
    ]),
    (P["discount"], [
        V("Ich hätte gern das Waffel-Duschtuch in salbei. Ist das da?"),
        A("Ja, das Duschtuch 70 x 140 cm in salbei ist vorrätig und kostet 35 EUR. Vom kleinen Handtuch in salbei gibt es nur noch 2 Stück."),
        V("Prima. Themenwechsel: ich hab bei meiner letzten Bestellung vergessen, meinen Code von Instagram (10 % auf alles) einzugeben. Kann man den noch nachtraeglich abziehen?"),
    ]),
    (P["gift_wrapping"], [
        V("Die Zopf-Strickdecke in creme soll ein Geschenk für meine Oma werden. Wie groß ist die?"),
        A("Die Strickdecke Zopf misst 130 x 170 cm, ist aus 100 % Bio-Baumwolle und bei 40 °C waschbar. In creme gibt es nur noch 2 Stück."),
        V("Gut, dass ich frage. Und könnt ihr das hübsch einpacken und direkt zu ihr schicken, mit einer Karte von mir?"),
    ]),
    (P["repair"], [
        V("Der Esstisch Eik in 160 – wie hoch ist der?"),
        A("Der Eik ist 75 cm hoch, die Platte aus massiver Eiche ist 4 cm stark. Die Variante 160 x 90 cm kostet 1.290 EUR und ist vorrätig."),
        V("Danke. Ganz anderes Thema: In meinem Merinopulli von euch ist ein Loch am Ärmel. Flickt ihr sowas?"),
    ]),
    (P["international"], [
        V("Ist der Stuhl Bo in schwarz stapelbar?"),
        A("Ja, der Bo ist stapelbar, aus massiver Buche mit geschwungener Rückenlehne und 46 cm Sitzhöhe. In schwarz ist er vorrätig, 189 EUR pro Stück."),
        V("Schön. Eine Frage aber noch ganz allgemein: Ich wohne in Basel – liefert ihr überhaupt in die Schweiz?"),
    ]),
    (["VA-660-BL"], [
        V("Das Sideboard Linn in Eiche natur, welche Maße hat das?"),
        A("Das Linn misst 180 x 45 x 75 cm, hat zwei Schiebetüren und zwei Schubladen und kostet 1.190 EUR. Es wird per Spedition geliefert."),
        V("Passt. Ach übrigens, habt ihr auch Vasen? Meine Schwester mag blau glasierte Keramik."),
    ]),
    (P["newsletter"], [
        V("Wasserglas-Set Klar: wie viele sind da drin?"),
        A("Im Set sind 6 mundgeblasene Wassergläser à 300 ml, dünnwandig und stapelbar, für 36 EUR. Sie sind spülmaschinengeeignet."),
        V("Ok. Sagt mal, ich krieg seit ner Weile eure Werbemails, will aber nicht mehr. Wie komm ich da raus?"),
    ]),
    (P["exchanges"], [
        V("Leinenbluse Ida in hellblau, gibt es M?"),
        A("Ja, die hellblaue Ida ist in M vorrätig. Sie ist locker geschnitten, mit Stehkragen und Perlmuttknöpfen."),
        V("Super. Was anderes: Ich hab letzte Woche online eine Hose gekauft, die ist zu klein. Kann ich die in der Filiale gegen eine andere Größe tauschen?"),
    ]),
    (["BL-060-BK"], [
        V("Die Jeans Anton hellblau in W32 L34 – verfügbar?"),
        A("W32 ist in hellblau vorrätig, und die Anton gibt es in jeder Bundweite in L32 und L34."),
        V("Gut. Ich bräuchte noch einen schwarzen Ledergürtel dazu, so 95 cm."),
    ]),
]

# ------------------------------------------------------------------ followup
FOLLOWUP_EN = [
    (["LS-410-WH"], [
        V("Hi! I need something cool to wear to a beach wedding. Is the white Porto linen shirt a good shout?"),
        A("Hi! It's a light, breathable garment-washed linen shirt with a button-down collar and a chest pocket – ideal for hot days. In white, M to XXL are in stock, EUR 59."),
        V("and in S?"),
    ]),
    (["OX-220-PS"], [
        V("Thinking about the pink stripe Oxford shirt for my son. Is it proper cotton?"),
        A("Yes – 100% organic cotton Oxford cloth, GOTS-certified. It's a regular fit with a button-down collar and gets softer with every wash. EUR 49."),
        V("tumble dryer ok?"),
    ]),
    (["MJ-118-BU"], [
        V("I'd like to get my dad the burgundy merino jumper for Christmas. He's normally a medium."),
        A("Lovely choice. The Fell jumper in burgundy is in stock in M. It's a unisex fine-knit crew neck in extra-fine merino, EUR 89."),
        V("How wide is that across the chest, laid flat?"),
    ]),
    (["CS-077-CH"], [
        V("Hello, I'm looking at your charcoal cashmere scarf. Is it the thick knitted kind?"),
        A("It's actually a lightweight woven scarf rather than a chunky knit – very soft, with fringed ends. 100% cashmere, woven in Scotland, EUR 119."),
        V("How long is it?"),
        A("It's 180 x 30 cm, one size."),
        V("And washing?"),
    ]),
    (["WD-260-EM"], [
        V("The emerald wrap dress – is the fabric clingy? I hate stuff that sticks to me"),
        A("It's a flowing LENZING ECOVERO viscose, so it drapes nicely. It's a midi wrap dress with long sleeves and a tie waist, EUR 79."),
        V("is it lined"),
    ]),
    (["LD-270-WH"], [
        V("hello I am interest in the white linen dress Sola for my holiday in Greece. Is good for very hot weather?"),
        A("Hello! Yes, it's a sleeveless A-line dress in mid-weight European linen, so it's breathable in the heat. It has a square neckline and side pockets, EUR 95."),
        V("Size S is available?"),
    ]),
    (["RJ-150-YE"], [
        V("Cycling to work every day from October, thinking about the yellow Skagen jacket."),
        A("Good choice for visibility. It's a hooded unisex rain jacket with taped seams, adjustable cuffs and two snap pockets, made of recycled polyester with a PU coating. EUR 129."),
        V("how waterproof are we talking"),
    ]),
    (["CH-210-NV"], [
        V("Do the navy Dune chinos come in W30? I'm quite slim"),
        A("Yes, but there are only 2 left in W30 in navy; W32 to W36 are in stock. They're a slim straight cut in stretch twill with a mid-rise waist."),
        V("and the leg length?"),
    ]),
    (["BT-700-GR"], [
        V("I want to redo the guest bathroom with the stone grey Calm towels."),
        A("Nice! The Calm towels are thick 600 g/m² organic cotton terry with a hanging loop. In stone grey the bath sheet is in stock and there are 3 bath towels left; the hand towel is sold out for about 3 weeks."),
        V("What do the small ones cost once they're back?"),
    ]),
    (["LB-500-NA"], [
        V("I've been eyeing the Nora linen bedding in natural for ages. How soft is it really?"),
        A("It's stonewashed European linen, so it's soft from the start and gets softer with washing. The set is a duvet cover plus a matching pillowcase."),
        V("Does it close with a zip?"),
        A("No zip on this one – it closes with coconut buttons."),
        V("ok and 135x200 available?"),
    ]),
    (["WT-330-GR"], [
        V("Just bought a house and want a grey throw for the sofa. Is the Hygge one actual wool?"),
        A("Yes, the Hygge throw is 100% brushed lambswool, woven in Lithuania, 130 x 180 cm with fringes. In grey it's in stock at EUR 99."),
        V("Can it go in the washing machine?"),
    ]),
    (["CP-640-SP"], [
        A("Hi! How can I help you today?"),
        V("Are the speckled sand Kiln plates all identical? I'm a bit particular about sets lol"),
        A("Fair question! Each plate varies a little because of the reactive glaze, so no two are exactly the same. The set is 4 dinner plates, 27 cm, made in Portugal."),
        V("Hmm ok. Microwave?"),
    ]),
    (["SC-720-FG"], [
        V("Is the fig candle a strong scent? Small living room"),
        A("I can't promise how strong it smells in your room, but it's a hand-poured candle with 200 g of soy wax in a reusable amber glass and a cotton wick. Only 3 left at the moment, EUR 32."),
        V("How long does one last?"),
    ]),
    (["OT-900-NA"], [
        V("Hi, the round oak side table in natural – is it solid wood or veneer?"),
        A("Solid FSC oak with a natural oil finish, made in Saxony. It's 45 cm in diameter and arrives fully assembled by parcel."),
        V("How tall?"),
    ]),
    (P["click_collect"], [
        V("Can I order online and collect at your Munich store?"),
        A("Yes – choose 'Collect in store' at checkout, it's free. Items in stock in the store are ready within 2 hours, otherwise we send them from our warehouse and they're ready in 2-3 working days. We'll email you as soon as it's ready."),
        V("Cheers. What do I need to bring?"),
        A("Just your order confirmation and a photo ID."),
        V("how long will they keep it there for"),
    ]),
    (P["express"], [
        V("I need a parcel to arrive in Berlin by tomorrow, is that doable?"),
        A("Yes, with Express: if you order by 12 noon Monday to Friday, DHL Express delivers on the next working day within Germany. It costs EUR 12.90 regardless of order value."),
        V("and on a saturday?"),
    ]),
    (P["returns"], [
        V("How do returns work if I'm ordering from France?"),
        A("You have 30 days from delivery. Items should be unworn, unwashed and with the original tags. From France, EUR 5.95 return shipping is deducted from your refund."),
        V("Ok. and the money goes back on my card?"),
    ]),
    (P["international"], [
        V("Hello, I'm in Edinburgh – do you still ship to the UK these days?"),
        A("Hello! Yes, we deliver to the United Kingdom. It takes 5-10 working days and costs a flat EUR 19.95. Customs duties and import VAT are paid by the recipient on delivery."),
        V("is it ever free?"),
    ]),
    (P["repair"], [
        V("I lost a button off the Oxford shirt I bought from you last spring. Can you fix that?"),
        A("Yes, our repair service mends shirts, knitwear, trousers and bags bought from us. Small repairs like buttons are free in the first year, after that from EUR 8. You can send it in with the repair form from your account or drop it at one of our stores."),
        V("how long would i be without it"),
    ]),
    (P["furniture_delivery"], [
        V("We're ordering the Eik dining table. How will it be delivered?"),
        A("Tables come with our freight partner rather than a parcel service. Delivery takes 2-4 weeks because furniture is made in small batches, and the carrier contacts you a few days before to agree a 4-hour window. Kerbside delivery in Germany costs EUR 49."),
        V("Right. and will they put it together for us?"),
    ]),
]

FOLLOWUP_DE = [
    (["LH-310-OG"], [
        V("Hallo, ich suche eine luftige Hose für den Sommer und habe die Leinenhose Marie in olivgrün gesehen."),
        A("Hallo! Die Marie ist eine weite, knöchellange Damenhose aus leichtem europäischem Leinen mit elastischem Bund, Tunnelzug und Seitentaschen. In olivgrün sind alle Größen von XS bis XL vorrätig, 79 EUR."),
        V("Kann man die in die Maschine stecken?"),
    ]),
    (["LB-315-WS"], [
        V("Die Leinenbluse Ida in weiß gefällt mir sehr. Ist die eher weit geschnitten?"),
        A("Ja, sie ist locker geschnitten mit leicht überschnittenen Schultern, Stehkragen und Perlmuttknöpfen. 100 % europäisches Leinen, 69 EUR."),
        V("und in M?"),
    ]),
    (["SJ-140-DB"], [
        V("Guten Abend, ich interessiere mich für die dunkelblaue Strickjacke Frida. Hat die Taschen?"),
        A("Guten Abend! Ja, die Frida hat zwei aufgesetzte Taschen und Holzknöpfe. Sie ist ein locker geschnittener Grobstrick-Cardigan, 89 EUR."),
        V("Und woraus ist die? Wolle vertrag ich nicht so gut."),
    ]),
    (["KP-120-GR"], [
        V("Ich überlege, mir den grauen Kaschmirpullover Ella zu gönnen. Ist der lang?"),
        A("Er hat einen Rundhals und einen leicht verlängerten Rücken, ist also hinten etwas länger. 100 % Kaschmir, 169 EUR. In grau gibt es M nur noch 2 Mal, die anderen Größen sind vorrätig."),
        V("Und wie wäscht man so was?"),
    ]),
    (["WM-160-CA"], [
        V("hallo, der camel mantel greta, wie lang ist der ungefähr?"),
        A("Hallo! Der Greta ist ein langer Mantel, der bis zur Wade reicht, mit Reverskragen, Bindegürtel und Innentasche."),
        V("hält der warm? is ja nur 80% wolle"),
        A("Er besteht aus 80 % Schurwolle und 20 % Polyamid und ist mit Viskose gefüttert – ein Mantel für die kalte Jahreszeit."),
        V("M da?"),
    ]),
    (["JN-200-SW"], [
        V("Ich suche eine schwarze Jeans für meinen Freund, die Anton. Ist die sehr eng?"),
        A("Nein, die Anton hat eine gerade Beinform und mittlere Leibhöhe. Sie ist aus 12-oz-Denim mit 2 % Elasthan, in Portugal gefertigt, 99 EUR."),
        V("Er ist 1,92, gibts die auch in länger?"),
    ]),
    (["TS-180-GR"], [
        V("Ist das Basic-T-Shirt in grau meliert ein Unisex-Schnitt?"),
        A("Ja, es ist ein schweres Unisex-T-Shirt mit Rundhals aus Bio-Baumwolle, 25 EUR, und bleibt auch nach vielen Wäschen in Form."),
        V("wie schwer genau?"),
    ]),
    (["SK-095-NA"], [
        A("Hallo! Wie kann ich Ihnen helfen?"),
        V("Hallöchen, ich brauch Socken fürs Wandern im Allgäu. Sind die Alpin in natur was?"),
        A("Hallo! Ja, die Alpin sind dicke Wandersocken aus 70 % Merinowolle mit verstärkter Ferse und Spitze, 3 Paar für 29 EUR."),
        V("Ich hab Schuhgroesse 43, welche nehm ich da?"),
    ]),
    (["BW-530-WS"], [
        V("Die Satinbettwäsche Nacht in weiß – ist die glatt oder so knittrig wie Leinen?"),
        A("Sie ist glatt und glänzend, aus 100 % Baumwollsatin mit 300 Fäden, und schließt mit Reißverschluss. In weiß sind 135 x 200 und 155 x 220 vorrätig."),
        V("Ist ein Kissenbezug dabei?"),
    ]),
    (["BD-540-135"], [
        V("Ich schwitze nachts immer und suche eine Bettdecke. Ist die Traum in 135 x 200 was für mich?"),
        A("Die Traum ist eine atmungsaktive Ganzjahresdecke und auch für Allergiker geeignet. In 135 x 200 cm kostet sie 119 EUR und ist vorrätig."),
        V("Was ist da als Füllung drin?"),
    ]),
    (["TD-600-NA"], [
        V("Für den Gartentisch suche ich eine Leinentischdecke in natur."),
        A("Die Tafel-Tischdecke in natur ist aus vorgewaschenem Leinen mit breitem Saum. In 140 x 180 cm kostet sie 69 EUR, davon gibt es noch 3 Stück."),
        V("Der Tisch ist aber 2,20 lang. Gibts die größer und was kostet das dann?"),
    ]),
    (["KH-610-RS"], [
        V("Habt ihr Kissenhüllen in altrosa? Für unser graues Sofa"),
        A("Ja, die Velours-Kissenhülle gibt es in altrosa: 45 x 45 cm, Baumwollsamt mit Leinenrückseite und verdecktem Reißverschluss, 29 EUR. Es sind nur noch 3 Stück da."),
        V("Inlett dabei?"),
    ]),
    (["ET-910-200"], [
        V("Wir planen einen neuen Esstisch, meistens sind wir zu acht. Wie groß ist der Eik maximal?"),
        A("Der Eik ist in 160 x 90 cm und in 200 x 100 cm erhältlich. Die große Variante kostet 1.590 EUR und ist vorrätig, aus massiver, natur geölter FSC-Eiche."),
        V("Ok den großen. Wie dick ist die Platte?"),
    ]),
    (["SD-930-SW"], [
        V("Servus, das Sideboard Linn in Eiche schwarz gebeizt – wie viele Schubladen hat das?"),
        A("Servus! Es hat zwei Schubladen und zwei Schiebetüren, Maße 180 x 45 x 75 cm, 1.190 EUR."),
        V("noch lieferbar?"),
    ]),
    (P["furniture_delivery"], [
        V("Wie werden bei euch Möbel geliefert, kommt das mit DHL?"),
        A("Nein, Tische, Stühle und Sideboards liefert unsere Partnerspedition. Die Lieferzeit beträgt 2-4 Wochen; die Spedition meldet sich vorher und vereinbart ein Zeitfenster von 4 Stunden. Bis zur Bordsteinkante kostet das in Deutschland 49 EUR."),
        V("Und nach Österreich?"),
    ]),
    (P["klarna"], [
        V("Kann ich bei euch auf Rechnung kaufen?"),
        A("Ja, mit Klarna 'Rechnung': Sie erhalten zuerst die Ware und zahlen innerhalb von 30 Tagen, ohne Zusatzkosten. Voraussetzung ist eine Rechnungsadresse in Deutschland, Österreich oder den Niederlanden."),
        V("Und in Raten? Ab welchem Betrag geht das?"),
    ]),
    (P["gift_cards"], [
        V("Ich möchte meiner Kollegin zum Abschied einen Gutschein schenken. Welche Beträge gibt es?"),
        A("Sie können jeden Betrag von 20 bis 500 EUR wählen. Der digitale Gutschein kommt innerhalb weniger Minuten per E-Mail und lässt sich ausdrucken; in unseren Geschäften gibt es ihn auch als Karte in einer Geschenkbox."),
        V("Und wie lange gilt der?"),
    ]),
    (P["tracking"], [
        V("Wo kann ich sehen, wo mein Paket gerade ist?"),
        A("Sobald Ihr Paket unser Lager verlässt, bekommen Sie eine Versandbestätigung mit einem DHL-Trackinglink. Mit Kundenkonto sehen Sie den Status auch unter 'Meine Bestellungen'."),
        V("Hab aber zwei verschiedene Nummern bekommen, wieso das?"),
    ]),
    (P["care_wool"], [
        V("Wie pflege ich meinen Kaschmirpulli richtig? Der hat schon kleine Knötchen"),
        A("Wolle und Kaschmir müssen selten gewaschen werden, oft reicht Auslüften über Nacht. Wenn doch, Wollprogramm bei 30 Grad oder Handwäsche kalt mit Wollwaschmittel. Knötchen sind in den ersten Wochen normal und lassen sich mit einem Kaschmirkamm entfernen."),
        V("Und Motten? Hatte letztes Jahr welche im Schrank"),
    ]),
    (P["exchanges"], [
        V("Ich brauch die Hose eine Nummer größer. Wie läuft das?"),
        A("Einen direkten Umtausch per Post gibt es nicht: Schicken Sie die Hose kostenlos zurück und bestellen Sie die gewünschte Größe einfach neu – am besten gleich, beliebte Größen sind schnell weg."),
        V("geht das auch im laden?"),
    ]),
]

# -------------------------------------------------------- after_condensation
AFTER_CONDENSATION_EN = [
    (["LS-410-SA"],
     core("Visitor is looking for a linen shirt to wear at a summer wedding and has settled on the Porto shirt in sand.",
          [art("LS-410-SA", "Linen shirt Porto, sand")],
          ["size L", "needs it within a week", "delivery to Hamburg"]),
     [V("ok so is it actually in stock in mine?")]),
    (["WD-260-EM"],
     core("Visitor compared the Lina wrap dress in black and in emerald for a Christmas party and decided on the emerald one.",
          [art("WD-260-BK", "Wrap dress Lina, black"), art("WD-260-EM", "Wrap dress Lina, emerald")],
          ["size XS", "budget under EUR 100"]),
     [A("Great choice, that colour is lovely for a party."),
      V("Right – is my size actually available in the one I went for, or nearly gone?")]),
    (P["tracking"],
     core("Visitor placed order 100734 two days ago (Nora linen duvet cover set, white, 200 x 200) and wants to know where it is.",
          [order("100734"), art("LB-500-WH", "Linen duvet cover set Nora, white")],
          ["has a customer account", "no dispatch e-mail received yet"]),
     [V("My account still says 'In preparation'. When do I get the DHL link?")]),
    (P["returns"],
     core("Visitor wants to send back the navy Skagen rain jacket from order 100512 because it is too big.",
          [order("100512"), art("RJ-150-NV", "Rain jacket Skagen, navy")],
          ["lives in Ghent, Belgium", "paid by credit card", "jacket unworn, tags on"]),
     [V("So how much gets taken off my refund for sending it back from here?")]),
    (["OT-900-BL"],
     core("Visitor is furnishing a new flat in Vienna and likes the Rune side table in black-stained oak.",
          [art("OT-900-BL", "Oak side table Rune, black-stained oak")],
          ["delivery to Vienna", "no car, cannot collect"]),
     [V("Does that one come with the freight people as well, or in a normal parcel? And will I have to assemble it?")]),
    (P["gift_wrapping"],
     core("Visitor is buying the navy Fell merino jumper as a birthday present for her father.",
          [art("MJ-118-NV", "Merino jumper Fell, navy")],
          ["size L", "ship directly to her father in Munich"]),
     [A("Size L in navy is in stock, so that works."),
      V("Lovely. Can you make it look like a present and keep the price off the slip?")]),
    (["ML-650-SP"],
     core("Visitor wants a tableware set: the Kiln dinner plates and matching Kiln mugs, both in speckled sand.",
          [art("CP-640-SP", "Stoneware dinner plate set Kiln, speckled sand"), art("ML-650-SP", "Stoneware mug Kiln, speckled sand")],
          ["one plate set (4 plates)", "needs 4 mugs to match"]),
     [V("are there actually enough mugs left for that?")]),
    (P["warranty"],
     core("Visitor received the charcoal Aura cashmere scarf (order 100921) two weeks ago and found a small hole in the weave without having worn it much.",
          [order("100921"), art("CS-077-CH", "Cashmere scarf Aura, charcoal")],
          ["has taken photos", "has not washed it"]),
     [V("If I send it to you, who pays the postage? And do you replace it or give the money back?")]),
    (["BL-060-BR"],
     core("Visitor is ordering the olive Dune chinos in W34 and wants a belt to go with them; he likes the cognac Ridge belt.",
          [art("CH-210-OL", "Chinos Dune, olive"), art("BL-060-BR", "Leather belt Ridge, cognac brown")],
          ["trouser waist 86 cm (W34)"]),
     [V("Which belt length should I pick then?")]),
    (P["international"],
     core("Visitor wants to send an order of about EUR 240 to her sister in the USA.",
          [page("page-en-international", "Shipping outside the EU")],
          ["destination: Boston, USA", "basket approx. EUR 240"]),
     [A("As your basket is over EUR 200, delivery to the USA would be free."),
      V("Great. And the customs charges, who ends up paying those?")]),
    (["PC-510-GR"],
     core("Visitor from the UK needs a duvet cover for a UK double duvet and likes the Crisp percale set in light grey.",
          [art("PC-510-GR", "Percale duvet cover set Crisp, light grey")],
          ["UK double = 200 x 200 cm", "wants light grey, not white"]),
     [V("is that size in stock in the grey?")]),
    (P["parcel_missing"],
     core("Visitor's order 100388 shows 'delivered' in the DHL tracking but the parcel is nowhere to be found; she already asked her neighbours and found no DHL card.",
          [order("100388")],
          ["tracking said delivered on Monday", "lives in an apartment block"]),
     [V("It's now Thursday and still nothing has turned up. What happens now?")]),
    (["WT-330-OC"],
     core("Visitor owns the ochre Hygge throw and wants to clean it after the dog slept on it.",
          [art("WT-330-OC", "Wool throw Hygge, ochre")],
          ["washing machine has a wool programme", "has a tumble dryer"]),
     [V("ok and can it go in the dryer after?")]),
    (["SW-190-EC"],
     core("Visitor wants the ecru Loop sweatshirt in size M, which is currently sold out.",
          [art("SW-190-EC", "Sweatshirt Loop, ecru")],
          ["size M only", "does not want another colour"]),
     [V("When's it back then?")]),
    (P["discount"],
     core("Visitor's welcome code WELCOME10 is rejected at checkout.",
          [page("page-en-discount-codes", "Discount codes and promotions")],
          ["basket is mostly reduced sale items", "code received two weeks ago"]),
     [A("Could you check the expiry date in the email with the code?"),
      V("It's valid till the end of the month. Is it because most of my stuff is on sale?")]),
    (P["klarna"],
     core("Visitor wants to buy the Eik dining table 200 x 100 cm (EUR 1,590) and asked about paying over time.",
          [art("ET-910-200", "Esstisch Eik, 200 x 100 cm")],
          ["billing and delivery address in Vienna, Austria", "over 18"]),
     [V("Okay, so what are my options for spreading that out?")]),
    (P["change_cancel"],
     core("Visitor placed order 100645 about 10 minutes ago and picked white Calm towels by mistake instead of sage.",
          [order("100645"), art("BT-700-WH", "Organic cotton towel Calm, white"), art("BT-700-SG", "Organic cotton towel Calm, sage")],
          ["order placed 10 minutes ago", "not dispatched yet"]),
     [V("Can I still cancel it myself?")]),
    (P["stores"],
     core("Visitor wants to see the Linn sideboard in natural oak in person before buying.",
          [art("SD-930-NA", "Sideboard Linn, Eiche natur")],
          ["lives in Berlin", "only free on Saturdays"]),
     [V("Where's the shop, and is it open then?")]),
    (["TB-080-NA"],
     core("Visitor asked whether the natural Harbour tote fits a 15-inch laptop; the assistant said it fits laptops up to 14 inches.",
          [art("TB-080-NA", "Canvas tote bag Harbour, natural")],
          ["for the daily commute"]),
     [V("hmm mine's actually a 14, just checked. Is there a zipped bit inside for keys?")]),
    (["VA-660-WH"],
     core("Visitor is buying the matte white Tide vase as a birthday present for a friend.",
          [art("VA-660-WH", "Ceramic vase Tide, matte white")],
          ["for fresh flowers", "wants it delivered next week"]),
     [V("Will it hold water ok? It's handmade so I'm a bit worried")]),
]

AFTER_CONDENSATION_DE = [
    (["LH-310-OG"],
     core("Kundin sucht eine leichte Sommerhose und hat sich für die Leinenhose Marie in olivgrün entschieden.",
          [art("LH-310-OG", "Leinenhose Marie, olivgrün")],
          ["Größe L", "kein Polyester"]),
     [V("Und wie ist die geschnitten, eher weit oder eng?")]),
    (P["exchanges"],
     core("Kundin hat mit Bestellung 200117 den Kaschmirpullover Ella in camel, Größe S, bekommen; er ist zu eng, sie möchte M.",
          [order("200117", "Bestellung 200117"), art("KP-120-CA", "Kaschmirpullover Ella, camel")],
          ["Pullover ungetragen, Etikett dran", "wohnt in Köln"]),
     [V("Wie mach ich das jetzt am besten? Geht das direkt per Post gegen M?")]),
    (P["furniture_delivery"],
     core("Kunde möchte den Esstisch Eik 160 x 90 und vier Stühle Bo in natur bestellen.",
          [art("ET-910-160", "Esstisch Eik, 160 x 90 cm"), art("ST-920-NA", "Stuhl Bo, natur")],
          ["Lieferadresse in Graz, Österreich", "Erdgeschoss"]),
     [V("Was kost' uns denn die Lieferung bis zu uns runter?")]),
    (P["returns"],
     core("Kunde hat mit Bestellung 200342 die Ganzjahresbettdecke Traum 155 x 220 erhalten, ausgepackt und eine Nacht darunter geschlafen; sie ist ihm zu warm.",
          [order("200342", "Bestellung 200342"), art("BD-540-155", "Ganzjahresbettdecke Traum, 155 x 220 cm")],
          ["Folie geöffnet", "Lieferung vor 5 Tagen"]),
     [V("Kann ich die trotzdem zurückgeben?")]),
    (["BW-530-AN"],
     core("Kundin hat die Satin-Bettwäsche Nacht in anthrazit und weiß verglichen und möchte anthrazit.",
          [art("BW-530-AN", "Satin-Bettwäsche Nacht, anthrazit"), art("BW-530-WS", "Satin-Bettwäsche Nacht, weiß")],
          ["Größe 135 x 200", "braucht 2 Sets"]),
     [A("Anthrazit wirkt sehr edel, gute Wahl!"),
      V("Sind davon noch genug da?")]),
    (["HS-090-GR"],
     core("Kunde sucht Filzhausschuhe Stube in grau für sich selbst.",
          [art("HS-090-GR", "Filzhausschuhe Stube, grau")],
          ["Schuhgröße 43,5"]),
     [V("welche nummer soll ich dann nehmen")]),
    (["GL-650-RG"],
     core("Besucherin interessiert sich für das Wasserglas-Set Klar in rauchgrau als Geschenk.",
          [art("GL-650-RG", "Wasserglas-Set Klar, rauchgrau")],
          ["Beschenkte hat keine Lust auf Handspülen"]),
     [V("Dürfen die dann in die Spülmaschine?")]),
    (P["express"],
     core("Kunde hat Bestellung 200508 heute (Donnerstag) um 14:30 Uhr mit Expressversand aufgegeben.",
          [order("200508", "Bestellung 200508")],
          ["Lieferadresse in Leipzig", "braucht die Ware für Freitagabend"]),
     [V("Kommt das morgen noch an?")]),
    (P["gift_cards"],
     core("Kundin hat einen Geschenkgutschein teilweise eingelöst und möchte das Restguthaben nutzen.",
          [page("page-de-gutscheine", "Geschenkgutscheine")],
          ["Gutschein von 2024", "will im Laden in Hamburg einkaufen"]),
     [V("Wo sehe ich denn, wie viel noch drauf ist?")]),
    (P["furniture_delivery"],
     core("Kunde hat das Sideboard Linn in Eiche schwarz gebeizt bestellt (Bestellung 200611); die Spedition hat sich für nächsten Dienstag angekündigt.",
          [order("200611", "Bestellung 200611"), art("SD-930-SW", "Sideboard Linn, Eiche schwarz gebeizt")],
          ["Lieferung bis Bordsteinkante gebucht"]),
     [V("Muss ich beim Auspacken auf irgendwas achten, solange der Fahrer noch da ist?")]),
    (["TS-180-SW"],
     core("Kunde möchte drei schwarze Basic-T-Shirts in Größe L.",
          [art("TS-180-SW", "T-Shirt Basic, schwarz")],
          ["Größe L", "3 Stück"]),
     [V("Sind die noch alle da?")]),
    (P["care_wood"],
     core("Kundin hat auf ihrem Stuhl Bo in natur Kratzer entdeckt und fragt nach Pflege.",
          [art("ST-920-NA", "Stuhl Bo, natur")],
          ["leichte Kratzer auf der Sitzfläche"]),
     [A("Grundsätzlich reicht es, den Stuhl mit einem feuchten Tuch abzuwischen und ein- bis zweimal im Jahr nachzuölen."),
      V("Und die Kratzer, krieg ich die irgendwie weg?")]),
    (P["size_women"],
     core("Kundin möchte die Strickjacke Frida in creme kaufen.",
          [art("SJ-140-CR", "Strickjacke Frida, creme")],
          ["Brust 86, Taille 70, Hüfte 94 cm – liegt zwischen S und M"]),
     [V("Welche Größe soll ich denn dann nehmen, die kleinere oder die größere?")]),
    (["SK-095-AN"],
     core("Kunde sucht dicke Socken für Winterwanderungen und hat die Wollsocken Alpin in anthrazit ausgewählt.",
          [art("SK-095-AN", "Wollsocken 3er-Pack Alpin, anthrazit")],
          ["Schuhgröße 42"]),
     [V("Welche Größe passt da?")]),
    (P["klarna"],
     core("Kunde aus Wien möchte auf Rechnung bezahlen.",
          [page("page-de-zahlung", "Zahlungsarten")],
          ["Rechnungsadresse in Wien", "Bestellwert ca. 120 EUR"]),
     [V("Geht das mit Klarna auch von Österreich aus?")]),
    (P["click_collect"],
     core("Kundin aus Hamburg möchte zwei Samt-Kissenhüllen in petrol online bestellen und im Geschäft abholen.",
          [art("KH-610-PE", "Samt-Kissenhülle Velours, petrol")],
          ["Abholung im Geschäft Hamburg", "laut Filiale dort vorrätig"]),
     [V("Wie schnell kann ich die dann holen?")]),
    (["JN-200-DB"],
     core("Kunde möchte die Jeans Anton in dunkelblau, W32 L34, kaufen.",
          [art("JN-200-DB", "Jeans Straight Fit Anton, dunkelblau")],
          ["W32", "L34", "trocknet alles im Trockner"]),
     [V("Darf die in den Trockner?")]),
    (["KP-120-RO"],
     core("Kundin sucht ein Geschenk für ihre Freundin und hat den Kaschmirpullover Ella in rosé ausgesucht.",
          [art("KP-120-RO", "Kaschmirpullover Ella, rosé")],
          ["Größe S", "Geburtstag in 10 Tagen"]),
     [V("Ist S noch zu haben?")]),
    (P["account"],
     core("Kunde hat gestern 'Passwort vergessen' angeklickt und die E-Mail erst heute geöffnet.",
          [page("page-de-kundenkonto", "Ihr Kundenkonto")],
          ["Link vor ca. 26 Stunden angefordert"]),
     [V("Der Link geht nicht mehr. Ist der abgelaufen oder mach ich was falsch?")]),
    (["TD-600-WS"],
     core("Kundin möchte die Leinentischdecke Tafel in weiß in 140 x 250 cm, die derzeit ausverkauft ist.",
          [art("TD-600-WS", "Leinentischdecke Tafel, weiß")],
          ["Größe 140 x 250", "nur weiß"]),
     [V("Wann ist die wieder da?")]),
]

# ------------------------------------------------------------- multi_product
MULTI_PRODUCT_EN = [
    (["LS-410-SA", "OX-220-LB"], [
        V("I'm torn between the sand Porto linen shirt and the light blue Hamilton Oxford for a summer job in an office. Thoughts?"),
        A("Both work well. The Porto is relaxed, garment-washed linen and very breathable on hot days. The Hamilton is a regular-fit organic cotton Oxford, a bit smarter and sturdier, and it gets softer with every wash."),
        V("Which of the two can I just bung in the tumble dryer?"),
    ]),
    (["MJ-118-NV", "CS-077-CA"], [
        V("I want to get my brother the navy merino jumper and the camel cashmere scarf for his 40th."),
        A("That's a lovely combination. The Fell jumper in navy is in stock in all sizes, and the Aura scarf in camel is in stock too."),
        V("What would the two come to together?"),
    ]),
    (["WD-260-FL"], [
        V("Hiya, I've got a wedding in June and can't decide: the floral Lina wrap dress or the terracotta Sola linen one?"),
        A("The Lina is a flowing midi wrap dress with long sleeves in ECOVERO viscose; the Sola is a sleeveless A-line linen dress with pockets. Both work for a June wedding – the Sola is the cooler one if it's hot."),
        V("The floral one, is it there in M?"),
    ]),
    (["RJ-150-YE", "RJ-150-NV"], [
        V("Which is more practical for a kid at school, the yellow or the navy Skagen jacket? She wears an S"),
        A("Practically they're identical – same waterproof fabric, taped seams and hood. Yellow is more visible in traffic, navy shows the dirt less."),
        V("ok but which of the two actually has S right now"),
    ]),
    (["CH-210-BE", "BL-060-BK"], [
        V("Ordering the beige Dune chinos in W34 and the black Ridge belt."),
        A("Good pairing. The beige chinos are in stock in W34. The Ridge belt comes in 85, 90, 95, 100 and 110 cm."),
        V("Which belt length do I need for those trousers?"),
    ]),
    (["BT-700-WH", "HT-620-WS"], [
        V("For my gym bag I'm deciding between your white Calm towel and the white Waffel one."),
        A("The Calm is a thick, very absorbent 600 g/m² terry towel. The Waffel is a lighter cotton waffle piqué."),
        V("Which dries quicker? It sits in a locker all day"),
    ]),
    (["PC-510-WH"], [
        V("Hi, I'm choosing new bed linen. Nora linen in sage or the Crisp percale in white?"),
        A("Nora is soft stonewashed linen with coconut buttons; Crisp is cool, crisp organic cotton percale with a hidden zip. The linen feels more textured, the percale smoother."),
        V("Let's go percale. Does the 155x220 come with a pillowcase, and what's the price?"),
    ]),
    (["CP-640-WH", "ML-650-WH"], [
        A("Hi! How can I help you today?"),
        V("Setting up my first flat!! I want the white Kiln plates and white Kiln mugs."),
        A("Congrats! The plates come as a set of 4 (27 cm) and the mugs are sold individually. Both are in stock in white."),
        V("So one plate set and six mugs, how much is that altogether?"),
    ]),
    (["SC-720-FG", "SC-720-CE"], [
        V("Do you have both Ember candles, fig and cedarwood? Need them as little thank-you gifts for my team"),
        A("Yes, both scents exist, EUR 32 each – hand-poured soy wax in a reusable amber glass."),
        V("I'd need four of the same scent. Which one do you have enough of?"),
    ]),
    (P["shipping"], [
        V("In my basket: the natural oak Rune side table and the blue Tide vase."),
        A("Lovely combination! The side table is EUR 249 and the vase EUR 45, both in stock."),
        V("Would that ship free to Stuttgart or do I pay postage on top?"),
    ]),
    (["TS-180-WS"], [
        V("Hey, need basics: the grey Loop sweatshirt and a couple of the white Basic tees."),
        A("The Loop sweatshirt in grey melange is heavyweight organic cotton loopback at 340 g/m². The Basic tee is a heavy unisex crew neck in organic cotton, EUR 25."),
        V("the tee – how heavy is that fabric?"),
    ]),
    (P["furniture_delivery"], [
        V("We're ordering the Eik dining table 200 x 100 and six black Bo chairs."),
        A("Great choice – the Eik is solid oiled oak and the Bo chairs are stackable solid beech, both in stock."),
        V("How long is the wait on furniture like that before it's at our door?"),
    ]),
    (P["returns"], [
        V("Buying the white linen shirt and the navy chinos for my husband, not sure about his sizes."),
        A("The Porto shirt in white is in stock from M to XXL, and the Dune chinos in navy are in stock from W32 to W36, with 2 left in W30."),
        V("If neither fits do we have to pay to send them back? We're in Salzburg"),
    ]),
    (["WT-330-GR", "MT-335-CR"], [
        V("I want a throw for the sofa – the grey Hygge or the cream Zopf knitted blanket?"),
        A("The Hygge is brushed lambswool, 130 x 180 cm with fringes. The Zopf is a cable-knit blanket in organic cotton, 130 x 170 cm."),
        V("Which one can I just throw in the washing machine? We have a toddler"),
    ]),
    (["KP-120-CA"], [
        V("Treating myself: the black Lina wrap dress and the camel Ella cashmere jumper."),
        A("Lovely! The black Lina is in stock in S, M and L. The Ella in camel is in stock in XS, S, L and XL; M is back in about 3 weeks."),
        V("How do I wash the jumper?"),
    ]),
    (["TB-080-BK"], [
        V("I'm getting the black Harbour tote and the black Ridge belt."),
        A("Both are in stock. The tote is heavy organic cotton canvas with leather handles; the belt is full-grain vegetable-tanned leather with a brass buckle."),
        V("nice. belt is for me, 90 cm, still there?"),
        A("The black Ridge belt in 90 cm has only 2 left, so it's still available."),
        V("the bag, will my 14 inch laptop go in?"),
    ]),
    (["ML-650-SP", "GL-650-KL"], [
        V("Looking at the speckled Kiln mug and the clear Klar water glasses."),
        A("The Kiln mug is 350 ml reactive-glazed stoneware, and the Klar set is 6 hand-blown 300 ml glasses."),
        V("Can both go in the dishwasher?"),
    ]),
    (P["size_women"], [
        V("I want the white Sola linen dress and the black Marie linen trousers."),
        A("Both are 100% European linen. The Sola is a sleeveless A-line dress; the Marie is a wide, ankle-length trouser with an elastic waistband."),
        V("I'm usually between S and M. Which should I go for?"),
    ]),
    (P["returns"], [
        V("Guest room shopping: the white Crisp percale cover 135 x 200, a small Wolke down pillow and the Traum duvet 135 x 200."),
        A("All three are in stock: the Crisp cover is EUR 89, the Wolke pillow 40 x 80 cm is EUR 49 and the Traum duvet 135 x 200 cm is EUR 119."),
        V("If I open the pillow and it's too flat for me, can I still send it back?"),
    ]),
    (["MJ-118-GR", "SW-190-FG"], [
        V("For winter layering: the grey merino Fell jumper or the forest green Loop sweatshirt?"),
        A("The Fell is fine-knit extra-fine merino, warm without bulk. The Loop is a heavyweight 340 g/m² cotton loopback sweatshirt with a slightly boxy fit."),
        V("what's the price difference between them?"),
    ]),
]

MULTI_PRODUCT_DE = [
    (["LH-310-SW", "LB-315-WS"], [
        V("Ich möchte die Leinenhose Marie in schwarz und die Leinenbluse Ida in weiß kombinieren."),
        A("Schöne Kombi! Beide sind aus 100 % europäischem Leinen. Die Marie in schwarz ist in allen Größen vorrätig (M noch 3 Stück), die Ida in weiß gibt es derzeit in XS und XL."),
        V("Was kosten die zwei zusammen?"),
    ]),
    (["JN-200-HB"], [
        V("Suche für meinen Sohn eine Jeans und T-Shirts. Hab mir die Anton in hellblau und das Basic-Shirt in schwarz angeschaut."),
        A("Die Anton ist eine gerade geschnittene Herrenjeans aus Bio-Denim, das Basic ein schweres Unisex-T-Shirt für 25 EUR."),
        V("Die Jeans bräuchte er in W30, gibts die?"),
    ]),
    (["KP-120-GR", "WM-160-GR"], [
        V("Ich hätte gern den grauen Kaschmirpullover Ella und den grauen Wollmantel Greta."),
        A("Eine schöne Kombination in Grau. Der Ella kostet 169 EUR, der Greta 249 EUR."),
        V("Sind beide in M noch da?"),
    ]),
    (["BW-530-WS"], [
        V("Wir richten das Gästezimmer ein: Bettdecke Traum 155 x 220, Kopfkissen Wolke 80 x 80 und die weiße Satinbettwäsche."),
        A("Gute Auswahl. Die Traum in 155 x 220 gibt es noch 3 Mal, das Wolke-Kissen 80 x 80 ist vorrätig."),
        V("Gibts die Bettwäsche passend für die Decke, und was kostet sie dann?"),
    ]),
    (["ET-910-160", "ST-920-NA"], [
        V("Interessiere mich für den Esstisch Eik 160 und dazu Stühle Bo in natur."),
        A("Der Eik 160 x 90 cm ist aus massiver Eiche, 1.290 EUR. Die Bo-Stühle aus massiver Buche kosten 189 EUR pro Stück und sind stapelbar."),
        V("Und die Stühle gäbe es auch in schwarz?"),
        A("Ja, den Bo gibt es auch in schwarz, ebenfalls vorrätig und zum gleichen Preis. Zum natur geölten Tisch passt aber auch natur sehr gut."),
        V("Passt das von der Höhe zusammen? Wie hoch ist der Tisch und wie hoch sitzt man?"),
    ]),
    (P["furniture_returns"], [
        V("Wir haben das Sideboard Linn in natur und den Esstisch Eik 200 im Warenkorb."),
        A("Beides ist aus massiver, geölter FSC-Eiche und wird per Spedition geliefert."),
        V("Falls es in der Wohnung doch nicht wirkt – kann man sowas überhaupt zurückgeben, und was kostet das?"),
    ]),
    (["HT-620-WS"], [
        V("Brauche neue Handtücher: Waffel in weiß oder die dicken Calm in weiß?"),
        A("Die Waffel-Handtücher sind leicht und trocknen schnell, die Calm sind schweres, sehr saugfähiges Frottee mit 600 g/m²."),
        V("ich nehm das Waffel-Duschtuch. gibts das noch?"),
    ]),
    (["KH-610-SE"], [
        V("Für mein Sofa möchte ich Samtkissenhüllen, senf und petrol gemischt."),
        A("Schöne Farbkombi! Beide Velours-Hüllen sind 45 x 45 cm und kosten 29 EUR. Petrol ist vorrätig."),
        V("Ich bräuchte 3 in senf, geht das?"),
    ]),
    (P["gift_wrapping"], [
        A("Hallo! Wie kann ich Ihnen helfen?"),
        V("Für die Hochzeit meiner Schwester will ich die Leinentischdecke Tafel in natur, das Wasserglas-Set klar und die weißen Kiln-Teller schenken."),
        A("Ein schönes Geschenk! Die Tischdecke in natur gibt es ab 69 EUR, die Gläser kosten 36 EUR für 6 Stück und die Kiln-Teller 59 EUR für 4 Stück."),
        V("Könnt ihr das als Geschenk einpacken und ohne Preise auf dem Lieferschein verschicken?"),
    ]),
    (["HS-090-RT"], [
        V("Hab die roten Filzhausschuhe und die Alpin-Socken in natur im Korb."),
        A("Die Stube-Hausschuhe sind aus gewalktem Wollfilz mit Naturkautschuksohle, die Alpin-Socken sind ein 3er-Pack aus Merinowolle."),
        V("Die Hausschuhe in 41, sind die lieferbar?"),
    ]),
    (["SJ-140-DB", "KP-120-RO"], [
        V("Ich schwanke zwischen der Strickjacke Frida in dunkelblau und dem Kaschmirpullover Ella in rosé."),
        A("Die Frida ist ein Grobstrick-Cardigan mit Holzknöpfen für 89 EUR, der Ella ein feiner Kaschmirpullover mit Rundhals für 169 EUR."),
        V("Was ist beim Material der Unterschied, und kann ich beide in die Waschmaschine tun?"),
    ]),
    (P["shipping"], [
        V("Ich bestelle die graue Strickdecke Zopf und eine Samtkissenhülle in petrol, Lieferung nach Linz."),
        A("Die Strickdecke kostet 79 EUR, die Kissenhülle 29 EUR, zusammen also 108 EUR."),
        V("Dann ist der Versand nach Österreich gratis, oder?"),
    ]),
    (["JN-200-DB", "CH-210-OL"], [
        V("Brauche eine Hose fürs Büro, schwanke zwischen der Anton-Jeans in dunkelblau und der Dune-Chino in oliv."),
        A("Die Anton ist eine gerade geschnittene Jeans aus 12-oz-Denim, 99 EUR. Die Dune ist eine schmale Chino aus Stretch-Twill, 69 EUR."),
        V("Welche von beiden gibt beim Sitzen mehr nach?"),
    ]),
    (["TS-180-GR"], [
        V("Das Basic-Shirt in weiß und in grau meliert – nehm ich beide."),
        A("Gern! Beide kosten 25 EUR. In weiß sind S bis XL vorrätig."),
        V("Vom grauen bräuchte ich zwei in M."),
    ]),
    (P["care_linen"], [
        V("Hab die Ida-Bluse in hellblau und das Leinenkleid Sola in weiß bestellt."),
        A("Schöne Sommerteile! Beide sind aus 100 % Leinen."),
        V("Wie wasch ich Leinen richtig, ohne dass es einläuft?"),
    ]),
    (["CS-077-CA"], [
        V("Den Wollmantel Greta in camel und den Kaschmirschal Aura in camel – passt das farblich zusammen?"),
        A("Beide sind in einem warmen Camelton gehalten. Der Mantel kostet 249 EUR, der Schal 119 EUR."),
        V("Ist der Schal reiner Kaschmir oder gemischt?"),
    ]),
    (P["bedding_sizes"], [
        V("Brauch Bettwäsche für unser neues Boxspringbett. Satin Nacht in anthrazit oder Leinen Nora in natur?"),
        A("Die Nacht ist glatter, glänzender Baumwollsatin mit Reißverschluss, die Nora weiches stonewashed Leinen mit Kokosknöpfen."),
        V("Unsere Decke ist 240 x 220. Habt ihr da überhaupt was?"),
    ]),
    (P["klarna"], [
        V("Wir überlegen, den Eik-Esstisch 200 und das Sideboard Linn in schwarz zu kaufen."),
        A("Zusammen sind das 2.780 EUR (1.590 EUR und 1.190 EUR). Beides wird per Spedition geliefert."),
        V("Kann man das in Raten abstottern?"),
    ]),
    (["KK-520-8080"], [
        V("Ich brauch Kopfkissen, einmal 40 x 80 und einmal 80 x 80 von der Wolke."),
        A("Beide Wolke-Kissen sind vorrätig. Das 40 x 80 cm kostet 49 EUR."),
        V("Und wat kost' dit große?"),
    ]),
    (P["express"], [
        V("Die Alpin-Socken in anthrazit und die grauen Stube-Hausschuhe hätte ich gern, für meinen Vater."),
        A("Gute Wahl für kalte Tage! Die Socken sind in allen Größen vorrätig, die Hausschuhe in fast allen Größen."),
        V("Es ist Donnerstagvormittag – wenn ich jetzt bestelle, hat er das bis Samstag?"),
    ]),
]


def rows():
    out = []
    cats = [
        ("paraphrase", PARAPHRASE_EN, PARAPHRASE_DE, False),
        ("subject_change", SUBJECT_CHANGE_EN, SUBJECT_CHANGE_DE, False),
        ("followup", FOLLOWUP_EN, FOLLOWUP_DE, False),
        ("after_condensation", AFTER_CONDENSATION_EN, AFTER_CONDENSATION_DE, True),
        ("multi_product", MULTI_PRODUCT_EN, MULTI_PRODUCT_DE, False),
    ]
    for cat, en, de, has_core in cats:
        n = 0
        for lang, items in (("en", en), ("de", de)):
            for item in items:
                n += 1
                if has_core:
                    expect, c, turns = item
                else:
                    expect, turns = item
                    c = None
                out.append({
                    "id": "%s-%03d" % (cat, n),
                    "lang": lang,
                    "category": cat,
                    "part": "dev",
                    "turns": turns,
                    "core": c,
                    "expect": list(expect),
                })
    return out


def main():
    data = rows()
    path = os.path.join(HERE, "conversations.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for r in data:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote", len(data), "conversations to", path)


if __name__ == "__main__":
    main()
