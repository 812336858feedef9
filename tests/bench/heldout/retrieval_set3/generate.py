"""Held-out retrieval set 3: writes conversations.jsonl next to this file.

Written by hand as data (stdlib only). 200 conversations, 40 per category,
20 EN and 20 DE per category, all in part "dev".
Run:  python3 generate.py && python3 check.py
"""
import json
import os


def v(text):
    return {"role": "visitor", "text": text}


def a(text):
    return {"role": "assistant", "text": text}


def art(id_, label):
    return {"kind": "article", "id": id_, "label": label}


def page(id_, label):
    return {"kind": "page", "id": id_, "label": label}


def order(no, label):
    return {"kind": "order", "id": no, "label": label}


def core(request, objects, constraints):
    return {"request": request, "objects": objects, "constraints": constraints}


# service page pairs (EN, DE); the imprint exists only in German
P = {
    "shipping": ["page-en-shipping", "page-de-versand"],
    "express": ["page-en-express", "page-de-express"],
    "international": ["page-en-international", "page-de-international"],
    "furniture_delivery": ["page-en-furniture-delivery", "page-de-spedition"],
    "holiday": ["page-en-holiday-delivery", "page-de-feiertage"],
    "collect": ["page-en-click-collect", "page-de-abholung"],
    "tracking": ["page-en-tracking", "page-de-sendungsverfolgung"],
    "missing": ["page-en-parcel-missing", "page-de-paket-fehlt"],
    "returns": ["page-en-returns", "page-de-ruecksendung"],
    "exchanges": ["page-en-exchanges", "page-de-umtausch"],
    "furniture_returns": ["page-en-furniture-returns", "page-de-moebel-rueckgabe"],
    "warranty": ["page-en-warranty", "page-de-gewaehrleistung"],
    "payment": ["page-en-payment", "page-de-zahlung"],
    "klarna": ["page-en-klarna", "page-de-klarna"],
    "giftcards": ["page-en-gift-cards", "page-de-gutscheine"],
    "discounts": ["page-en-discount-codes", "page-de-rabattcodes"],
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


def c(lang, turns, expect, core_=None):
    return {"lang": lang, "turns": turns, "expect": list(expect), "core": core_}


# ---------------------------------------------------------------------------
# paraphrase: one visitor message, worded unlike the page or product it needs
# ---------------------------------------------------------------------------
PARAPHRASE = [
    c("en", [v("hiya, what does it set me back to get an order posted to Belgium, and how much do I have to spend before you stop charging for it?")],
      P["shipping"]),
    c("de", [v("Wo is mei Packerl grad? Hab a Mail kriegt dass es weg is, aber wenn i auf den Link drück steht da no goar nix")],
      P["tracking"]),
    c("en", [v("my sisters bday is thursday and i completely forgot 🙈 is there any way to pay a bit more so it turns up tomorrow??")],
      P["express"]),
    c("de", [v("Kann man bei euch eigentlich auch bar an der Haustür zahlen, also beim Postboten? Oder nur mit Karte?")],
      P["payment"]),
    c("en", [v("Do you guys send stuff over to Canada? And am I going to get stung with duties when the box shows up?")],
      P["international"]),
    c("de", [v("Meine Nichte hat bald Geburtstag und ich hab null Ahnung was sie mag. Kann ich bei euch einfach einen Betrag zum Verschenken kaufen, so 50 €, und wie lange kann sie den dann einlösen?")],
      P["giftcards"]),
    c("en", [v("How does something as big as a sideboard actually get to me? Normal postman or some van, and will the guys bring it up to my third floor flat?")],
      P["furniture_delivery"]),
    c("de", [v("Krieg ich eigentlich was billiger wenn ich mich für eure Infomails eintrage?")],
      P["newsletter"]),
    c("en", [v("whats the latest I can order so it's actually under the tree on the 24th? I'm in Cologne")],
      P["holiday"]),
    c("de", [v("Mein Sommerkleid is nach dem Trockner eingelaufen 😩 wie heiß darf ich das Zeug überhaupt waschen und muss das gebügelt werden?")],
      P["care_linen"]),
    c("en", [v("I'd rather not have it sent to my flat, nobody's ever home. Can I order on the website and just grab it from one of your shops?")],
      P["collect"]),
    c("de", [v("Uff, Wasserränder und n kleiner Kratzer auf unserem Esstisch. Wie krieg ich das wieder hin? Der is geölt, nicht lackiert.")],
      P["care_wood"]),
    c("en", [v("tracking says it was dropped off yesterday afternoon but there is literally nothing here and the neighbours haven't got it either")],
      P["missing"]),
    c("de", [v("Was für ne Größe bin ich bei euch? Hüfte 97, Taille 72, Oberweite 88, bin ne Frau und 1,68 groß")],
      P["size_women"]),
    c("en", [v("the trousers look awful on me lol. how do I get my money back, and do I have to pay to post them back from Austria?")],
      P["returns"]),
    c("de", [v("Mein Mann hat 104 cm Brustumfang und so 92 cm um den Bauch, welche Hemdgröße soll ich für den bestellen?")],
      P["size_men"]),
    c("en", [v("Got the jumper in a medium but it's too snug. Can you just send me a large and I'll post the other one back at the same time?")],
      P["exchanges"]),
    c("de", [v("Kann ma euch irgendwie anrufen? Bis wie viel Uhr is da wer erreichbar, und auch am Samstag?")],
      P["contact"]),
    c("en", [v("bought some plates from you in the spring and one's already got a hairline crack through the glaze, wasn't dropped or anything. what do you need from me to sort it out?")],
      P["warranty"]),
    c("de", [v("Wo wird euer Gewand eigentlich genäht und wie öko is das alles wirklich, oder is das nur Marketing?")],
      P["sustainability"]),
    c("en", [v("Is there some way to get it now and settle up over a few months? I'd like to spread a 600 euro table rather than paying it all at once")],
      P["klarna"]),
    c("de", [v("Hab ein Loch am Ellbogen von meinem Pulli, den hab ich vor drei Jahren bei euch gekauft. Flickt ihr sowas noch?")],
      P["repair"]),
    c("en", [v("why won't my 15% off thing go through on stuff that's already marked down?? and can I stack two of them")],
      P["discounts"]),
    c("de", [v("Habt's ihr in Wien an Laden wo ma vorbeischaun kann? Wann hat der offen?")],
      P["stores"]),
    c("en", [v("My merino top has gone all fuzzy with little balls after a few wears, did I wash it wrong? And how should I be drying it?")],
      P["care_wool"]),
    c("de", [v("Ich komm nimmer rein bei euch, Passwort vergessen. Wie krieg ich ein neues?")],
      P["account"]),
    c("en", [v("I've got a UK double duvet at home — which of your covers will actually fit it? All your measurements are in cm and I'm confused")],
      P["bedding_sizes"]),
    c("de", [v("Mist, hab grad beim Kaufen die alte Adresse drin gelassen. Kann man da noch was dran drehen bevor's rausgeht?")],
      P["change_cancel"]),
    c("en", [v("What do you actually do with my address and email after I've ordered? And can I get you to wipe all of it?")],
      P["privacy"]),
    c("de", [v("Ab wann is der Kauf bei euch eigentlich fix, also rechtlich? Und wie lang darf ich's mir noch anders überlegen?")],
      P["terms"]),
    c("en", [v("Sending something straight to my mum for her 70th — can you make it look nice with a note and leave the prices off the paperwork?")],
      P["gift_wrapping"]),
    c("de", [v("Wer steckt eigentlich hinter dem Shop? Brauch den Firmennamen und die Handelsregisternummer für meine Unterlagen.")],
      P["impressum"]),
    c("en", [v("looking for something with a collar and buttons for a bloke, for summer, that doesn't stick to me when it's 35 degrees out. ideally in a pale azure tone, my wife says it suits me. anything?")],
      ["LS-410-SB"]),
    c("de", [v("Der Stuhl passt jetzt doch nicht zu unserer Küche. Wie bekomm ich so ein Teil wieder zu euch, das passt ja in kein Paket?")],
      P["furniture_returns"]),
    c("en", [v("Need something waterproof and really bright so drivers actually see me on the bike in the morning. Unisex is fine.")],
      ["RJ-150-YE"]),
    c("de", [v("Hab im Winter immer Eisfüße daheim. Habt ihr was Warmes zum Reinschlüpfen, Größe 42, am liebsten in so nem knalligen Feuerwehr-Ton?")],
      ["HS-090-RT"]),
    c("en", [v("want something to make the living room smell woody and cosy, like a cabin. not fruity or sweet please")],
      ["SC-720-CE"]),
    c("de", [v("Suche was zum Drunterschlafen das Sommer wie Winter passt, bin Hausstauballergiker. Unser Bett braucht die 155er Breite.")],
      ["BD-540-155"]),
    c("en", [v("Need a big everyday carry-all for uni that swallows my 14 inch laptop, something dark, cotton fabric rather than all leather")],
      ["TB-080-BK"]),
    c("de", [v("Gibt's bei euch so dünne Trinkgläser die man ineinander stapeln kann, aber nicht durchsichtig sondern so dunkel getönt?")],
      ["GL-650-RG"]),
]

# ---------------------------------------------------------------------------
# subject_change: a few turns on one product, then the visitor switches topic
# ---------------------------------------------------------------------------
SUBJECT_CHANGE = [
    c("en", [
        v("Is the white Hamilton oxford still around in a large?"),
        a("Yes, the Oxford shirt Hamilton in white is available in L, but there is only 1 left. It's EUR 49.00, 100% GOTS organic cotton, regular fit."),
        v("ok grabbing it now before it's gone"),
        a("Good plan! It should show up in your basket in size L."),
        v("Oh, something else — I moved last week. Where do I change the address that's saved in my profile so the next orders go to the new place?"),
    ], P["account"]),
    c("de", [
        v("Die Leinenhose Marie in sand, habt ihr die noch in M?"),
        a("Ja, die Leinenhose Marie in Sand gibt es in M noch, allerdings nur noch 2 Stück. Sie kostet 79,00 EUR, ist aus 100 % europäischem Leinen und hat einen elastischen Bund mit Tunnelzug."),
        v("Super, dann nehm ich die."),
        a("Gern! Sie liegt in M im Warenkorb, sobald Sie auf 'In den Warenkorb' klicken."),
        v("Ach, noch was ganz anderes: Kann man bei euch die Summe auch auf mehrere Monate verteilen? Ich überleg nämlich auch den großen Esstisch."),
    ], P["klarna"]),
    c("en", [
        v("the green Lina wrap dress — what sizes have you still got?"),
        a("The Wrap dress Lina in emerald is in stock in M and L; XS and S have only 3 left each, and XL is sold out for about 3 weeks."),
        v("Great, S it is then. Totally unrelated — do you do plates that can go in the microwave? the speckled sandy looking ones I saw on insta"),
    ], ["CP-640-SP"]),
    c("de", [
        v("Hallo, gibt's den Kaschmirpulli Ella in rosé in S?"),
        a("Hallo! Den Kaschmirpullover Ella in Rosé gibt es in S noch, aber nur noch 2 Stück. Er kostet 169,00 EUR und ist aus 100 % Kaschmir."),
        v("Okay, überleg ich mir noch."),
        a("Gern. In M, L und XL ist er gut vorrätig, falls Sie doch eine andere Größe möchten."),
        v("Was anderes: ihr habt doch so Filzpatschen, gibt's die in Rot in 41?"),
    ], ["HS-090-RT"]),
    c("en", [
        v("The grey percale duvet cover, do you have it in 200 x 200?"),
        a("I'm sorry, the Percale duvet cover set Crisp in light grey is sold out in 200 x 200 cm; it should be back in about 3 weeks. The white one is in stock in that size for EUR 129."),
        v("hmm I really wanted grey. never mind. do you have an actual shop in Munich where I could feel the fabrics?"),
    ], P["stores"]),
    c("de", [
        v("Die Strickjacke Frida in creme, fällt die eher groß aus?"),
        a("Die Strickjacke Frida ist ein locker geschnittener Grobstrick-Cardigan. Bei Strick empfehlen wir zwischen zwei Größen eher die kleinere, da er etwas nachgibt. In Creme ist M gerade ausverkauft (ca. 3 Wochen), XS, S, L und XL sind vorrätig."),
        v("Dann probier ich S."),
        a("Gute Wahl, S ist vorrätig."),
        v("Und wie lang braucht das Paket eigentlich zu mir nach Linz?"),
    ], P["shipping"]),
    c("en", [
        v("hey is the olive Porto linen shirt available in small?"),
        a("The Linen shirt Porto in olive is available in S, but there's only 1 left. M has 3 left, L to XXL are in stock."),
        v("Perfect, ordered. btw I sent back a parcel last Monday — how long till the money shows up in my PayPal?"),
    ], P["returns"]),
    c("de", [
        v("Ich such die Jeans Anton in dunkelblau, Bundweite 32, Länge 34."),
        a("Die Jeans Straight Fit Anton in Dunkelblau ist in W32 vorrätig, und es gibt sie in den Längen L32 und L34. Preis 99,00 EUR."),
        v("Top."),
        a("Möchten Sie noch etwas dazu, zum Beispiel ein T-Shirt?"),
        v("Nee danke. Aber Themenwechsel: ich hab vor drei Wochen was zurückgeschickt und immer noch kein Geld gesehen. Is das normal?"),
    ], P["returns"]),
    c("en", [
        v("Is the burgundy merino jumper warm enough for autumn or is it super thin?"),
        a("The Merino jumper Fell is a fine knit in extra-fine merino, warm without bulk and easy to layer — great for autumn. In burgundy all sizes are in stock; XL has only 2 left."),
        v("Nice. Also, a friend of mine lives in Zurich, could you ship stuff to her in Switzerland?"),
    ], P["international"]),
    c("de", [
        v("Die Satin-Bettwäsche in anthrazit, gibt's die in 155 x 220?"),
        a("Leider ist die Satin-Bettwäsche Nacht in Anthrazit in 155 x 220 cm gerade ausverkauft, sie kommt in ca. 3 Wochen wieder. In Weiß ist die Größe vorrätig, für 99 EUR."),
        v("Hm. Mal ganz blöd gefragt, ich weiß gar nicht ob ich 155 oder 135 brauch – woran erkenn ich das überhaupt bei meiner Decke?"),
    ], P["bedding_sizes"]),
    c("en", [
        v("Do the Dune chinos in navy come in a 30 waist?"),
        a("Yes — the Chinos Dune in navy come in W30, but there are only 2 left. W32 to W36 are in stock."),
        v("cool, and the inseam?"),
        a("The inside leg is 32 inches (81 cm) on all sizes."),
        v("Fine. Different question — if I order by lunchtime, does it go out the same day?"),
    ], P["shipping"]),
    c("de", [
        v("Den Wollmantel Greta in camel, gibt's den in L?"),
        a("In Camel ist der Wollmantel Greta in L leider ausverkauft, er kommt in ca. 3 Wochen wieder. XS, M und XL sind vorrätig, S nur noch 3 Stück."),
        v("Dann nehm ich M, der darf ruhig weiter sein. Kann ich mir den eigentlich auch in München im Laden hinlegen lassen und dort mitnehmen?"),
    ], P["collect"]),
    c("en", [
        v("Would the natural Harbour tote fit a laptop?"),
        a("Yes, the Canvas tote bag Harbour fits a laptop up to 14 inches. It measures 42 x 38 x 12 cm, has an inner zip pocket and leather handles. EUR 29.00."),
        v("perfect. oh, I'd like a candle with it too — which one of yours smells more like a forest?"),
    ], ["SC-720-CE"]),
    c("de", [
        v("Kurze Frage zum Esstisch Eik 200 x 100, wie dick is die Platte?"),
        a("Die Tischplatte des Esstischs Eik ist 4 cm stark, der Tisch ist 75 cm hoch und aus massiver, natur geölter FSC-Eiche. In 200 x 100 cm kostet er 1.590,00 EUR."),
        v("Okay danke. Ganz andere Sache: ich bräuchte noch Kissenbezüge fürs Sofa in so nem Senfgelb, habt ihr da was?"),
    ], ["KH-610-SE"]),
    c("en", [
        v("The ochre wool throw — is it itchy?"),
        a("The Wool throw Hygge is made of brushed lambswool, which is softer than regular wool, though very sensitive skin may still feel it. It measures 130 x 180 cm, EUR 99.00, and is in stock."),
        v("ok sounds nice"),
        a("It's a lovely piece for the sofa. Shall I help with anything else?"),
        v("Yeah — can I pay with Apple Pay on your site?"),
    ], P["payment"]),
    c("de", [
        v("Das Basic-Shirt in weiß, habt ihr das in XXL?"),
        a("Ja, das T-Shirt Basic in Weiß gibt es in XXL, allerdings nur noch 3 Stück. 25,00 EUR, 100 % Bio-Baumwolle mit 180 g/m²."),
        v("Gut. Was anderes, sagt mal, was macht ihr eigentlich mit meinen Daten, gebt ihr die an irgendwen weiter?"),
    ], P["privacy"]),
    c("en", [
        v("Is the navy Skagen rain jacket available in small?"),
        a("Sorry, the Rain jacket Skagen in navy is sold out in XS and S at the moment, back in about 3 weeks. M, L and XL are in stock. The yellow one is in stock in XS and M."),
        v("Hmm I'll wait then. By the way, do I get anything off if I join your mailing list?"),
    ], P["newsletter"]),
    c("de", [
        v("Die Waffelhandtücher in salbei – sind die schön flauschig?"),
        a("Das Waffelpiqué-Handtuch ist eher leicht und trocknet schnell, also nicht flauschig wie Frottee. In Salbei gibt es das Handtuch 50 x 100 cm (nur noch 2 Stück, 19 EUR) und das Duschtuch 70 x 140 cm (vorrätig, 35 EUR)."),
        v("Ah okay, eher nicht mein Ding."),
        a("Verstehe. Wenn Sie es flauschiger mögen, schauen Sie gern bei unseren Frotteehandtüchern vorbei."),
        v("Mach ich. Übrigens, an meiner Bluse von euch ist ein Knopf ab, könnt ihr den wieder annähen?"),
    ], P["repair"]),
    c("en", [
        v("how big is the Kiln mug?"),
        a("The Stoneware mug Kiln holds 350 ml and has a generous handle. It's EUR 16.00 each, sold individually; white is in stock, speckled sand has only 4 left."),
        v("ok. unrelated, but is there a number I can ring about an older order? email feels slow"),
    ], P["contact"]),
    c("de", [
        v("Das Daunenkissen Wolke, ist das sehr hoch oder eher flach?"),
        a("Das Daunenkopfkissen Wolke ist weich und bauschig, gefüllt mit 90 % Daunen und 10 % Federn. In 80 x 80 cm kostet es 69,00 EUR und ist vorrätig."),
        v("Klingt gut."),
        a("Soll ich Ihnen noch die Größe 40 x 80 cm zeigen?"),
        v("Nein passt. Anderes Thema: das schwarze Sideboard, kann man das irgendwo in echt anschauen bevor man so viel Geld ausgibt?"),
    ], P["stores"]),
    c("en", [
        v("Is the black oak side table delivered in one piece?"),
        a("Yes, the Oak side table Rune comes fully assembled by parcel. It's round, 45 cm across and 50 cm high; in black-stained oak there are only 4 left, EUR 249.00."),
        v("lovely. btw that cognac belt I looked at last month — is the 100 cm back in yet?"),
    ], ["BL-060-BR"]),
    c("de", [
        v("Gibt's die Alpin-Socken in natur in 39-42?"),
        a("Ja, die Wollsocken 3er-Pack Alpin in Natur sind in 39-42 vorrätig. Drei Paar für 29,00 EUR, mit verstärkter Ferse und Spitze."),
        v("Prima. Noch ne Frage zu was anderem: wie behandelt man Kaschmir richtig? Hab nen Pulli geschenkt bekommen und Angst den zu ruinieren."),
    ], P["care_wool"]),
    c("en", [
        v("does the sage linen duvet set have buttons or a zip?"),
        a("The Linen duvet cover set Nora closes with coconut buttons. In sage all three sizes are in stock: 135 x 200 (EUR 139), 155 x 220 (EUR 159) and 200 x 200 with two pillowcases (EUR 199)."),
        v("ok I'll have the big one"),
        a("Great choice, the 200 x 200 cm set comes with two 80 x 80 cm pillowcases."),
        v("Is there a way to only pay once it's arrived and I've had a look?"),
    ], P["klarna"]),
    c("de", [
        v("Die Strickdecke Zopf in grau, wie groß ist die?"),
        a("Die Strickdecke Zopf misst 130 x 170 cm, ist aus 100 % Bio-Baumwolle und kostet 79,00 EUR. In Grau sind nur noch 2 Stück da."),
        v("Passt. Und was anderes: ich hab nen Code von meiner Freundin, gilt der auch für Sachen die schon reduziert sind?"),
    ], P["discounts"]),
    c("en", [
        v("I want to give the camel cashmere scarf to my mum. How long is it?"),
        a("The Cashmere scarf Aura is 180 x 30 cm with fringed ends, 100% cashmere woven in Scotland, EUR 119.00, in stock."),
        v("Lovely. Actually, I might also get her a voucher on top that I can email tonight — how does that work?"),
    ], P["giftcards"]),
    c("de", [
        v("Die Leinenbluse Ida in hellblau, gibt's die in L?"),
        a("Ja, die Leinenbluse Ida in Hellblau ist in L vorrätig. Sie hat einen Stehkragen und Perlmuttknöpfe, 69,00 EUR."),
        v("Schön. Meine Schwester wohnt in Oslo, schickt ihr auch nach Norwegen?"),
    ], P["international"]),
    c("en", [
        v("Is the forest green Loop sweatshirt boxy?"),
        a("Yes, the Sweatshirt Loop has a slightly boxy fit in heavyweight organic cotton loopback. In forest green L is sold out for about 3 weeks and XL has only 1 left; XS to M are in stock."),
        v("argh I just ordered the wrong size 10 min ago. can I still cancel it myself?"),
    ], P["change_cancel"]),
    c("de", [
        v("Wir brauchen 4 Stühle Bo in schwarz, sind die stapelbar?"),
        a("Ja, der Stuhl Bo ist stapelbar, aus massiver Buche mit geschwungener Rückenlehne, Sitzhöhe 46 cm. In Schwarz ist er vorrätig, 189,00 EUR pro Stück."),
        v("Sehr gut."),
        a("Die Stühle kommen per Spedition zu Ihnen."),
        v("Ah, und noch was: auf meinem Geschenkcode von Weihnachten, wie seh ich wie viel da noch drauf ist?"),
    ], P["giftcards"]),
    c("en", [
        v("Are the sage Calm towels thick?"),
        a("Yes, the Organic cotton towel Calm is a thick 600 g/m² terry. In sage the hand and bath towel are sold out for about 3 weeks; the bath sheet 100 x 150 cm is in stock for EUR 45."),
        v("ok I'll come back. where can I see if my other order has actually left your warehouse yet?"),
    ], P["tracking"]),
    c("de", [
        v("Sind die Wassergläser Klar spülmaschinenfest?"),
        a("Ja, das Wasserglas-Set Klar ist spülmaschinengeeignet. 6 Gläser à 300 ml, mundgeblasen und stapelbar, 36,00 EUR."),
        v("Gut zu wissen."),
        a("Gern! Kann ich sonst noch helfen?"),
        v("Ja, leider ne Reklamation: der Reißverschluss an meiner Kissenhülle von euch ist nach zwei Wochen schon kaputt. Was mach ich da?"),
    ], P["warranty"]),
    c("en", [
        v("The terracotta Sola dress — does it have pockets?"),
        a("It does: the Linen dress Sola has side pockets, a square neckline and an A-line cut in mid-weight linen. In terracotta all sizes are in stock except L, which has 2 left."),
        v("Sold. One more thing, want to get my husband something too — do you have the measurements for blokes somewhere?"),
    ], P["size_men"]),
    c("de", [
        v("Wie tief ist das Sideboard Linn in natur? Unser Flur ist recht schmal."),
        a("Das Sideboard Linn ist 45 cm tief, 180 cm breit und 75 cm hoch. Weil es Schiebetüren hat, brauchen Sie davor keinen Platz zum Aufschwenken."),
        v("Ah okay."),
        a("In Eiche natur ist es vorrätig, 1.190,00 EUR, Lieferung per Spedition."),
        v("Und sonst: kann ich Retouren einfach an eure Adresse in Berlin schicken, die steht ja überall?"),
    ], P["contact"]),
    c("en", [
        v("Can the white Kiln plates go in the dishwasher?"),
        a("Yes, the Stoneware dinner plate set Kiln is dishwasher and microwave safe. It's a set of 4 plates, 27 cm across, EUR 59.00."),
        v("Nice. Also, if I order express on the 22nd of December would it still come before Christmas?"),
    ], P["holiday"]),
    c("de", [
        v("Die Tischdecke Tafel in natur in 140 x 250, ist die lieferbar?"),
        a("Ja, die Leinentischdecke Tafel in Natur ist in 140 x 250 cm vorrätig, 89 EUR."),
        v("Perfekt. Was anderes: wo find ich denn bei euch meine alten Rechnungen? Brauch die für die Steuer."),
    ], P["account"]),
    c("en", [
        v("Is the light blue oxford shirt slim?"),
        a("The Oxford shirt Hamilton has a regular fit with a button-down collar. In light blue M has only 1 left and XL is sold out for about 3 weeks."),
        v("hm ok"),
        a("If you prefer a looser look, you can go one size up."),
        v("Off topic, but do you actually publish where all your stuff is made? like a list of factories"),
    ], P["sustainability"]),
    c("de", [
        v("Die Ganzjahresdecke Traum in 135 x 200, ist die warm genug für den Winter?"),
        a("Die Ganzjahresbettdecke Traum ist atmungsaktiv und fürs ganze Jahr gedacht, gefüllt mit 100 % Lyocell (TENCEL), auch für Allergiker geeignet. In 135 x 200 cm kostet sie 119,00 EUR und ist vorrätig."),
        v("Okay. Kurz was anderes: wenn ich das bis Samstag haben will, bis wann muss ich da bestellen und was kostet das?"),
    ], P["express"]),
    c("en", [
        v("the blue Tide vase, how tall is it?"),
        a("The Ceramic vase Tide is 25 cm high with an 8 cm opening, hand-thrown in Porto. The blue glaze one is in stock, EUR 45.00."),
        v("ok nice. completely separate thing, I need a tablecloth for a 6 seater table, linen, ideally with blue stripes"),
    ], ["TD-600-BS"]),
    c("de", [
        v("Hat der Kaschmirpullover Ella in grau einen längeren Rücken?"),
        a("Ja, der Kaschmirpullover Ella hat einen Rundhals und einen leicht verlängerten Rücken. In Grau ist M nur noch 2-mal da, die anderen Größen sind vorrätig."),
        v("Schön."),
        a("Darf es noch etwas sein?"),
        v("Ja, ich such noch was für meinen Freund, so nen Kaschmirschal, eher dunkel, nicht beige."),
    ], ["CS-077-CH"]),
    c("en", [
        v("how long does the fig candle burn for?"),
        a("The Scented candle Ember burns for about 45 hours: 200 g soy wax in a reusable amber glass. Fig has only 3 left, EUR 32.00."),
        v("great, I'll take one. Can you post it straight to my friend wrapped up with a little message from me?"),
    ], P["gift_wrapping"]),
    c("de", [
        v("Ist die schwarze Anton-Jeans in W30 da?"),
        a("Leider nein, die Jeans Straight Fit Anton in Schwarz ist in W30 ausverkauft und kommt in ca. 3 Wochen wieder. W32 bis W36 sind vorrätig."),
        v("Schade. Ganz was anderes: wer is bei euch eigentlich Geschäftsführer? Brauch ich für ein Schreiben."),
    ], P["impressum"]),
]

# ---------------------------------------------------------------------------
# followup: the last visitor turn is short and leans on the earlier subject
# ---------------------------------------------------------------------------
FOLLOWUP = [
    c("en", [
        v("how much is the white Porto linen shirt?"),
        a("The Linen shirt Porto in white is EUR 59.00. It's 100% garment-washed European linen with a button-down collar; S is sold out for about 3 weeks, M to XXL are in stock."),
        v("and the sandy coloured one?"),
    ], ["LS-410-SA"]),
    c("de", [
        v("Habt ihr die Leinenhose Marie in schwarz in M?"),
        a("Ja, die Leinenhose Marie in Schwarz gibt es in M, allerdings nur noch 3 Stück. 79,00 EUR, knöchellang, mit elastischem Bund."),
        v("und in oliv?"),
    ], ["LH-310-OG"]),
    c("en", [
        v("If I pick the fast option at checkout, when does it come?"),
        a("With Express, orders placed by 12 noon Monday to Friday are delivered by DHL Express on the next working day within Germany, for EUR 12.90."),
        v("and to Vienna?"),
    ], P["express"]),
    c("de", [
        v("Was kostet bei euch der Versand innerhalb Deutschlands?"),
        a("Der Standardversand innerhalb Deutschlands kostet 4,95 EUR, die Lieferung dauert in der Regel 1-3 Werktage."),
        v("Ok."),
        a("Bestellungen bis 14 Uhr verlassen unser Lager noch am selben Werktag."),
        v("und ab wann is gratis?"),
    ], P["shipping"]),
    c("en", [
        v("how do I send stuff back to you?"),
        a("You have 30 days from delivery. Items should be unworn and unwashed with their tags. From Germany and Austria it's free: use the prepaid DHL label in your parcel or create one under 'My orders'."),
        v("what if I live in France though?"),
    ], P["returns"]),
    c("de", [
        v("Der Kaschmirpulli Ella in camel, gibt's den in M?"),
        a("In Camel ist der Kaschmirpullover Ella in M leider gerade ausverkauft. XS, S, L und XL sind vorrätig."),
        v("Mist."),
        a("Die anderen Farben Grau und Rosé gibt es in M."),
        v("wann kommt der camel wieder?"),
    ], ["KP-120-CA"]),
    c("en", [
        v("Do you have the Lina wrap dress in black in a small?"),
        a("Yes, the Wrap dress Lina in black is in stock in S. It's a midi wrap dress with long sleeves and a tie waist, EUR 79.00."),
        v("does it come in green too?"),
    ], ["WD-260-EM"]),
    c("de", [
        v("Ich hätte die Strickjacke Frida gern eine Nummer größer, kann ich die einfach umtauschen?"),
        a("Einen direkten Umtausch per Post bieten wir nicht an. Schicken Sie die Jacke bitte kostenlos zurück und bestellen Sie die gewünschte Größe gleich neu."),
        v("geht das auch im Laden?"),
    ], P["exchanges"]),
    c("en", [
        v("How do tables and big stuff get delivered?"),
        a("Tables, chairs and sideboards come with our freight partner rather than the parcel service. The carrier contacts you a few days ahead to agree a 4-hour window. Kerbside delivery in Germany is EUR 49."),
        v("do they put it together for me?"),
        a("Assembly isn't included, but our tables come with simple instructions and tools."),
        v("and how much to Austria?"),
    ], P["furniture_delivery"]),
    c("de", [
        v("Wie dick ist die Platte beim Esstisch Eik 160?"),
        a("Die Tischplatte ist 4 cm stark, der Tisch ist 75 cm hoch. In 160 x 90 cm kostet er 1.290,00 EUR und ist vorrätig."),
        v("und aus was für Holz genau?"),
    ], ["ET-910-160"]),
    c("en", [
        v("thinking about the navy Fell merino jumper, is it itchy at all?"),
        a("It's extra-fine merino, so it's very soft and most people wear it directly on the skin. Navy is in stock in all sizes XS to XL, EUR 89.00."),
        v("can it go in the machine?"),
    ], ["MJ-118-NV"]),
    c("de", [
        v("An meiner Bluse von euch ist nach 4 Monaten eine Naht aufgegangen."),
        a("Das tut mir leid! Schicken Sie uns bitte eine kurze Beschreibung und Fotos mit Ihrer Bestellnummer an service@shop.example. Wir reparieren, ersetzen oder erstatten den Artikel."),
        v("und wer zahlt das Porto?"),
    ], P["warranty"]),
    c("en", [
        v("Can I order online and pick it up at your Berlin store?"),
        a("Yes! Choose 'Collect in store' at checkout. It's free; items in stock in the store are ready within 2 hours, otherwise in 2-3 working days. We'll e-mail you when it's ready."),
        v("how long will you hold it?"),
    ], P["collect"]),
    c("de", [
        v("Kann man das Daunenkissen Wolke in 40 x 80 auch waschen?"),
        a("Ja, das Daunenkopfkissen Wolke ist bei 60 °C waschbar, am besten in einer großen Maschine und danach mit Tennisbällen im Trockner trocknen."),
        v("Super."),
        a("Es kostet in 40 x 80 cm 49,00 EUR und ist vorrätig."),
        v("und wie viel Daune is da drin?"),
    ], ["KK-520-4080"]),
    c("en", [
        v("is the yellow Skagen jacket still available in medium?"),
        a("Yes, the Rain jacket Skagen in yellow is in stock in M. EUR 129.00, fully waterproof with taped seams."),
        v("and a large?"),
    ], ["RJ-150-YE"]),
    c("de", [
        v("Ich möcht in Wien im Laden abholen, wie funktioniert das?"),
        a("Wählen Sie im Checkout 'Im Geschäft abholen' und das Geschäft in Wien. Vorrätige Artikel liegen innerhalb von 2 Stunden bereit, sonst in 2-3 Werktagen; Sie bekommen eine E-Mail."),
        v("muss ich da was mitbringen?"),
    ], P["collect"]),
    c("en", [
        v("Can I pay for the dining table in instalments?"),
        a("Yes, for orders from EUR 200 Klarna lets you split the amount into 3 monthly payments or finance it over 6 to 24 months at the rate shown at checkout."),
        v("are the 3 payments free?"),
    ], P["klarna"]),
    c("de", [
        v("Die Satin-Bettwäsche Nacht in weiß, gibt's die in 155 x 220?"),
        a("Ja, in Weiß ist die Satin-Bettwäsche Nacht in 155 x 220 cm vorrätig, 99 EUR, mit einem Kissenbezug 80 x 80 cm und Reißverschluss."),
        v("und die dunkle in der Größe?"),
    ], ["BW-530-AN"]),
    c("en", [
        v("do you have the Crisp percale cover in white for a 200 x 200 duvet?"),
        a("Yes, the Percale duvet cover set Crisp in white is in stock in 200 x 200 cm for EUR 129."),
        v("ok"),
        a("It has a hidden zip and is made from 100% organic cotton percale."),
        v("what about the grey one in that size?"),
    ], ["PC-510-GR"]),
    c("de", [
        v("Welche Zahlungsarten habt ihr?"),
        a("Sie können mit Visa, Mastercard, American Express, PayPal, Apple Pay, Google Pay, Klarna und per Vorkasse bezahlen. Die Karte wird erst beim Versand belastet."),
        v("und bei Überweisung, wie lang legt ihr mir das zurück?"),
    ], P["payment"]),
    c("en", [
        v("my friend's birthday is soon, do you sell gift cards?"),
        a("We do! You can choose any value from EUR 20 to EUR 500. The digital one arrives by e-mail within minutes, and in our stores you can buy it as a card in a gift box."),
        v("how long's it good for?"),
    ], P["giftcards"]),
    c("de", [
        v("Die Filzhausschuhe Stube in grau, habt ihr die in 37?"),
        a("In Grau ist Größe 37 leider ausverkauft, sie kommt in ca. 3 Wochen wieder. 36 und 38 bis 46 sind da, 44 nur noch 2 Stück."),
        v("Ich hab eigentlich 37,5."),
        a("Dann würde ich zur 38 raten."),
        v("fallen die normal aus?"),
    ], ["HS-090-GR"]),
    c("en", [
        v("what's the waist on the olive Dune chinos in a 32?"),
        a("W32 on the Chinos Dune is 81 cm. Olive is in stock in every size from W30 to W36, EUR 69.00."),
        v("and the leg length?"),
    ], ["CH-210-OL"]),
    c("de", [
        v("Wie wasch ich Wollsachen am besten?"),
        a("Wolle muss selten gewaschen werden, oft reicht Auslüften über Nacht. Wenn doch: Wollprogramm bei 30 Grad oder Handwäsche kalt mit Wollwaschmittel, nicht auswringen, liegend trocknen."),
        v("ok danke"),
        a("Gern! Bitte auch nicht auf der Heizung trocknen."),
        v("und gegen Motten?"),
    ], P["care_wool"]),
    c("en", [
        v("The button came off my Hamilton oxford shirt, bought it in March. Can you fix it?"),
        a("Sure, our repair service sews buttons back on for free in the first year. Send it in with the repair form from your account or drop it at one of our stores; it takes about 2 weeks."),
        v("and if it's older than that?"),
    ], P["repair"]),
    c("de", [
        v("Sind die Wassergläser in rauchgrau sehr dünn?"),
        a("Ja, das Wasserglas-Set Klar in Rauchgrau ist dünnwandig und mundgeblasen, 6 Gläser à 300 ml, stapelbar, 36,00 EUR."),
        v("Spülmaschine ok?"),
    ], ["GL-650-RG"]),
    c("en", [
        v("does the natural oak Rune side table come flat-packed?"),
        a("No, the Oak side table Rune is delivered fully assembled by parcel. It's 45 cm in diameter and 50 cm high."),
        v("is the wood certified or whatever?"),
    ], ["OT-900-NA"]),
    c("de", [
        v("Kann ich ein Sideboard zurückgeben, wenn es nicht passt?"),
        a("Ja, auch Möbel können Sie innerhalb von 30 Tagen zurückgeben. Melden Sie sich bitte zuerst beim Kundenservice, wir beauftragen dann die Abholung durch unsere Spedition."),
        v("was kostet mich das?"),
    ], P["furniture_returns"]),
    c("en", [
        v("When do I need to order for stuff to arrive before Christmas? I'm in Hamburg."),
        a("For delivery within Germany before Christmas, order standard shipping by 19 December, or express by 21 December at 12 noon."),
        v("and if it's going to my brother in Italy?"),
    ], P["holiday"]),
    c("de", [
        v("Die Strickdecke Zopf in creme, is die weich?"),
        a("Ja, die Strickdecke Zopf ist eine kuschelige Wohndecke mit Zopfmuster aus 100 % Bio-Baumwolle, 79,00 EUR. In Creme sind nur noch 2 Stück da."),
        v("wie groß?"),
    ], ["MT-335-CR"]),
    c("en", [
        v("how long does the cedarwood candle last?"),
        a("The Scented candle Ember in cedarwood burns for about 45 hours. It's 200 g of soy wax in a reusable amber glass, EUR 32.00, in stock."),
        v("nice"),
        a("Tip: trim the wick to 5 mm before lighting for an even burn."),
        v("how long can I leave it burning in one go?"),
    ], ["SC-720-CE"]),
    c("de", [
        v("Was ist schneller als normaler Versand bei euch?"),
        a("Der Expressversand: Bestellungen Montag bis Freitag bis 12 Uhr stellt DHL Express am nächsten Werktag innerhalb Deutschlands zu, für 12,90 EUR."),
        v("und samstags?"),
    ], P["express"]),
    c("en", [
        v("is the black Harbour tote bag any good for work?"),
        a("It's a roomy 42 x 38 x 12 cm tote in heavy organic cotton canvas with leather handles and an inner zip pocket. EUR 29.00, in stock."),
        v("will a 14 inch laptop fit?"),
    ], ["TB-080-BK"]),
    c("de", [
        v("Die Leinenbluse Ida in weiß, welche Größen habt ihr?"),
        a("Die Leinenbluse Ida in Weiß ist in XS und XL vorrätig. S, M und L sind gerade ausverkauft."),
        v("wann kommt M wieder?"),
    ], ["LB-315-WS"]),
    c("en", [
        v("my order was due on tuesday and still nothing, what should I do?"),
        a("Sorry about that! First check the tracking link in your dispatch e-mail. If it shows 'delivered', ask your neighbours and look for a DHL card in your letterbox."),
        v("did that, no card"),
        a("If it hasn't turned up within 2 working days, contact us with your order number and we'll open an investigation with DHL."),
        v("and if it's lost?"),
    ], P["missing"]),
    c("de", [
        v("Ich hab nen Rabattcode eingelöst, gilt der auf die ganze Bestellung?"),
        a("Ja, der Rabatt wird im Checkout auf die Bestellung angerechnet. Pro Bestellung gilt nur ein Code, und reduzierte Artikel sind normalerweise ausgenommen."),
        v("und wenn ich was davon zurückschick?"),
    ], P["discounts"]),
    c("en", [
        v("What sizes does the stone grey Calm towel come in?"),
        a("The Organic cotton towel Calm comes as a hand towel 50 x 100 cm (EUR 14), bath towel 70 x 140 cm (EUR 29) and bath sheet 100 x 150 cm (EUR 45)."),
        v("is the small one in stock?"),
    ], ["BT-700-GR"]),
    c("de", [
        v("Das Sideboard Linn in schwarz, is das lieferbar?"),
        a("Ja, das Sideboard Linn in Eiche schwarz gebeizt ist lieferbar, 1.190,00 EUR, 180 x 45 x 75 cm, Lieferung per Spedition."),
        v("wie viele habt ihr noch?"),
    ], ["SD-930-SW"]),
    c("en", [
        v("How should I clean my oak table from you?"),
        a("Wipe it with a damp, well wrung-out cloth and dry it afterwards. Avoid microfibre cloths and harsh cleaners, and re-oil the surface once or twice a year."),
        v("what about a light scratch?"),
    ], P["care_wood"]),
    c("de", [
        v("Wenn ich mich für euren Newsletter anmelde, was krieg ich da?"),
        a("Sie erhalten 10 % Rabatt auf Ihre erste Bestellung als Willkommenscode. Wir schreiben etwa zweimal im Monat über neue Kollektionen und Pflegetipps."),
        v("und wie komm ich da wieder raus?"),
    ], P["newsletter"]),
]

# ---------------------------------------------------------------------------
# after_condensation: older turns condensed into a core; the last turn leans on it
# ---------------------------------------------------------------------------
AFTER_CONDENSATION = [
    c("en", [
        v("ok so is it actually in stock in my size?"),
    ], ["LS-410-SA"], core(
        "Visitor wants a linen shirt to wear at a summer wedding and has settled on the sand colour.",
        [art("LS-410-SA", "Linen shirt Porto, sand")],
        ["size XXL", "should arrive before Saturday"])),
    c("de", [
        v("Und die schwarze, gibt's die in XL?"),
    ], ["LH-310-SW"], core(
        "Besucherin sucht eine weite Leinenhose für den Sommer; die Farbe Sand ist in XL ausverkauft.",
        [art("LH-310-SA", "Leinenhose Marie, sand")],
        ["Größe XL", "Farbe egal, nur nicht zu hell"])),
    c("en", [
        a("I can help with that return."),
        v("so what will it cost me to send it back from here?"),
    ], P["returns"], core(
        "Visitor wants to return a dress from an earlier order because it does not fit.",
        [order("200318", "order of 3 November"), art("WD-260-FL", "Wrap dress Lina, floral print")],
        ["visitor lives in the Netherlands", "dress unworn, tags still on"])),
    c("de", [
        v("Wo find ich den Link dafür nochmal?"),
    ], P["change_cancel"], core(
        "Besucher möchte eine Bestellung stornieren, die er vor etwa 20 Minuten aufgegeben hat.",
        [order("300214", "Bestellung von heute, 14:05 Uhr")],
        ["Bestellung vor ca. 20 Minuten aufgegeben", "komplette Stornierung gewünscht"])),
    c("en", [
        a("Both sets are available in 200 x 200 cm."),
        v("which of the two can go in the tumble dryer?"),
    ], ["PC-510-WH", "LB-500-WH"], core(
        "Visitor is choosing a white duvet cover set for a double bed and compares the percale and the linen set.",
        [art("PC-510-WH", "Percale duvet cover set Crisp, white"), art("LB-500-WH", "Linen duvet cover set Nora, white")],
        ["size 200 x 200 cm", "budget under EUR 200", "no ironing if possible"])),
    c("de", [
        a("Ich verstehe, das ist ärgerlich."),
        v("Nehmt ihr das überhaupt noch zurück, wenn's schon aufgebaut ist?"),
    ], P["furniture_returns"], core(
        "Besucherin will das Sideboard zurückgeben, weil es farblich nicht ins Wohnzimmer passt.",
        [order("300388", "Möbelbestellung vom 2. Oktober"), art("SD-930-NA", "Sideboard Linn, Eiche natur")],
        ["Lieferadresse in Österreich", "Sideboard bereits aufgebaut, unbeschädigt"])),
    c("en", [
        v("still nothing. what happens now?"),
    ], P["missing"], core(
        "Visitor's order has not arrived although tracking shows it as delivered.",
        [order("200771", "order placed 12 November")],
        ["tracking says delivered 3 days ago", "neighbours checked, no DHL card"])),
    c("de", [
        v("Sind bei denen eigentlich Füllungen dabei oder nur die Hüllen?"),
    ], ["KH-610-PE", "KH-610-RS"], core(
        "Besucher sucht Kissen fürs neue Sofa und schwankt zwischen Petrol und Altrosa.",
        [art("KH-610-PE", "Samt-Kissenhülle Velours, petrol"), art("KH-610-RS", "Samt-Kissenhülle Velours, altrosa")],
        ["insgesamt 4 Kissen", "Sofa ist hellgrau"])),
    c("en", [
        v("how will that one actually get to me?"),
    ], ["OT-900-BL"], core(
        "Visitor wants a small table next to the sofa and has picked the dark version.",
        [art("OT-900-BL", "Oak side table Rune, black-stained oak")],
        ["delivery to Graz, Austria", "no car to collect it"])),
    c("de", [
        a("Die Rosé-Variante wäre ein schönes Geschenk."),
        v("Wie viele sind davon noch da?"),
    ], ["KP-120-RO"], core(
        "Besucher sucht ein Geburtstagsgeschenk für seine Freundin, einen Kaschmirpullover.",
        [art("KP-120-RO", "Kaschmirpullover Ella, rosé")],
        ["Größe S", "Geburtstag in 5 Tagen"])),
    c("en", [
        v("how much extra was the wrapping again?"),
    ], P["gift_wrapping"], core(
        "Visitor is sending a scarf to her father as a present and wants it wrapped.",
        [art("CS-077-CH", "Cashmere scarf Aura, charcoal"), page("page-en-gift-wrapping", "Gift wrapping")],
        ["parcel goes directly to the father in Hamburg", "no prices on the delivery note"])),
    c("de", [
        v("An welche Mailadresse schick ich die Fotos?"),
    ], P["warranty"], core(
        "Besucherin meldet einen Mangel: Die Glasur an einer Tasse ist nach kurzer Zeit gesprungen.",
        [order("300502", "Bestellung vom 8. September"), art("ML-650-WH", "Stoneware mug Kiln, white")],
        ["Tasse nicht heruntergefallen", "Fotos vorhanden"])),
    c("en", [
        a("I'm sorry, the grey melange is sold out in L at the moment."),
        v("fine, what about the navy one in that size then?"),
    ], ["MJ-118-NV"], core(
        "Visitor wants a warm but thin merino jumper for the office.",
        [art("MJ-118-GR", "Merino jumper Fell, grey melange")],
        ["size L", "dark or neutral colour"])),
    c("de", [
        v("Was kostet die Lieferung da hin?"),
    ], P["furniture_delivery"], core(
        "Besucher richtet das Esszimmer ein: Esstisch und vier Stühle.",
        [art("ET-910-160", "Esstisch Eik, 160 x 90 cm"), art("ST-920-NA", "Stuhl Bo, natur")],
        ["Lieferung nach Graz", "Wohnung im 2. Stock, kein Aufzug"])),
    c("en", [
        v("am I even allowed to do that with my address?"),
    ], P["klarna"], core(
        "Visitor wants to buy four dining chairs and pay in instalments.",
        [art("ST-920-NA", "Stuhl Bo, natur")],
        ["4 chairs, about EUR 756 in total", "billing address in Rotterdam, Netherlands"])),
    c("de", [
        v("Gibt's die auch in L34?"),
    ], ["JN-200-HB"], core(
        "Besucher sucht eine helle Jeans mit gerader Beinform.",
        [art("JN-200-HB", "Jeans Straight Fit Anton, hellblau")],
        ["Bundweite W36", "Innenbeinlänge eher lang"])),
    c("en", [
        a("Your order hasn't been packed yet."),
        v("great, so can you still switch it to the navy before it goes out?"),
    ], P["change_cancel"], core(
        "Visitor ordered chinos in the wrong colour about two hours ago.",
        [order("200905", "order placed today, 09:40"), art("CH-210-BE", "Chinos Dune, beige")],
        ["wants navy instead of beige", "same size W32"])),
    c("de", [
        v("Kann sie den auch im Laden in Wien einlösen?"),
    ], P["giftcards"], core(
        "Besucherin möchte ihrer Schwester einen Geschenkgutschein schenken.",
        [page("page-de-gutscheine", "Geschenkgutscheine")],
        ["Wert 100 EUR", "soll heute Abend per E-Mail ankommen", "Schwester wohnt in Wien"])),
    c("en", [
        v("is the white vase ok in the dishwasher?"),
    ], ["VA-660-WH"], core(
        "Visitor is putting together a housewarming present.",
        [art("SC-720-FG", "Scented candle Ember, fig"), art("VA-660-WH", "Ceramic vase Tide, matte white")],
        ["budget about EUR 80", "recipient hates fussy cleaning"])),
    c("de", [
        a("Beides habe ich für Sie notiert."),
        v("Passt die weiße Bettwäsche dann auch auf die Decke?"),
    ], ["BW-530-WS", "BD-540-155"], core(
        "Besucher stellt sich ein neues Bett-Set zusammen: Decke und Bettwäsche.",
        [art("BD-540-155", "Ganzjahresbettdecke Traum, 155 x 220 cm"), art("BW-530-WS", "Satin-Bettwäsche Nacht, weiß")],
        ["Komfortgröße", "Allergiker im Haushalt"])),
    c("en", [
        v("so will I have to pay anything extra when it gets here?"),
    ], P["international"], core(
        "Visitor in the UK wants to order a couple of items.",
        [page("page-en-international", "Shipping outside the EU"), art("SW-190-EC", "Sweatshirt Loop, ecru")],
        ["delivery to Manchester", "order value about EUR 150"])),
    c("de", [
        v("Ab wann kann ich das als verloren melden?"),
    ], P["missing"], core(
        "Besucherin wartet auf ihr Paket, das seit Tagen unterwegs ist.",
        [order("300677", "Bestellung vom 20. November")],
        ["Tracking zeigt seit 3 Tagen keinen neuen Scan", "erwarteter Liefertermin gestern"])),
    c("en", [
        a("The carrier will call you to agree a time."),
        v("what's the charge to have it carried up instead of left outside?"),
    ], P["furniture_delivery"], core(
        "Visitor ordered the large dining table and asks about delivery.",
        [order("201140", "order of 1 December"), art("ET-910-200", "Esstisch Eik, 200 x 100 cm")],
        ["flat on the 4th floor", "delivery in Munich"])),
    c("de", [
        v("Und wann ist das wieder lieferbar?"),
    ], ["HT-620-RS"], core(
        "Besucherin möchte Waffelhandtücher in Rosé fürs Gästebad, vor allem das große Duschtuch.",
        [art("HT-620-RS", "Waffelpiqué-Handtuch Waffel, rosé")],
        ["2 Duschtücher 70 x 140 cm", "Farbe Rosé"])),
    c("en", [
        v("is the inside leg long enough for me?"),
    ], ["CH-210-NV"], core(
        "Visitor looks for smart trousers for work and likes the navy chinos.",
        [art("CH-210-NV", "Chinos Dune, navy")],
        ["waist 86 cm", "inside leg 86 cm"])),
    c("de", [
        a("Die sind sehr robust."),
        v("Darf ich die dann in den Trockner tun?"),
    ], ["SK-095-AN"], core(
        "Besucher braucht warme Socken für einen Wanderurlaub in den Alpen.",
        [art("SK-095-AN", "Wollsocken 3er-Pack Alpin, anthrazit")],
        ["Schuhgröße 43", "2 Packungen"])),
    c("en", [
        v("can I just bung it in the washing machine?"),
    ], ["WT-330-GR"], core(
        "Visitor spilled red wine on a throw bought from the shop and asks how to clean it.",
        [art("WT-330-GR", "Wool throw Hygge, grey")],
        ["stain is fresh", "no dry cleaner nearby"])),
    c("de", [
        v("Wie lang habt ihr die Sachen dann für mich zurückgelegt?"),
    ], P["payment"], core(
        "Besucherin möchte ohne Karte bezahlen und hat Vorkasse per Überweisung gewählt.",
        [order("300801", "Bestellung vom 28. November"), page("page-de-zahlung", "Zahlungsarten")],
        ["Zahlung per Überweisung", "Überweisung erst am Monatsende möglich"])),
    c("en", [
        a("In store exchanges work for online orders too."),
        v("could I just take it into the Hamburg one then instead of posting?"),
    ], P["exchanges"], core(
        "Visitor has a shirt in the wrong size and wants the next size up.",
        [order("201377", "online order of 19 November"), art("OX-220-PS", "Oxford shirt Hamilton, pink stripe")],
        ["bought online", "wants M instead of S", "lives near Hamburg"])),
    c("de", [
        v("Könnt ihr das bei Abholung auch hübsch als Geschenk einpacken?"),
    ], P["gift_wrapping"], core(
        "Besucher möchte eine Wolldecke als Geschenk bestellen und im Laden abholen.",
        [art("WT-330-OC", "Wool throw Hygge, ochre"), page("page-de-abholung", "Abholung im Geschäft (Click & Collect)")],
        ["Abholung im Geschäft in Hamburg", "Geschenk für die Mutter"])),
    c("en", [
        v("is the green one available as a proper bath towel?"),
    ], ["BT-700-SG"], core(
        "Visitor is restocking the bathroom with thick organic towels.",
        [art("BT-700-WH", "Organic cotton towel Calm, white"), art("BT-700-SG", "Organic cotton towel Calm, sage")],
        ["needs 2 bath towels 70 x 140 cm", "prefers a colour over white"])),
    c("de", [
        a("Die Größentabelle habe ich Ihnen oben verlinkt."),
        v("Ich lieg genau zwischen S und M, was nehm ich bei Strick?"),
    ], P["size_women"], core(
        "Besucherin möchte einen Cardigan bestellen und ist bei der Größe unsicher.",
        [art("SJ-140-DB", "Strickjacke Frida, dunkelblau"), page("page-de-groessen-damen", "Größentabelle Damen")],
        ["Brust 86 cm, Taille 70 cm", "mag es nicht zu weit"])),
    c("en", [
        v("it says minimum not reached, what exactly are the rules?"),
    ], P["discounts"], core(
        "Visitor's welcome code from the newsletter is not accepted at checkout.",
        [page("page-en-newsletter", "Newsletter"), art("ML-650-SP", "Stoneware mug Kiln, speckled sand")],
        ["first order", "basket value EUR 16", "code WELCOME10"])),
    c("de", [
        v("Dann nehm ich halt die natürliche Farbe, ist die in der Größe da?"),
    ], ["TD-600-NA"], core(
        "Besucherin sucht eine Tischdecke für einen langen Esstisch; Weiß ist in der großen Größe ausverkauft.",
        [art("TD-600-WS", "Leinentischdecke Tafel, weiß")],
        ["Größe 140 x 250 cm", "für Weihnachten"])),
    c("en", [
        a("I've noted the pillow from that order."),
        v("can I still send it back even though I took it out of the packaging?"),
    ], P["returns"], core(
        "Visitor finds a pillow too soft and wants to return it.",
        [order("201502", "order of 24 November"), art("KK-520-8080", "Daunenkopfkissen Wolke, 80 x 80 cm")],
        ["pillow unpacked and slept on once", "delivery was 10 days ago"])),
    c("de", [
        v("Muss ich das Porto für die Rücksendung selbst zahlen?"),
    ], P["international"], core(
        "Besucher aus der Schweiz hat bestellt und möchte einen Teil zurückschicken.",
        [order("300955", "Bestellung vom 15. November")],
        ["Lieferung nach Basel", "ein Artikel passt nicht"])),
    c("en", [
        v("how waterproof is it actually, like proper downpours?"),
    ], ["RJ-150-YE"], core(
        "Visitor wants a bright jacket for cycling to work in the rain.",
        [art("RJ-150-YE", "Rain jacket Skagen, yellow")],
        ["size M", "daily 40-minute commute"])),
    c("de", [
        v("Darf die in den Trockner?"),
    ], ["LB-315-WS"], core(
        "Besucherin hat eine Leinenbluse gekauft und fragt nach der Pflege.",
        [art("LB-315-WS", "Leinenbluse Ida, weiß")],
        ["will wenig bügeln", "trägt sie fast täglich"])),
    c("en", [
        a("Dispatch to Spain takes 3-6 working days normally."),
        v("so what's the last day I can order for it to make it before Christmas?"),
    ], P["holiday"], core(
        "Visitor is buying a Christmas present for a friend abroad.",
        [art("TB-080-NA", "Canvas tote bag Harbour, natural"), page("page-en-holiday-delivery", "Delivery times at Christmas and on public holidays")],
        ["recipient lives in Madrid", "standard shipping"])),
    c("de", [
        v("Was kostet mich das dann ungefähr und wie lang dauert's?"),
    ], P["repair"], core(
        "Besucher möchte eine Jeans reparieren lassen, die Naht im Schritt ist aufgegangen.",
        [art("JN-200-DB", "Jeans Straight Fit Anton, dunkelblau"), page("page-de-reparatur", "Reparaturservice")],
        ["vor 2 Jahren gekauft", "Naht am Schritt offen"])),
]

# ---------------------------------------------------------------------------
# multi_product: two or more products named; the last question needs one or
# several of them, or a service page
# ---------------------------------------------------------------------------
MULTI_PRODUCT = [
    c("en", [
        v("Trying to decide between the white Porto linen shirt and the white Hamilton oxford for the office."),
        a("The Porto is 100% garment-washed linen, relaxed and cool (EUR 59.00); the Hamilton is a sturdier organic cotton Oxford, regular fit (EUR 49.00). Both have a button-down collar."),
        v("which of the two can I chuck in the dryer?"),
    ], ["LS-410-WH", "OX-220-WH"]),
    c("de", [
        v("Ich find die Leinenhose Marie in olivgrün toll und dazu die Leinenbluse Ida in weiß."),
        a("Schöne Kombination! Die Hose kostet 79,00 EUR und ist in allen Größen vorrätig, die Bluse 69,00 EUR."),
        v("Ist die Bluse in M überhaupt da?"),
    ], ["LB-315-WS"]),
    c("en", [
        v("I like the navy Fell merino and the grey Loop sweatshirt, both for hiking weekends"),
        a("The merino jumper is fine-knit and warm without bulk (EUR 89.00); the sweatshirt is a heavyweight 340 g/m² organic cotton loopback with a slightly boxy fit (EUR 59.00)."),
        v("ok going with the sweatshirt — do you have it in an XS?"),
    ], ["SW-190-GM"]),
    c("de", [
        v("Der Kaschmirpulli Ella in grau und der Wollmantel Greta in grau, die würden super zusammenpassen oder?"),
        a("Ja, das Grau ist bei beiden ähnlich. Der Pullover ist aus 100 % Kaschmir (169,00 EUR), der Mantel aus 80 % Schurwolle und 20 % Polyamid (249,00 EUR)."),
        v("Super."),
        a("Möchten Sie noch die Größen prüfen?"),
        v("Erst mal: kann ich die beiden in die Waschmaschine stecken?"),
    ], ["KP-120-GR", "WM-160-GR"]),
    c("en", [
        v("Setting up a new kitchen — I want the speckled Kiln plates and four of the matching mugs."),
        a("Lovely choice. The plate set has 4 plates at 27 cm for EUR 59.00, and the mugs are EUR 16.00 each; in speckled sand there are only 4 mugs left."),
        v("are the mugs safe in the dishwasher as well?"),
    ], ["ML-650-SP"]),
    c("de", [
        v("Wir nehmen den Esstisch Eik in 200 und sechs Stühle Bo in schwarz."),
        a("Gern! Der Tisch kostet 1.590,00 EUR, die Stühle je 189,00 EUR; beides ist vorrätig und kommt per Spedition."),
        v("Kann ich mir die Stühle vorher irgendwo in München anschauen?"),
    ], P["stores"]),
    c("en", [
        v("For a beach holiday: Lina wrap dress in the floral and the white Sola linen dress."),
        a("Both would be lovely. The Lina is a midi wrap dress in ECOVERO viscose (EUR 79.00), the Sola a sleeveless A-line linen dress with pockets (EUR 95.00)."),
        v("I'm a 38 — which of them actually has my size in stock?"),
    ], ["WD-260-FL", "LD-270-WH"]),
    c("de", [
        v("Ich hab die Satin-Bettwäsche weiß, das Daunenkissen 80 x 80 und die Ganzjahresdecke 135 bestellt."),
        a("Danke! Alle drei Artikel sind vorrätig und kommen im Standardversand."),
        v("Das Kissen hab ich schon ausgepackt und es ist mir zu weich. Kann ich das noch zurückschicken?"),
    ], P["returns"]),
    c("en", [
        v("Gift for my brother: the charcoal Aura scarf plus the black Ridge belt."),
        a("Good pairing. The scarf is EUR 119.00 and the belt EUR 55.00; the black belt has limited stock in 90, 95 and 110 cm."),
        v("Can you wrap both nicely in one go?"),
    ], P["gift_wrapping"]),
    c("de", [
        v("Ich schwanke zwischen dem T-Shirt Basic in schwarz und der schwarzen Anton-Jeans, eigentlich will ich beides."),
        a("Beides zusammen ist ein Klassiker. Das Shirt kostet 25,00 EUR, die Jeans 99,00 EUR."),
        v("Das Shirt in L, wie viele habt ihr davon noch?"),
    ], ["TS-180-SW"]),
    c("en", [
        v("I'm looking at the natural Nora linen duvet set and the grey Crisp percale set, both in 155 x 220."),
        a("Both are in stock in 155 x 220 cm. The Nora is stonewashed linen with coconut buttons, the Crisp is organic cotton percale with a hidden zip."),
        v("how much is the linen one in that size?"),
    ], ["LB-500-NA"]),
    c("de", [
        v("Überleg die Strickjacke Frida in dunkelblau oder den Kaschmirpulli Ella in camel."),
        a("Die Frida ist ein lockerer Grobstrick-Cardigan aus Bio-Baumwolle, der Ella ein feiner Pullover aus reinem Kaschmir."),
        v("Und was ist günstiger?"),
    ], ["SJ-140-DB", "KP-120-CA"]),
    c("en", [
        v("want the natural oak Rune side table and the fig candle for my living room"),
        a("Nice combination. The side table is EUR 249.00 and comes fully assembled by parcel; the fig candle is EUR 32.00 with about 45 hours of burn time."),
        v("and how tall is the table exactly? needs to match the sofa arm"),
    ], ["OT-900-NA"]),
    c("de", [
        v("Die Filzpantoffeln Stube in rot und die Alpin-Socken in natur, beides in 42 bzw. 39-42."),
        a("Die Hausschuhe in Rot sind in 42 nur noch 2 Stück, die Socken in 39-42 sind vorrätig."),
        v("Prima."),
        a("Zusammen sind das 78,00 EUR."),
        v("Kann ich die Hausschuhe eigentlich waschen?"),
    ], ["HS-090-RT"]),
    c("en", [
        v("In my basket: navy Skagen rain jacket, olive Dune chinos and the natural Harbour tote."),
        a("That comes to EUR 129.00 + EUR 69.00 + EUR 29.00 = EUR 227.00."),
        v("do I still pay for delivery to Frankfurt on top of that?"),
    ], P["shipping"]),
    c("de", [
        v("Ich will das Wasserglas-Set klar und die weißen Kiln-Teller fürs Geschirr."),
        a("Gute Wahl: 6 mundgeblasene Gläser für 36,00 EUR und ein Set aus 4 Steinzeugtellern für 59,00 EUR."),
        v("Sind beide spülmaschinenfest?"),
    ], ["GL-650-KL", "CP-640-WH"]),
    c("en", [
        v("Comparing the white Calm terry towel with your white waffle one"),
        a("The Calm is a thick 600 g/m² organic terry; the Waffel is a light waffle piqué towel. The bath towel 70 x 140 cm is EUR 29 for Calm and EUR 35 for the waffle shower towel."),
        v("which one dries faster after a shower?"),
    ], ["BT-700-WH", "HT-620-WS"]),
    c("de", [
        v("Kissenhüllen Velours: petrol, senf oder altrosa? Ich brauch drei Stück."),
        a("Alle drei Farben sind 45 x 45 cm aus Baumwollsamt mit verdecktem Reißverschluss, je 29,00 EUR."),
        v("Welche Farbe habt ihr denn noch am meisten?"),
    ], ["KH-610-PE", "KH-610-SE", "KH-610-RS"]),
    c("en", [
        v("I'm torn between the grey Hygge wool throw and the grey cable knit blanket."),
        a("The Hygge is brushed lambswool with fringes, 130 x 180 cm (EUR 99.00); the Zopf is an organic cotton cable-knit blanket, 130 x 170 cm (EUR 79.00)."),
        v("which of those can I just put in the washing machine at 40?"),
    ], ["WT-330-GR", "MT-335-GR"]),
    c("de", [
        v("Für den Esstisch und das Sideboard Linn in natur, wie läuft das mit der Lieferung?"),
        a("Beide Möbel kommen per Spedition, nicht per Paketdienst. Die Spedition meldet sich vorher und vereinbart ein Zeitfenster von 4 Stunden."),
        v("Und wie lange dauert das bis die da sind?"),
    ], P["furniture_delivery"]),
    c("en", [
        v("Both Tide vases are gorgeous, the blue and the white. Might get one of each."),
        a("They're hand-thrown in Porto, 25 cm high, EUR 45.00 each."),
        v("is either of them running low? don't want to miss out"),
    ], ["VA-660-BL", "VA-660-WH"]),
    c("de", [
        v("Die Anton-Jeans in hellblau oder dunkelblau, ich hab Bundweite 30."),
        a("Beide haben die gleiche gerade Beinform, 99,00 EUR, aus Bio-Baumwolle mit 2 % Elasthan."),
        v("Welche davon gibt's in W30?"),
    ], ["JN-200-HB", "JN-200-DB"]),
    c("en", [
        v("beige Dune chinos and the sand Porto linen shirt, that's my summer outfit sorted"),
        a("Great combo! The chinos are EUR 69.00, the shirt EUR 59.00. The shirt is in stock in all sizes."),
        v("I'm a W30 though — any chance the beige chinos come back soon?"),
    ], ["CH-210-BE"]),
    c("de", [
        v("Ganzjahresdecke Traum in 155 x 220 und dazu die Satin-Bettwäsche in anthrazit."),
        a("Die Decke ist in 155 x 220 cm nur noch 3 Stück da, 149,00 EUR."),
        v("Und ist die anthrazit Bettwäsche in der Größe da?"),
    ], ["BW-530-AN"]),
    c("en", [
        v("Pink stripe Hamilton or the light blue one, for my dad who's an XL"),
        a("Both are the same organic cotton Oxford shirt with a button-down collar for EUR 49.00, just different colours."),
        v("which of them has an XL right now?"),
    ], ["OX-220-PS", "OX-220-LB"]),
    c("de", [
        v("Welches Handtuch nehm ich: Waffel in salbei oder das Bio-Frottee Calm in sage?"),
        a("Das Waffelpiqué ist leicht und trocknet schnell, das Calm ist dicker Frottee mit 600 g/m². Die Farben sind sehr ähnlich."),
        v("Welches gibt's denn grad in Duschtuchgröße?"),
    ], ["HT-620-SA", "BT-700-SG"]),
    c("en", [
        v("I'd like four white Kiln mugs and the white plate set."),
        a("That's 4 x EUR 16.00 plus EUR 59.00, so EUR 123.00 in total; both are in stock."),
        v("can I do that in 3 payments with Klarna?"),
    ], P["klarna"]),
    c("de", [
        v("Wollmantel Greta in camel und der Kaschmirschal Aura in camel, passt das?"),
        a("Das passt wunderbar zusammen. Der Mantel kostet 249,00 EUR, der Schal 119,00 EUR."),
        v("Kann ich beides auf Rechnung kaufen und erst später zahlen?"),
    ], P["klarna"]),
    c("en", [
        v("thinking of the ecru Loop sweatshirt and the burgundy Fell jumper"),
        a("The sweatshirt is organic cotton loopback and can go in the machine at 40 °C; the jumper is extra-fine merino."),
        v("how do I wash the woolly one then?"),
    ], ["MJ-118-BU"]),
    c("de", [
        v("Strickdecke Zopf in creme und die Samtkissenhülle in senf fürs Sofa."),
        a("Schöne Farbkombination! Die Decke kostet 79,00 EUR, die Kissenhülle 29,00 EUR; von beiden sind nur noch 2 Stück da."),
        v("Wie groß ist die Decke nochmal?"),
    ], ["MT-335-CR"]),
    c("en", [
        v("Getting the navy Dune chinos in W34 and the cognac Ridge belt."),
        a("The chinos are EUR 69.00 and the belt EUR 55.00. The belt comes in 85, 90, 95, 100 and 110 cm."),
        v("what belt length would fit with those trousers?"),
    ], ["BL-060-BR", "CH-210-NV"]),
    c("de", [
        v("Tischdecke Tafel blau gestreift und das Wasserglas-Set in rauchgrau für unseren Tisch."),
        a("Die Tischdecke gibt es in 140 x 180 cm (69 EUR) und 140 x 250 cm (89 EUR), die Gläser kosten 36,00 EUR."),
        v("Unser Tisch ist 160 x 90, welche Größe der Tischdecke brauch ich?"),
    ], ["TD-600-BS"]),
    c("en", [
        v("Getting the sage Nora duvet set and sage Calm towels, all in the same green."),
        a("Lovely. The duvet set is in stock in all sizes; for the towels in sage only the bath sheet is available right now."),
        v("If the duvet cover doesn't work but I keep the towels, is sending it back free from Germany?"),
    ], P["returns"]),
    c("de", [
        v("Stuhl Bo in natur oder in schwarz, was ist der Unterschied außer der Farbe?"),
        a("Ansonsten sind beide gleich: stapelbar, massive Buche, geschwungene Rückenlehne, Sitzhöhe 46 cm, 189,00 EUR."),
        v("Ich nehm natur. Ist der geölt oder lackiert?"),
    ], ["ST-920-NA"]),
    c("en", [
        v("Need 4 candles for the dinner table, either the cedarwood or the fig."),
        a("Both are hand-poured soy candles with about 45 hours of burn time, EUR 32.00 each."),
        v("which one do you actually have 4 of?"),
    ], ["SC-720-FG", "SC-720-CE"]),
    c("de", [
        v("Kaschmirpulli Ella in rosé und Strickjacke Frida in creme hab ich letzten Monat gekauft."),
        a("Schön, dass Sie sich für beide entschieden haben!"),
        v("Der Pulli hat nach drei Wochen schon lauter Knötchen. Kann ich den reklamieren?"),
    ], P["warranty"]),
    c("en", [
        v("black Rune side table and the black stained Linn sideboard would look great together"),
        a("They share the same black-stained oak finish. The side table is EUR 249.00, the sideboard EUR 1,190.00."),
        v("do both get delivered the same way or separately?"),
    ], ["OT-900-BL", "SD-930-SW"]),
    c("de", [
        v("Daunenkissen Wolke: nehm ich 40 x 80 oder 80 x 80?"),
        a("Beide haben dieselbe Füllung aus 90 % Daunen und 10 % Federn. 80 x 80 ist das klassische große Kissen, 40 x 80 eher schmal."),
        v("Was ist preislich der Unterschied?"),
    ], ["KK-520-4080", "KK-520-8080"]),
    c("en", [
        v("Emerald Lina wrap dress and the camel Aura scarf for my sister."),
        a("Both are in stock; the dress is EUR 79.00 and the scarf EUR 119.00."),
        v("she lives in London, can you send them there?"),
    ], P["international"]),
    c("de", [
        v("Leinenbluse Ida in hellblau und die Leinenhose Marie in sand hab ich bekommen, total schön."),
        a("Das freut mich!"),
        v("Wie wasch ich die Leinensachen, ohne dass die einlaufen?"),
    ], P["care_linen"]),
]


CATEGORIES = [
    ("paraphrase", PARAPHRASE),
    ("subject_change", SUBJECT_CHANGE),
    ("followup", FOLLOWUP),
    ("after_condensation", AFTER_CONDENSATION),
    ("multi_product", MULTI_PRODUCT),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    for cat, items in CATEGORIES:
        for i, item in enumerate(items, 1):
            rows.append({
                "id": f"{cat}-{i:03d}",
                "lang": item["lang"],
                "category": cat,
                "part": "dev",
                "turns": item["turns"],
                "core": item["core"],
                "expect": item["expect"],
            })
    with open(os.path.join(here, "conversations.jsonl"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(len(rows), "conversations written")


if __name__ == "__main__":
    main()
