#!/usr/bin/env python3
"""Held-out retrieval set 4: 200 shop-chat conversations (EN/DE).

Written by hand as data; running this script writes conversations.jsonl
next to it (one JSON object per line). Stdlib only.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# service pages: short key -> [EN id, DE id]
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
    "discount_codes": ["page-en-discount-codes", "page-de-rabattcodes"],
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


def V(text):
    return {"role": "visitor", "text": text}


def A(text):
    return {"role": "assistant", "text": text}


def art(id_, label):
    return {"kind": "article", "id": id_, "label": label}


def page(key, label):
    # a page object in a core refers to the page in the conversation's language
    return {"kind": "page", "id": P[key][0], "label": label}


def order(no, label):
    return {"kind": "order", "id": no, "label": label}


def core(request, objects, constraints):
    return {"request": request, "objects": objects, "constraints": constraints}


ROWS = []  # (category, lang, turns, core, expect)


def add(category, lang, turns, expect, core_=None):
    if isinstance(expect, str):
        expect = P[expect] if expect in P else [expect]
    ROWS.append((category, lang, turns, core_, list(expect)))


# ---------------------------------------------------------------------------
# paraphrase: one visitor message, wording unlike the page/product title
# ---------------------------------------------------------------------------
C = "paraphrase"
add(C, "en", [V("need a birthday present to land in cologne TOMORROW, its 10am now. doable if i order right away??")], "express")
add(C, "en", [V("hiya, do you post to the UK these days? and am I going to get stung with import fees when it turns up")], "international")
add(C, "en", [V("what's the latest I can order so the stuff actually gets to my parents in Munich before xmas eve?")], "holiday")
add(C, "en", [V("Hello, I got an email this morning that my order has left you. Where can I follow what's happening with it? The link shows nothing so far")], "tracking")
add(C, "en", [V("the jumper I got in M is enormous on me. can you just swap it for a small instead of me faffing about with a refund?")], "exchanges")
add(C, "en", [V("We've had the sideboard a week and honestly it's far too dark for our lounge. How do we get something that size back to you? It won't fit in any box")], "furniture_returns")
add(C, "en", [V("is there a way to spread the cost of the dining table over a few months? 1290 in one go is a lot for us rn")], "klarna")
add(C, "en", [V("got one code from an influencer and another from my friend – can i use both on the same basket or only one of them?")], "discount_codes")
add(C, "en", [V("do you do any kind of welcome offer if I sign up to your mailing list?")], "newsletter")
add(C, "en", [V("what's the safest way to wash a really soft knitted cardi without it shrinking? it's the posh goat-hair stuff, not cotton. can it go in the tumble dryer at all")], "care_wool")
add(C, "en", [V("buying for my boyfriend – he's 104 round the chest, 92 round the middle. which one do I order him, L or XL?")], "size_men")
add(C, "en", [V("we've got a standard UK double duvet at home. will any of your covers actually fit it, or are they all odd German dimensions?")], "bedding_sizes")
add(C, "en", [V("Who exactly do you hand my address and details on to when I place an order? And can I make you erase my data afterwards?")], "privacy")
add(C, "en", [V("the elbow on my favourite jumper from you has gone through, had it about 3 years. is that something you'd mend?")], "repair")
add(C, "en", [V("cant log in, forgot my password and the reset email from yesterday doesnt work anymore?? what now")], "account")
add(C, "en", [V("I'm sending something straight to my boss as a thank you – can you make it look like a present and NOT put the prices in the box?")], "gift_wrapping")
add(C, "en", [V("I do the school run on my bike every day and need something properly waterproof with a hood, bright so cars actually see me. what have you got?")], "RJ-150-YE")
add(C, "en", [V("looking for a big plain black shopper I can stuff my 13 inch laptop into for work. no backpacks pls")], "TB-080-BK")
add(C, "en", [V("Something really soft and luxurious to keep my dad's neck warm on winter walks, in a dark grey? It's for his 60th")], "CS-077-CH")
add(C, "en", [V("my mum loves having something lit on the coffee table in the evenings that makes the room smell nice – woody, nothing sweet. ideas?")], "SC-720-CE")

add(C, "de", [V("Was zahl ich fürs Schicken nach Köln, wenn ich nur für so 30 € bestell? Ab wieviel ist das umsonst?")], "shipping")
add(C, "de", [V("wie kommt bei euch eigentlich ein großer Tisch zu mir? Bringt den der normale Paketbote? Und trägt den jemand in den 3. Stock?")], "furniture_delivery")
add(C, "de", [V("Kann ich online bestellen und das Zeug dann in eurem Laden in Hamburg mitnehmen? Dann spar ich mir das Porto")], "click_collect")
add(C, "de", [V("Laut DHL-App wurde meine Lieferung gestern zugestellt, hier liegt aber nix!! Nachbarn haben auch nichts. Und jetzt?")], "parcel_missing")
add(C, "de", [V("Das Kleid passt leider gar nicht. Bis wann kann ich es euch wieder schicken, und krieg ich das Geld dann auf PayPal zurück?")], "returns")
add(C, "de", [V("Hab vor 2 Monaten Teller bei euch gekauft und jetzt hat die Glasur bei zweien Risse. Das ist doch nicht normal oder? Was kann ich da machen")], "warranty")
add(C, "de", [V("Kann man bei euch auch erst an der Haustür bar zahlen, so per Nachnahme? Hab keine Kreditkarte")], "payment")
add(C, "de", [V("Meine Oma will mir was schenken, hat aber kein Internet. Kann sie im Laden so eine Karte mit Guthaben kaufen, und wie lang kann ich die dann einlösen?")], "gift_cards")
add(C, "de", [V("Meine Sommerhose aus Flachs ist nach dem Trockner echt kürzer geworden 🙈 wie wascht man das Zeug richtig?")], "care_linen")
add(C, "de", [V("Auf unserem geölten Holztisch von euch sind Rotweinränder und ein kleiner Kratzer. Womit darf ich da ran, geht ein Mikrofasertuch?")], "care_wood")
add(C, "de", [V("Hab 92 Oberweite, 74 Taille und 98 Hüfte. Was bin ich dann bei euch? Lieg irgendwie dazwischen")], "size_women")
add(C, "de", [V("Kann man euch auch anrufen?? Bis wann ist da abends jemand dran?")], "contact")
add(C, "de", [V("Woher kommt eigentlich euer Leinen und wo wird das alles genäht? Will ungern was aus Fernost")], "sustainability")
add(C, "de", [V("Habt ihr in München auch sonntags offen? Und wo seid ihr da genau?")], "stores")
add(C, "de", [V("Mist, grad bestellt und falsche Hausnummer eingegeben!! kann man das noch korrigieren?")], "change_cancel")
add(C, "de", [V("Ab wann ist bei euch eigentlich der Kauf rechtlich fix – schon wenn ich auf Bestellen klick oder erst später?")], "terms")
add(C, "de", [V("Ich brauch für die Buchhaltung eure Handelsregisternummer und die USt-ID, wo steht das?")], "impressum")
add(C, "de", [V("Ich hab im Winter zuhause immer Eisfüße. Habt ihr was Warmes aus Wolle zum Reinschlüpfen, am liebsten in rot? Größe 39")], "HS-090-RT")
add(C, "de", [V("Suche was zum Zudecken, das man Sommer wie Winter nehmen kann, bin Hausstauballergikerin. Brauch die 155 breite Variante")], "BD-540-155")
add(C, "de", [V("Habt ihr Trinkgläser, so 6 Stück, dunkel getönt statt durchsichtig? Sollten auch in die Spülmaschine dürfen")], "GL-650-RG")

# ---------------------------------------------------------------------------
# subject_change: a few turns about a product, the last visitor turn switches
# ---------------------------------------------------------------------------
C = "subject_change"
add(C, "en", [
    V("hi is the porto linen shirt in sky blue still around in L?"),
    A("Hi! Yes, the Linen shirt Porto in sky blue is in stock in L, but there are only 2 left, so I wouldn't wait too long. It's EUR 59.00."),
    V("perfect, ordering it now"),
    A("Great choice, enjoy it! Anything else I can help with?"),
    V("actually yes – I'm moving to Oslo in September, will you still deliver to me there?"),
], "international")
add(C, "en", [
    V("Hello, does the Lina wrap dress in emerald come up small? I'm usually a 38"),
    A("The Wrap dress Lina is true to size: a 38 is our M (bust 88, waist 72, hips 96 cm), and emerald is in stock in M."),
    V("lovely, thanks"),
    A("You're welcome!"),
    V("oh something else – it's my mum's birthday on friday and I've no clue what she wants. can I email her some credit she can spend herself?"),
], "gift_cards")
add(C, "en", [
    V("does the Fell jumper in navy run big? I'm between S and M"),
    A("The Merino jumper Fell has a unisex fit. Laid flat, S measures 53 cm across the chest and M 56 cm. Knitwear gives a little, so the smaller size usually works if you're in between. Navy is in stock in every size."),
    V("ok S then. totally unrelated but I sent a parcel back 3 weeks ago and still no money, how long is that supposed to take??"),
], "returns")
add(C, "en", [
    V("are the Dune chinos in navy slim or proper skinny?"),
    A("They're a slim straight cut in stretch twill with a mid-rise waist – slim, but not skinny. EUR 69.00; navy is in stock in W32 to W36 and there are 2 left in W30."),
    V("W32 it is"),
    A("Lovely, W32 in navy is in stock."),
    V("I'll need something to hold them up too – got anything in brown leather, around 95 cm?"),
], "BL-060-BR")
add(C, "en", [
    V("Is the Rune side table solid wood or veneer?"),
    A("It's solid FSC oak from Saxony with a natural oil finish, 45 cm across and 50 cm high, EUR 249.00."),
    V("and the black one is just stained?"),
    A("Exactly, that one is black-stained oak – only 4 left at the moment."),
    V("ok noted. different question, what time does your Hamburg shop close on saturdays?"),
], "stores")
add(C, "en", [
    V("the Calm towels in sage – is the big bath sheet available?"),
    A("Yes, the bath sheet (100 x 150 cm, EUR 45) in sage is in stock. The hand towel and bath towel in sage are sold out right now and back in about 3 weeks."),
    V("just the sheet then. can I pay with Apple Pay on my phone or is it card only?"),
], "payment")
add(C, "en", [
    V("hi, thinking about the Nora linen bedding in natural for a 135x200 duvet"),
    A("Hi! The Linen duvet cover set Nora in natural is sold out in 135 x 200 at the moment, back in about 3 weeks. 155 x 220 and 200 x 200 are in stock, and sage is available in 135 x 200 right now."),
    V("hmm i'll wait for the natural. while I'm here, do you have plain white dinner plates? need 4"),
], "CP-640-WH")
add(C, "en", [
    V("whats the difference between the yellow and navy Skagen jacket apart from colour?"),
    A("None – both are the same hooded unisex rain jacket in recycled polyester with taped seams and a 10,000 mm water column, EUR 129.00. Only the sizes in stock differ: navy is available in M, L and XL, yellow in XS and M, with 2 left in L."),
    V("ugh forget the jacket for now. I ordered something about an hour ago and want to take one of the items out of it, how?"),
], "change_cancel")
add(C, "en", [
    V("Are the Kiln mugs in speckled sand sold singly?"),
    A("Yes, the Stoneware mug Kiln is sold individually: 350 ml, EUR 16.00. Speckled sand has only 4 left."),
    V("I'll take all 4 then"),
    A("Lovely – they match the Kiln plates too."),
    V("random q, I've got a student code but it keeps saying not valid at checkout. why??"),
], "discount_codes")
add(C, "en", [
    V("is the Loop sweatshirt in forest green thick? want something for autumn"),
    A("Yes, it's a heavyweight organic cotton loopback, 340 g/m², with a slightly boxy fit. EUR 59.00."),
    V("size L?"),
    A("L in forest green is sold out at the moment, back in about 3 weeks; XL has 1 left."),
    V("ok ta. unrelated – is there a number I can ring? I'd rather just talk to an actual human"),
], "contact")
add(C, "en", [
    V("How long is the Aura cashmere scarf in camel?"),
    A("It's 180 x 30 cm with fringed ends, 100% cashmere woven in Scotland, EUR 119.00, and in stock."),
    V("Nice. Different topic altogether – is all your cotton actually certified organic or is that just marketing speak?"),
], "sustainability")
add(C, "en", [
    V("Hamilton oxford shirt white – any L left?"),
    A("Yes, but only 1 left in L. M, XL and XXL are in stock."),
    V("grabbing it now"),
    A("Good call!"),
    V("btw my previous order has said delivered since monday but theres nothing here, no card either. what do I do"),
], "parcel_missing")
add(C, "en", [
    V("is the Hygge throw in ochre more mustard or more brown?"),
    A("It's a warm ochre – closer to a golden mustard than to brown. The throw is brushed lambswool, 130 x 180 cm, EUR 99.00, in stock."),
    V("ok sold. oh and is the fig Ember candle still about? want one for my sister"),
], "SC-720-FG")
add(C, "en", [
    V("the blue Tide vase, how big is the opening? want it for tulips"),
    A("The opening is 8 cm and the vase is 25 cm high – a nice size for a bunch of tulips. It's hand-thrown in Porto, EUR 45.00, in stock."),
    V("cool. can I order online and then grab it from your shop in Vienna instead of having it posted?"),
], "click_collect")
add(C, "en", [
    V("Does the Sola linen dress in terracotta have pockets?"),
    A("Yes, it has side pockets. It's a sleeveless A-line dress with a square neckline in mid-weight linen, EUR 95.00."),
    V("perfect"),
    A("Terracotta is in stock from XS to XL, with only 2 left in L."),
    V("I'll think about it. Also, the Ella cashmere jumper in rosé – have you got it in M?"),
], "KP-120-RO")
add(C, "en", [
    V("is the Crisp percale set in light grey crinkly? I hate that rumpled look"),
    A("No – percale is cool and crisp with a smooth finish. The light grey set is organic cotton percale, 200 thread count, with a hidden zip."),
    V("sounds good, 155x220 please"),
    A("155 x 220 in light grey is in stock, EUR 99."),
    V("separate thing – we've also ordered the big dining table. do the delivery guys bring it into the dining room or just leave it on the pavement?"),
], "furniture_delivery")
add(C, "en", [
    V("will my laptop fit in the Harbour tote? it's a 14 inch"),
    A("Yes, it takes laptops up to 14 inches: 42 x 38 x 12 cm with an inner zip pocket."),
    V("great. other thing – I signed up for your emails last week but never got the 10% off code?"),
], "newsletter")
add(C, "en", [
    V("Ridge belt in black, 95cm, in stock?"),
    A("Yes, but only 1 left in 95 cm. EUR 55.00."),
    V("ordering. can it be with me by saturday? wedding's on sunday and it's thursday already"),
], "express")
add(C, "en", [
    V("are the Kiln plates in speckled sand all exactly the same?"),
    A("Not quite – the reactive glaze makes each plate vary a little. It's a set of 4, 27 cm, dishwasher and microwave safe, EUR 59.00."),
    V("I like that actually"),
    A("Most people do – it gives them a handmade feel."),
    V("by the way, the oak table we got from you last year has gone a bit dull and dry looking, what should we put on it?"),
], "care_wood")
add(C, "en", [
    V("Anton jeans in dark blue, W34 in the longer length – do you have that?"),
    A("Yes, the Jeans Straight Fit Anton in dark blue comes in W34, and every waist is available in L32 and L34. W34 is in stock, EUR 99.00."),
    V("ok. different thing – I'm 17, can I still use Klarna and pay after 30 days?"),
], "klarna")

add(C, "de", [
    V("Hallo, die Leinenhose Marie in sand, gibt's die noch in M?"),
    A("Hallo! Ja, in M sind noch 2 Stück da. Die Hose hat einen elastischen Bund mit Tunnelzug, ist knöchellang und kostet 79,00 EUR."),
    V("super, nehm ich. wie lange dauert's normalerweise bis ein Paket bei mir in Dortmund ist?"),
], "shipping")
add(C, "de", [
    V("Strickjacke Frida creme in M?"),
    A("Die Strickjacke Frida in creme ist in M leider gerade ausverkauft, in ca. 3 Wochen wieder da. XS, S, L und XL sind vorrätig, und in dunkelblau gibt es M."),
    V("Hm ok, dann warte ich"),
    A("Gern, schauen Sie einfach in ein paar Wochen wieder rein."),
    V("Ach und noch was, ich hab letzte Woche was zurückgeschickt und mit PayPal gezahlt. Wann seh ich das Geld?"),
], "returns")
add(C, "de", [
    V("Ist der Ella Pulli in grau eher dünn oder dick?"),
    A("Der Kaschmirpullover Ella ist ein weicher, eher feiner Pullover aus 100 % Kaschmir mit Rundhals und leicht verlängertem Rücken. 169,00 EUR."),
    V("Okay. Themawechsel: ihr habt doch auch so dicke Wandersocken aus Merino, gibt's die in anthrazit?"),
], "SK-095-AN")
add(C, "de", [
    V("Gibt es den Greta Mantel in camel noch in L?"),
    A("L ist in camel leider ausverkauft, wieder da in ca. 3 Wochen. XS, M und XL sind vorrätig, von S gibt es noch 3 Stück."),
    V("schade"),
    A("Vielleicht klappt es ja in ein paar Wochen. Kann ich sonst noch helfen?"),
    V("Ja, andere Frage: wo find ich eigentlich meine alten Rechnungen zum Runterladen?"),
], "account")
add(C, "de", [
    V("Anton Jeans schwarz W30 da?"),
    A("W30 in schwarz ist leider ausverkauft, in ca. 3 Wochen wieder da. W32 bis W36 sind vorrätig."),
    V("Hm. Ich hab letzte Woche eine andere Hose in W32 bekommen, die ist zu weit. Kann ich die im Laden in Berlin gegen ne andere Größe tauschen?"),
], "exchanges")
add(C, "de", [
    V("Das Basic T-Shirt in weiß, gibt's das in XXL?"),
    A("Ja, in XXL sind noch 3 Stück da. 100 % Bio-Baumwolle, 180 g/m², 25,00 EUR."),
    V("Top. Was anderes: liefert ihr auch nach Zürich? Und was kommt da an Zoll drauf?"),
], "international")
add(C, "de", [
    V("Hallo, Satin-Bettwäsche Nacht in anthrazit in 155x220?"),
    A("Hallo! Die anthrazitfarbene Satin-Bettwäsche ist in 155 x 220 leider ausverkauft, in ca. 3 Wochen wieder da. In weiß ist 155 x 220 vorrätig, für 99 EUR."),
    V("Dann nehm ich weiß"),
    A("Gute Wahl!"),
    V("Bis wann muss ich denn spätestens bestellen, damit das noch unterm Baum liegt?"),
], "holiday")
add(C, "de", [
    V("Ist das Wolke Kissen in 80x80 sehr weich? Ich schlaf auf der Seite"),
    A("Es ist weich und bauschig, gefüllt mit 90 % Daunen und 10 % Federn, Downpass-zertifiziert. Das 80 x 80 cm Kissen kostet 69,00 EUR und ist vorrätig."),
    V("ok danke. ganz anderes Thema, wir wollen auch den großen Esstisch kaufen, kann man den in Raten abstottern?"),
], "klarna")
add(C, "de", [
    V("Der Eik Tisch in 200x100 – wie hoch ist der?"),
    A("Der Esstisch Eik ist 75 cm hoch, die Tischplatte ist 4 cm stark. Massive Eiche, natur geölt, 1.590,00 EUR."),
    V("ok merk ich mir"),
    A("Gern!"),
    V("Andere Sache: ich hab vorgestern Handtücher bestellt, wo kann ich sehen wo das Paket grad rumgurkt?"),
], "tracking")
add(C, "de", [
    V("Stuhl Bo in schwarz, ist der stapelbar?"),
    A("Ja, der Stuhl Bo ist stapelbar. Massive Buche, Sitzhöhe 46 cm, 189,00 EUR, vorrätig."),
    V("Super. Und habt ihr auch so eine Kuscheldecke mit Zopfmuster in grau fürs Sofa?"),
], "MT-335-GR")
add(C, "de", [
    V("Das Sideboard Linn in schwarz – wieviel Platz braucht das?"),
    A("Es misst 180 x 45 x 75 cm, hat zwei Schiebetüren und zwei Schubladen. In Eiche schwarz gebeizt gibt es nur noch 2 Stück."),
    V("Hmm überleg ich noch"),
    A("Klar, lassen Sie sich Zeit."),
    V("Ganz andere Frage, ich hab zwei Codes, kann ich die in einer Bestellung zusammen einlösen?"),
], "discount_codes")
add(C, "de", [
    V("Das Waffelhandtuch in salbei, wie groß ist das Duschtuch?"),
    A("Das Duschtuch misst 70 x 140 cm und kostet 35 EUR, in salbei vorrätig. Vom Handtuch 50 x 100 cm gibt es noch 2 Stück."),
    V("Danke. Was anderes, wo genau ist euer Laden in Wien und wie lange habt ihr offen?"),
], "stores")
add(C, "de", [
    V("Die Samtkissenhülle in senf – ist da ein Reißverschluss dran?"),
    A("Ja, ein verdeckter Reißverschluss. 45 x 45 cm, ohne Füllung, 29,00 EUR – es sind nur noch 2 Stück da."),
    V("Nehm ich beide"),
    A("Prima!"),
    V("Kann ich das hübsch eingepackt direkt an meine Schwester schicken lassen? Ist ein Geschenk"),
], "gift_wrapping")
add(C, "de", [
    V("Die blau gestreifte Tischdecke in 140x250, vorrätig?"),
    A("Ja, die Leinentischdecke Tafel in blau gestreift ist in 140 x 250 cm vorrätig, 89 EUR."),
    V("gut. sagt mal, mein Pulli von euch hat nach 3 Jahren ein Loch am Ärmel, flickt ihr sowas auch?"),
], "repair")
add(C, "de", [
    V("Sind die Wassergläser in klar dünn? Ich mag keine dicken Gläser"),
    A("Ja, das Wasserglas-Set Klar ist dünnwandig und mundgeblasen: 6 Gläser à 300 ml, stapelbar, 36,00 EUR."),
    V("klingt gut"),
    A("Und sie sind spülmaschinengeeignet."),
    V("Wann wird eigentlich das Geld von meiner Kreditkarte abgebucht, direkt beim Bestellen?"),
], "payment")
add(C, "de", [
    V("Die Filzhausschuhe in grau, Größe 37?"),
    A("Größe 37 in grau ist gerade ausverkauft, in ca. 3 Wochen wieder da. In rot gibt es die 37 noch 2-mal."),
    V("Ok dann rot"),
    A("Gern!"),
    V("Noch was anderes: wie wasch ich meinen Kaschmirschal, ohne dass er hinüber ist?"),
], "care_wool")
add(C, "de", [
    V("Die Traum Bettdecke 135x200 – ist die im Winter warm genug?"),
    A("Die Ganzjahresbettdecke Traum ist fürs ganze Jahr gedacht, atmungsaktiv und mit Lyocell-Füllung (TENCEL), auch für Allergiker geeignet. 119,00 EUR, vorrätig."),
    V("Ok. Andere Sache: ist eure Baumwolle wirklich bio, mit irgendeinem Siegel?"),
], "sustainability")
add(C, "de", [
    V("Leinenbluse Ida hellblau in S?"),
    A("Ja, die hellblaue Leinenbluse Ida ist in S vorrätig, 69,00 EUR."),
    V("Super. Habt ihr auch Leinenhemden für Männer? Mein Mann bräuchte eins in oliv, Größe M"),
], "LS-410-OL")
add(C, "de", [
    V("Ist die Frida Strickjacke in dunkelblau dick?"),
    A("Ja, das ist ein Grobstrick-Cardigan aus Bio-Baumwolle mit Holzknöpfen und aufgesetzten Taschen, locker geschnitten. 89,00 EUR."),
    V("M da?"),
    A("M in dunkelblau ist vorrätig."),
    V("👍 gibt's bei euch eigentlich Rabatt, wenn man sich für eure Mails anmeldet?"),
], "newsletter")
add(C, "de", [
    V("Kaschmirpullover Ella camel in S?"),
    A("Ja, S ist in camel vorrätig, 169,00 EUR."),
    V("Danke. Ganz anderes Thema: Wir wollen unseren Esstisch von euch zurückgeben, der ist einfach zu groß für die Küche. Wie läuft das bei so was Großem?"),
], "furniture_returns")

# ---------------------------------------------------------------------------
# followup: the last visitor turn is short and leans on the earlier subject
# ---------------------------------------------------------------------------
C = "followup"
add(C, "en", [
    V("hi, the white Porto linen shirt – is it a boxy fit?"),
    A("Hi! It's a relaxed fit with a button-down collar and a chest pocket, in garment-washed linen. EUR 59.00."),
    V("I'm 98 round the chest so M?"),
    A("Yes, M is for a 95–101 cm chest, and it's in stock in white."),
    V("and an S for my brother?"),
], "LS-410-WH")
add(C, "en", [
    V("Looking at the floral Lina wrap dress for a wedding in May"),
    A("Lovely choice – it's a flowing midi wrap dress with long sleeves and a tie waist that falls just below the knee. EUR 79.00, in stock in all sizes."),
    V("is it lined?"),
    A("The bodice is lined."),
    V("and can it just go in the washing machine?"),
], "WD-260-FL")
add(C, "en", [
    V("burgundy Fell jumper – crew neck or v?"),
    A("It's a crew neck, fine-knit, unisex fit. EUR 89.00, and burgundy is in stock from XS to L, with 2 left in XL."),
    V("is it scratchy? what's it made of"),
], "MJ-118-BU")
add(C, "en", [
    V("yellow Skagen rain jacket in S please"),
    A("Sorry, the yellow one is sold out in S at the moment, back in about 3 weeks. XS and M are in stock, and L has 2 left."),
    V("what about the navy, S?"),
], "RJ-150-NV")
add(C, "en", [
    V("hey, Dune chinos in beige, W32 available?"),
    A("Hi! Yes, W32 in beige is in stock. They're a slim straight fit in stretch twill, EUR 69.00."),
    V("nice. I'm tall though, 1m90 – how long are the legs?"),
], "CH-210-BE")
add(C, "en", [
    V("the camel Aura scarf – is it knitted or woven?"),
    A("It's a lightweight woven scarf with fringed ends, 100% cashmere from Inner Mongolia, woven in Scotland. EUR 119.00."),
    V("nice, how long is it? I like to loop mine twice"),
], "CS-077-CA")
add(C, "en", [
    V("do you have the Calm towels in white?"),
    A("Yes – in white the bath towel and bath sheet are in stock, and the hand towel has only 2 left."),
    V("how heavy are they, I like them thick"),
    A("They're 600 g/m² organic cotton terry – thick and absorbent, with a hanging loop."),
    V("and the small one costs?"),
], "BT-700-WH")
add(C, "en", [
    V("Nora set in sage for a 200x200 duvet, in stock?"),
    A("Yes, the sage Linen duvet cover set Nora is in stock in 200 x 200 cm, EUR 199."),
    V("does that come with 2 pillowcases or just the one?"),
], "LB-500-SG")
add(C, "en", [
    V("the Hygge throw in grey, how big is it?"),
    A("It's 130 x 180 cm in brushed lambswool with fringes, EUR 99.00 – great for the sofa."),
    V("nice"),
    A("It's in stock, too."),
    V("where's it made?"),
], "WT-330-GR")
add(C, "en", [
    V("Can I get the Kiln mug in speckled sand? want 6 for the office"),
    A("The speckled sand mug is sold individually at EUR 16.00, but there are only 4 left at the moment. The white one is in stock."),
    V("how big are they?"),
    A("350 ml, with a generous handle."),
    V("ok and are they fine in the microwave?"),
], "ML-650-SP")
add(C, "en", [
    V("is the matte white Tide vase still available?"),
    A("Yes, but only 2 left. It's hand-thrown in a small workshop in Porto, EUR 45.00."),
    V("how tall roughly?"),
], "VA-660-WH")
add(C, "en", [
    V("thinking about the black Rune side table"),
    A("It's a round side table in black-stained solid oak, 45 cm across and 50 cm high, EUR 249.00. Only 4 left."),
    V("does it come flat-packed? I'm useless with screws"),
], "OT-900-BL")
add(C, "en", [
    V("pink stripe Hamilton shirt, any M?"),
    A("Yes, M in pink stripe – only 2 left though."),
    V("and XL?"),
], "OX-220-PS")
add(C, "en", [
    V("the cognac Ridge belt – is it real leather?"),
    A("Yes, full-grain vegetable-tanned leather with a brass buckle, 3.5 cm wide. It develops a lovely patina. EUR 55.00."),
    V("nice. my trousers are about 90 at the waist, what length do I need?"),
], "BL-060-BR")
add(C, "en", [
    V("Hi, I live in Lyon and want to send back a dress I ordered"),
    A("Hi! No problem – you have 30 days from delivery. The dress should be unworn, unwashed and with its tags. From France, EUR 5.95 return shipping is deducted from your refund."),
    V("ok fair enough. how long till the money's back?"),
], "returns")
add(C, "en", [
    V("can I order online and collect in the Munich store?"),
    A("Yes! Choose 'Collect in store' at checkout – it's free. Items in stock in the store are ready within 2 hours, otherwise in 2–3 working days. We e-mail you when it's ready."),
    V("great, but I'm away till next weekend – how long do you hold it?"),
], "click_collect")
add(C, "en", [
    V("do you do gift cards?"),
    A("We do – any value from EUR 20 to EUR 500. The digital one arrives by e-mail within minutes, and in our stores you can get it as a card in a gift box."),
    V("can she use it in one of the shops too?"),
    A("Yes, online and in all our stores, and she can spend it in several goes."),
    V("and does it run out at some point?"),
], "gift_cards")
add(C, "en", [
    V("how does the dining table get to us?"),
    A("Furniture comes with our freight partner rather than by parcel. Delivery takes 2–4 weeks as it's made in small batches, and the carrier gets in touch beforehand to agree a 4-hour window. Kerbside delivery in Germany is EUR 49."),
    V("we're in Linz though"),
], "furniture_delivery")
add(C, "en", [
    V("can I pay for my order later with Klarna?"),
    A("Yes – with Klarna 'Pay in 30 days' you get your order first and pay within 30 days at no extra cost. From EUR 200 you can also split it into 3 interest-free payments."),
    V("any minimum age? it's for my daughter, she's 16"),
], "klarna")
add(C, "en", [
    V("if I order now will it come tomorrow? I'm in Hannover"),
    A("If you pick Express at checkout and order by 12 noon Monday to Friday, DHL Express delivers on the next working day within Germany for EUR 12.90."),
    V("it's friday morning. what about saturday?"),
], "express")

add(C, "de", [
    V("Hallo, die Leinenhose Marie in olivgrün, ist die weit geschnitten?"),
    A("Hallo! Ja, das ist eine weite Damenhose aus leichtem Leinen mit elastischem Bund, Tunnelzug und Seitentaschen, knöchellang. 79,00 EUR."),
    V("Und in XL?"),
], "LH-310-OG")
add(C, "de", [
    V("Ich such die weiße Leinenbluse Ida in M"),
    A("Die weiße Ida ist in M leider ausverkauft; vorrätig sind gerade XS und XL. In hellblau gibt es M."),
    V("Nee, muss weiß sein. Wann kommt die wieder?"),
], "LB-315-WS")
add(C, "de", [
    V("Frida Strickjacke in creme – ist das Wolle?"),
    A("Nein, die Strickjacke Frida ist aus 100 % Bio-Baumwolle (GOTS), Grobstrick mit Holzknöpfen. 89,00 EUR."),
    V("ah gut, Wolle vertrag ich nicht"),
    A("Dann passt sie gut. In creme vorrätig in XS, S, L und XL."),
    V("Darf die in den Trockner?"),
], "SJ-140-CR")
add(C, "de", [
    V("Ella Kaschmirpulli in rosé, M?"),
    A("Ja, M ist in rosé vorrätig, 169,00 EUR."),
    V("Hmm und in camel, auch M?"),
], "KP-120-CA")
add(C, "de", [
    V("Wie lang ist der Wollmantel Greta in grau?"),
    A("Der Mantel reicht bis zur Wade und hat Reverskragen, Bindegürtel und Innentasche. 80 % Schurwolle, 20 % Polyamid, 249,00 EUR."),
    V("Schön. Ist der gefüttert?"),
], "WM-160-GR")
add(C, "de", [
    V("Anton Jeans dunkelblau in W33?"),
    A("Die Jeans Anton gibt es in W30, W32, W34 und W36 – eine W33 haben wir leider nicht. In dunkelblau sind alle Bundweiten vorrätig."),
    V("ok dann 34. Gibt's die auch länger?"),
], "JN-200-DB")
add(C, "de", [
    V("Das schwarze Basic Shirt, wie fällt das aus?"),
    A("Das T-Shirt Basic ist ein Unisex-Shirt mit Rundhals. M passt bei 95–101 cm Brust, L bei 102–108 cm. 25,00 EUR."),
    V("Ok. Ist der Stoff eher dünn? Mag keine durchsichtigen Shirts"),
], "TS-180-SW")
add(C, "de", [
    V("Hausschuhe Stube in rot – fallen die groß aus?"),
    A("Die fallen normal aus; bei halben Größen am besten eine Nummer größer nehmen. 49,00 EUR."),
    V("Ich hab 41, gibt's die?"),
], "HS-090-RT")
add(C, "de", [
    V("Die Alpin Wollsocken in natur – taugen die zum Wandern?"),
    A("Ja, das sind dicke Wandersocken aus Merinowolle mit verstärkter Ferse und Spitze. 29,00 EUR."),
    V("Und wie viele Paar sind das für den Preis?"),
], "SK-095-NA")
add(C, "de", [
    V("Satinbettwäsche Nacht in weiß 135x200 verfügbar?"),
    A("Ja, die weiße Satin-Bettwäsche ist in 135 x 200 cm vorrätig, 79 EUR, mit einem Kissenbezug 80 x 80 cm."),
    V("Super. Mit Knöpfen oder Reißverschluss?"),
], "BW-530-WS")
add(C, "de", [
    V("Ich suche ein kleines Daunenkissen, 40x80"),
    A("Das Daunenkopfkissen Wolke gibt es in 40 x 80 cm für 49,00 EUR, vorrätig. Füllung 90 % Daunen, 10 % Federn."),
    V("Kann man das waschen? Der Hund schläft mit im Bett 😅"),
], "KK-520-4080")
add(C, "de", [
    V("Die Leinentischdecke in natur, welche Größen gibt's?"),
    A("Die Tischdecke Tafel gibt es in 140 x 180 cm (69 EUR) und 140 x 250 cm (89 EUR). In natur sind von 140 x 180 nur noch 3 Stück da."),
    V("Unser Tisch ist 2m lang"),
    A("Dann würde ich die 140 x 250 cm nehmen."),
    V("Ist die da?"),
], "TD-600-NA")
add(C, "de", [
    V("Die Samtkissenhülle in petrol find ich schön"),
    A("Die Kissenhülle Velours in petrol ist aus Baumwollsamt mit Leinenrückseite, 45 x 45 cm, 29,00 EUR, vorrätig."),
    V("ist da das Kissen mit dabei?"),
], "KH-610-PE")
add(C, "de", [
    V("Der Eik Esstisch in 160, reicht der für 6 Personen?"),
    A("Mit 160 x 90 cm ist er gut für 6 Personen. Massive Eiche, natur geölt, 1.290,00 EUR, vorrätig."),
    V("Wie dick ist die Platte eigentlich?"),
], "ET-910-160")
add(C, "de", [
    V("Sideboard Linn in Eiche natur – sind da Schubladen drin?"),
    A("Ja, zwei Schubladen und zwei Schiebetüren. 1.190,00 EUR, vorrätig."),
    V("Maße?"),
], "SD-930-NA")
add(C, "de", [
    V("Hallo, wie funktioniert bei euch das Zurückschicken aus Österreich?"),
    A("Hallo! Aus Österreich ist das kostenlos: Nutzen Sie das beiliegende DHL-Retourenlabel oder erstellen Sie eines im Kundenkonto. Sie haben 30 Tage ab Zustellung Zeit."),
    V("Gilt das auch für die Bettdecke? Hab sie schon ausgepackt und einmal drunter geschlafen"),
], "returns")
add(C, "de", [
    V("Ich hab die Jeans in W32 bekommen, bräuchte aber W34. Könnt ihr die einfach austauschen?"),
    A("Einen direkten Tausch per Post bieten wir leider nicht an: Schicken Sie die Jeans kostenlos zurück und bestellen Sie die W34 einfach neu – am besten gleich, beliebte Größen sind schnell weg."),
    V("Und geht das auch direkt im Laden in München? Was muss ich mitbringen?"),
], "exchanges")
add(C, "de", [
    V("Meine Vase von euch hat nach ein paar Wochen einen Sprung in der Glasur"),
    A("Das tut mir leid! Schicken Sie uns bitte eine kurze Beschreibung und Fotos mit Ihrer Bestellnummer an service@shop.example. Wir reparieren, ersetzen oder erstatten den Artikel und übernehmen die Versandkosten."),
    V("Ok. Und wie lange hab ich da generell Anspruch drauf?"),
], "warranty")
add(C, "de", [
    V("Wann kann ich euren Kundenservice anrufen?"),
    A("Unser Kundenservice ist Montag bis Freitag von 9 bis 18 Uhr unter +49 30 1234 5678 erreichbar."),
    V("und samstags?"),
], "contact")
add(C, "de", [
    V("Wie pflege ich den Eichentisch am besten?"),
    A("Mit einem feuchten, gut ausgewrungenen Tuch abwischen und danach trocknen. Mikrofasertücher und scharfe Reiniger bitte vermeiden, und ab und zu mit unserem Pflegeset nachölen."),
    V("Wie oft denn?"),
], "care_wood")

# ---------------------------------------------------------------------------
# after_condensation: 1-2 turns plus a condensed summary of the older chat
# ---------------------------------------------------------------------------
C = "after_condensation"
add(C, "en", [
    V("ok so is it actually in stock in my size?"),
], "LS-410-SA", core(
    "Visitor is looking for a linen shirt to wear at a summer wedding and has settled on the Porto in sand.",
    [art("LS-410-SA", "Linen shirt Porto, sand")],
    ["size L", "needs it within two weeks"]))
add(C, "en", [
    V("so what do I do now, and do I have to pay to send it back from here?"),
], "returns", core(
    "Visitor wants to send back a dress from a recent order because it is too small.",
    [order("482913", "Order 482913: Wrap dress Lina, black, size S"), art("WD-260-BK", "Wrap dress Lina, black")],
    ["visitor lives in Ghent, Belgium", "dress unworn, tags still on", "delivered 6 days ago"]))
add(C, "en", [
    A("The grey melange Fell is a lovely everyday jumper – warm without the bulk."),
    V("and when's my size back then?"),
], "MJ-118-GR", core(
    "Visitor wants the Fell merino jumper in grey melange as a present.",
    [art("MJ-118-GR", "Merino jumper Fell, grey melange")],
    ["size L", "birthday is in four weeks"]))
add(C, "en", [
    V("can I just cancel it myself and reorder? nobody's picking up the phone"),
], "change_cancel", core(
    "Visitor ordered chinos in the wrong waist size a few minutes ago and wants to fix it.",
    [order("1048822", "Order 1048822: Chinos Dune, olive, W34"), art("CH-210-OL", "Chinos Dune, olive")],
    ["ordered 10 minutes ago", "wants W32 instead of W34"]))
add(C, "en", [
    V("right, what will getting it to me cost, and will they carry it up?"),
], "furniture_delivery", core(
    "Visitor is furnishing a new flat in Vienna and has picked the large oak dining table.",
    [art("ET-910-200", "Esstisch Eik, 200 x 100 cm")],
    ["delivery address in Vienna, Austria", "4th floor, no lift"]))
add(C, "en", [
    V("so what happens now? do I get my money back or what"),
], "parcel_missing", core(
    "Visitor's parcel is shown as delivered but never arrived.",
    [order("1051190", "Order 1051190: Organic cotton towel Calm, sage, bath sheet")],
    ["tracking says delivered 3 days ago", "neighbours asked, no DHL card in the letterbox"]))
add(C, "en", [
    A("The light grey Crisp set is organic cotton percale with a hidden zip – cool and smooth."),
    V("is it there in the size I need though?"),
], "PC-510-GR", core(
    "Visitor wants crisp cotton bedding for a double bed.",
    [art("PC-510-GR", "Percale duvet cover set Crisp, light grey")],
    ["duvet 200 x 200 cm", "prefers light grey over white"]))
add(C, "en", [
    V("how much extra to have them wrapped, and can I put a little message in?"),
], "gift_wrapping", core(
    "Visitor is buying two birthday presents for her partner and wants them sent straight to him.",
    [art("SC-720-FG", "Scented candle Ember, fig"), art("CS-077-CA", "Cashmere scarf Aura, camel")],
    ["delivery to the partner's office", "partner must not see the prices"]))
add(C, "en", [
    V("what do you need from me to get this sorted?"),
], "warranty", core(
    "Visitor reports that a rain jacket lets water in after about a month of use.",
    [order("1039457", "Order 1039457: Rain jacket Skagen, yellow, M"), art("RJ-150-YE", "Rain jacket Skagen, yellow")],
    ["bought 5 weeks ago", "water comes in at the shoulder seam"]))
add(C, "en", [
    V("have you got enough of those for all of us?"),
], "BT-700-GR", core(
    "Visitor wants matching bath towels in stone grey for the family bathroom.",
    [art("BT-700-GR", "Organic cotton towel Calm, stone grey")],
    ["needs 4 bath towels 70 x 140 cm", "family of four"]))
add(C, "en", [
    A("The ochre Hygge throw is in stock and ready to go."),
    V("will I get charged anything on top when it's delivered?"),
], "international", core(
    "Visitor lives in Zurich and wants to order a wool throw.",
    [art("WT-330-OC", "Wool throw Hygge, ochre")],
    ["delivery to Switzerland", "order value EUR 99"]))
add(C, "en", [
    V("just to double-check, those are ok for reheating food on?"),
], "CP-640-WH", core(
    "Visitor is kitting out a new kitchen and chose the white stoneware plates.",
    [art("CP-640-WH", "Stoneware dinner plate set Kiln, white")],
    ["everything must be dishwasher-safe", "uses the microwave a lot"]))
add(C, "en", [
    V("the link in the email says no info available yet. is something wrong?"),
], "tracking", core(
    "Visitor's order has been dispatched and they want to follow it.",
    [order("1055302", "Order 1055302: Linen shirt Porto, olive, L")],
    ["dispatch e-mail received two hours ago"]))
add(C, "en", [
    V("do I still have to pay the whole invoice or what?"),
], "klarna", core(
    "Visitor paid with Klarna and is sending part of the order back.",
    [order("1047781", "Order 1047781: Merino jumper Fell, navy; Sweatshirt Loop, ecru"), art("SW-190-EC", "Sweatshirt Loop, ecru")],
    ["paid with Klarna Pay in 30 days", "returning only the sweatshirt"]))
add(C, "en", [
    V("so which size would that be and is it in?"),
], "OX-220-LB", core(
    "Visitor wants a light blue Oxford shirt for the office.",
    [art("OX-220-LB", "Oxford shirt Hamilton, light blue")],
    ["chest 110 cm, waist 98 cm", "regular fit is fine"]))
add(C, "en", [
    V("can I just sort it out at the shop in Munich instead of posting it?"),
], "exchanges", core(
    "Visitor bought a merino jumper online in the wrong size and wants a smaller one.",
    [order("1044210", "Order 1044210: Merino jumper Fell, burgundy, M"), art("MJ-118-BU", "Merino jumper Fell, burgundy")],
    ["wants size S", "lives near the Munich store", "delivered 10 days ago"]))
add(C, "en", [
    A("For a UK double our 200 x 200 cm cover is the one that fits."),
    V("great, is that one in stock?"),
], "LB-500-NA", core(
    "Visitor wants linen bedding for a UK double duvet.",
    [art("LB-500-NA", "Linen duvet cover set Nora, natural")],
    ["duvet is a UK double", "natural colour only"]))
add(C, "en", [
    V("so why won't it take the code??"),
], "discount_codes", core(
    "Visitor's newsletter welcome code was rejected at checkout.",
    [art("WD-260-EM", "Wrap dress Lina, emerald (currently reduced)")],
    ["code used: WELCOME10", "the dress is already reduced in the sale"]))
add(C, "en", [
    V("can I spend what's left in your Berlin shop?"),
], "gift_cards", core(
    "Visitor paid part of an online order with a gift card and has a balance left.",
    [order("1050012", "Order 1050012: paid partly with a gift card")],
    ["gift card value EUR 100", "EUR 40 still on the card"]))
add(C, "en", [
    V("does it come with a freight company like the dining tables, with a time slot and all that?"),
], "OT-900-NA", core(
    "Visitor wants a small oak table next to the sofa.",
    [art("OT-900-NA", "Oak side table Rune, natural oak")],
    ["lives on the 3rd floor", "out at work during the day"]))

add(C, "de", [
    V("Sind davon noch welche da?"),
], "LH-310-SW", core(
    "Kundin sucht eine weite Leinenhose für den Sommer und hat sich für Marie in schwarz entschieden.",
    [art("LH-310-SW", "Leinenhose Marie, schwarz")],
    ["Größe M"]))
add(C, "de", [
    V("Wie mach ich das am schlauesten?"),
], "exchanges", core(
    "Kundin hat den Kaschmirpullover Ella in camel bekommen, die Farbe gefällt ihr nicht; sie möchte ihn lieber in grau.",
    [order("2061734", "Bestellung 2061734: Kaschmirpullover Ella, camel, S"), art("KP-120-CA", "Kaschmirpullover Ella, camel")],
    ["Größe S soll bleiben", "Pullover ungetragen"]))
add(C, "de", [
    V("Kann ich die trotzdem noch zurückschicken?"),
], "returns", core(
    "Kunde hat die Ganzjahresbettdecke Traum bekommen, sie ist ihm zu warm.",
    [order("2058820", "Bestellung 2058820: Ganzjahresbettdecke Traum, 155 x 220 cm"), art("BD-540-155", "Ganzjahresbettdecke Traum, 155 x 220 cm")],
    ["Decke ausgepackt und zwei Nächte benutzt", "Lieferung vor 5 Tagen"]))
add(C, "de", [
    A("Das schwarz gebeizte Sideboard ist noch 2-mal vorrätig."),
    V("Und wie lange dauert's, bis das bei mir steht?"),
], "furniture_delivery", core(
    "Kunde möchte das Sideboard Linn in Eiche schwarz gebeizt bestellen.",
    [art("SD-930-SW", "Sideboard Linn, Eiche schwarz gebeizt")],
    ["Lieferadresse Leipzig, Erdgeschoss", "Einzug in 3 Wochen"]))
add(C, "de", [
    V("Geht das noch zu ändern?"),
], "change_cancel", core(
    "Kundin hat vor zwei Stunden bestellt und möchte lieber an ihre Büroadresse liefern lassen.",
    [order("2063391", "Bestellung 2063391: Leinenbluse Ida, hellblau, M")],
    ["Bestellung vor 2 Stunden aufgegeben", "neue Lieferadresse: Büro in Frankfurt"]))
add(C, "de", [
    V("Und wie viele habt ihr da noch?"),
], "JN-200-HB", core(
    "Kunde sucht die Jeans Anton in hellblau.",
    [art("JN-200-HB", "Jeans Straight Fit Anton, hellblau")],
    ["Bundweite W36", "Länge L34"]))
add(C, "de", [
    V("Wann sind die wieder lieferbar?"),
], "HT-620-RS", core(
    "Kundin möchte Waffelpiqué-Duschtücher in rosé für das Gästebad.",
    [art("HT-620-RS", "Waffelpiqué-Handtuch Waffel, rosé")],
    ["Duschtuch 70 x 140 cm", "2 Stück"]))
add(C, "de", [
    V("Macht ihr das und kostet mich das was?"),
], "repair", core(
    "Kundin meldet, dass an ihrer Strickjacke Frida ein Holzknopf abgerissen ist, und möchte ihn wieder annähen lassen.",
    [art("SJ-140-DB", "Strickjacke Frida, dunkelblau")],
    ["gekauft vor 4 Monaten", "Knopf ist noch vorhanden"]))
add(C, "de", [
    V("Und die halten die Spülmaschine aus?"),
], "GL-650-KL", core(
    "Kunde sucht schlichte Wassergläser für den Alltag.",
    [art("GL-650-KL", "Wasserglas-Set Klar, klar")],
    ["6 Stück", "muss spülmaschinenfest sein"]))
add(C, "de", [
    V("Über wie viele Monate kann man das strecken?"),
], "klarna", core(
    "Paar möchte den Esstisch Eik und vier Stühle Bo kaufen und in Raten zahlen.",
    [art("ET-910-160", "Esstisch Eik, 160 x 90 cm"), art("ST-920-NA", "Stuhl Bo, natur")],
    ["Gesamtbetrag ca. 2.046 EUR", "Rechnungsadresse in Österreich"]))
add(C, "de", [
    V("Was muss ich dann zum Abholen mitnehmen?"),
], "click_collect", core(
    "Kundin möchte den Wollmantel Greta online bestellen und im Geschäft abholen.",
    [art("WM-160-CA", "Wollmantel Greta, camel")],
    ["Größe M", "Abholung in Berlin-Mitte"]))
add(C, "de", [
    V("Kann ich mir die restlichen 20 € auch bar auszahlen lassen?"),
], "gift_cards", core(
    "Kunde hat einen Geschenkgutschein von seiner Oma teilweise online eingelöst.",
    [order("2060087", "Bestellung 2060087: teilweise mit Gutschein bezahlt")],
    ["Gutscheinwert 50 EUR", "Restguthaben 20 EUR"]))
add(C, "de", [
    V("Ab welchem Betrag ist der Versand zu mir kostenlos?"),
], "shipping", core(
    "Kundin wohnt in Rotterdam und bestellt Bettwäsche und Handtücher.",
    [art("BW-530-WS", "Satin-Bettwäsche Nacht, weiß"), art("HT-620-SA", "Waffelpiqué-Handtuch Waffel, salbei")],
    ["Lieferung in die Niederlande", "Warenkorb derzeit 79 EUR"]))
add(C, "de", [
    V("Schaff ich das noch, und mit welcher Versandart?"),
], "holiday", core(
    "Kunde möchte Geschenke noch vor Heiligabend innerhalb Deutschlands bekommen.",
    [art("KH-610-PE", "Samt-Kissenhülle Velours, petrol"), art("MT-335-CR", "Strickdecke Zopf, creme")],
    ["heute ist der 20. Dezember", "Lieferadresse Bremen"]))
add(C, "de", [
    V("Wann ist die wieder da?"),
], "TD-600-WS", core(
    "Kundin braucht die Leinentischdecke Tafel in weiß für eine Feier.",
    [art("TD-600-WS", "Leinentischdecke Tafel, weiß")],
    ["Größe 140 x 250 cm", "Feier in 5 Wochen"]))
add(C, "de", [
    V("Was ist da genau drin?"),
], "KK-520-8080", core(
    "Kunde sucht ein großes Kopfkissen.",
    [art("KK-520-8080", "Daunenkopfkissen Wolke, 80 x 80 cm")],
    ["80 x 80 cm", "soll weich und bauschig sein"]))
add(C, "de", [
    V("Also nehm ich die größere oder die kleinere?"),
], "size_women", core(
    "Kundin sucht eine Leinenhose und liegt mit ihren Maßen zwischen zwei Größen.",
    [art("LH-310-OG", "Leinenhose Marie, olivgrün")],
    ["Brust 90, Taille 75, Hüfte 99 cm", "zwischen M und L"]))
add(C, "de", [
    V("Warum zwei Nummern, kommt das getrennt? Das zweite seh ich noch gar nicht"),
], "tracking", core(
    "Kunde hat eine Versandbestätigung erhalten und wundert sich über die Sendungsnummern.",
    [order("2059904", "Bestellung 2059904: T-Shirt Basic weiß; Wollsocken Alpin natur")],
    ["zwei Sendungsnummern in der Versandmail", "bisher ein Paket angekommen"]))
add(C, "de", [
    A("Wir geben nur die für die Zahlung nötigen Daten an Klarna weiter."),
    V("Und wie lange hebt ihr meine Rechnungen und Daten auf?"),
], "privacy", core(
    "Kundin hat gefragt, welche persönlichen Daten bei einer Bestellung an Dritte gehen.",
    [order("2062275", "Bestellung 2062275: per Klarna Rechnung bezahlt")],
    ["Zahlung per Klarna Rechnung"]))
add(C, "de", [
    V("Kann man die übereinander stellen?"),
], "ST-920-SW", core(
    "Kunde plant eine Essecke mit den Stühlen Bo in schwarz.",
    [art("ST-920-SW", "Stuhl Bo, schwarz")],
    ["6 Stühle", "wenig Platz, Stühle sollen zwischendurch weggeräumt werden"]))

# ---------------------------------------------------------------------------
# multi_product: two or more products named; the last question needs one or
# several of them, or a service page
# ---------------------------------------------------------------------------
C = "multi_product"
add(C, "en", [
    V("for the office, should I get the white Porto linen shirt or the white Hamilton oxford?"),
    A("Both work for the office. The Porto is garment-washed linen (EUR 59.00), breathable and great on hot days; the Hamilton is sturdy organic cotton Oxford cloth (EUR 49.00), regular fit, and gets softer with every wash."),
    V("which of the two can I chuck in the dryer?"),
], ["LS-410-WH", "OX-220-WH"])
add(C, "en", [
    V("torn between the navy Fell merino and the grey Loop sweatshirt"),
    A("The Merino jumper Fell in navy is a fine knit in extra-fine merino, warm without bulk (EUR 89.00). The Sweatshirt Loop in grey melange is heavyweight organic cotton loopback with a slightly boxy fit (EUR 59.00)."),
    V("merino it is. M in stock?"),
], "MJ-118-NV")
add(C, "en", [
    V("packing for Lisbon – thinking the black Lina wrap dress and the white Sola linen dress"),
    A("Nice combo. The Lina is a flowing midi wrap dress in ECOVERO viscose with long sleeves (EUR 79.00); the Sola is a sleeveless A-line linen dress with side pockets (EUR 95.00)."),
    V("the linen one's probably cooler. is S still there?"),
], "LD-270-WH")
add(C, "en", [
    V("want the olive Dune chinos in W32 and the black Ridge belt in 90"),
    A("Both are available: the olive chinos in W32 are in stock (EUR 69.00), and the black belt in 90 cm has only 2 left (EUR 55.00)."),
    V("if I get both, is delivery to Stuttgart free?"),
], "shipping")
add(C, "en", [
    V("Nora linen vs Crisp percale, both in white – which is nicer in summer?"),
    A("Both are good in summer: percale feels cool and crisp, linen is breathable and gets softer with every wash. The Nora is stonewashed linen with coconut buttons, the Crisp organic cotton percale with a hidden zip."),
    V("which is cheaper in 155 x 220?"),
], ["LB-500-WH", "PC-510-WH"])
add(C, "en", [
    V("I'd like the white Kiln dinner plates and the matching mugs"),
    A("The white Kiln plate set has 4 plates, 27 cm, for EUR 59.00. The matching white Kiln mug holds 350 ml and costs EUR 16.00. Both are in stock."),
    V("do the mugs come in a set of 4 as well or one by one?"),
], "ML-650-WH")
add(C, "en", [
    V("christmas shopping: fig Ember candle for my sister, blue Tide vase for my mum and the charcoal Aura scarf for my dad"),
    A("Lovely choices! The candle is EUR 32.00 (only 3 left), the vase EUR 45.00 and the scarf EUR 119.00."),
    V("can you wrap them up nicely and pop a card in?"),
], "gift_wrapping")
add(C, "en", [
    V("I need the navy Skagen jacket in L, and the black Harbour tote"),
    A("Both are in stock: the navy jacket in L is EUR 129.00 and the black tote EUR 29.00."),
    V("the jacket – can it go in the washing machine?"),
], "RJ-150-NV")
add(C, "en", [
    V("what's the difference between your Calm towels in sage and the Waffel ones in salbei?"),
    A("The Calm is a thick, absorbent organic cotton terry towel, 600 g/m², with a hanging loop. The Waffel is a light waffle piqué cotton towel that dries quickly."),
    V("ok and how much is a hand-sized one of each?"),
], ["BT-700-SG", "HT-620-SA"])
add(C, "en", [
    V("I've bought the ochre Hygge throw and the camel Aura scarf as presents for myself lol"),
    A("Treat yourself! Both are really soft: the throw is brushed lambswool, the scarf 100% cashmere."),
    V("how do I clean them without wrecking them?"),
], "care_wool")
add(C, "en", [
    V("for my living room: the natural Linn sideboard and the natural oak Rune side table"),
    A("Good match – both are solid oak with an oil finish. The sideboard is 180 x 45 x 75 cm (EUR 1,190.00), the side table is round, 45 cm across and 50 cm high (EUR 249.00)."),
    V("the little round one, does that arrive in one piece or do I have to build it?"),
], "OT-900-NA")
add(C, "en", [
    V("buying for my husband: the light blue Hamilton shirt and the navy Dune chinos"),
    A("Good combination! The shirt is EUR 49.00, the chinos EUR 69.00."),
    V("he's 100cm chest and 88cm waist – what sizes do I go for in both?"),
], "size_men")
add(C, "en", [
    V("I ordered the emerald Lina dress and the terracotta Sola dress, keeping the Sola"),
    A("Great, the Sola looks lovely in terracotta! For the Lina you have 30 days from delivery to send it back."),
    V("I paid with paypal, how fast do I get the money for the Lina back?"),
], "returns")
add(C, "en", [
    V("I've got the speckled sand Kiln mugs and plates, now eyeing up the matte white Tide vase"),
    A("They'd go nicely together. The Tide vase is hand-thrown in Porto, 25 cm high, EUR 45.00 – only 2 left in matte white."),
    V("can the vase go in the dishwasher like the plates?"),
], "VA-660-WH")
add(C, "en", [
    V("getting the sand Porto shirt and the cognac Ridge belt for summer"),
    A("Nice pairing. The shirt is EUR 59.00, the belt EUR 55.00 – full-grain vegetable-tanned leather with a brass buckle."),
    V("how do I look after the belt so it lasts?"),
], "BL-060-BR")
add(C, "en", [
    V("want the ecru Loop sweatshirt and the natural Harbour tote, they'd look great together"),
    A("They would! The tote is EUR 29.00 and in stock, the sweatshirt EUR 59.00."),
    V("sweatshirt in M?"),
], "SW-190-EC")
add(C, "en", [
    V("ordering the grey Crisp percale set and a Wolke down pillow 80x80"),
    A("The light grey Crisp set comes with a pillowcase, and the Daunenkopfkissen Wolke in 80 x 80 cm is EUR 69.00."),
    V("if the pillow's too firm once I've slept on it, can I still send it back?"),
], "returns")
add(C, "en", [
    V("presents for my parents: the grey melange Fell jumper, charcoal Aura scarf and the grey Hygge throw"),
    A("Great selection – together that's EUR 307.00 (jumper 89, scarf 119, throw 99)."),
    V("can I split that into 3 payments?"),
], "klarna")
add(C, "en", [
    V("we want the Eik table in 160 and 6 Bo chairs in natural"),
    A("Lovely set-up. The Esstisch Eik 160 x 90 cm is EUR 1,290.00 and the Stuhl Bo in natural EUR 189.00 each – both in stock."),
    V("what would getting all that to Salzburg cost us?"),
], "furniture_delivery")
add(C, "en", [
    V("I want the white Sola linen dress and the white Ida linen blouse"),
    A("Both are 100% European linen. The dress is EUR 95.00, the blouse EUR 69.00 – the white blouse is only available in XS and XL right now, though."),
    V("I'm between S and M in your chart – for linen do I go up or down?"),
], "size_women")

add(C, "de", [
    V("Ich will die Leinenhose Marie in sand und die Leinenbluse Ida in hellblau kombinieren"),
    A("Schöne Kombi! Die Hose kostet 79,00 EUR, die Bluse 69,00 EUR, beide aus europäischem Leinen."),
    V("Die Bluse, gibt's die in M?"),
], "LB-315-HB")
add(C, "de", [
    V("Passt der graue Kaschmirpullover Ella unter den grauen Wollmantel Greta?"),
    A("Ja, der Pullover ist fein genug und der Mantel bietet genug Platz. Pullover 169,00 EUR, Mantel 249,00 EUR."),
    V("Den Mantel, welche Größen sind da noch da?"),
], "WM-160-GR")
add(C, "de", [
    V("Frida Strickjacke creme und ein weißes Basic Shirt sind im Warenkorb"),
    A("Gern! Strickjacke 89,00 EUR, T-Shirt 25,00 EUR."),
    V("Kostet mich das Schicken nach Köln dann noch was?"),
], "shipping")
add(C, "de", [
    V("Ich nehm die schwarze Anton Jeans in W32 und dazu den schwarzen Ridge Gürtel"),
    A("Gute Wahl. Die Jeans in W32 ist vorrätig (99,00 EUR), der Ledergürtel Ridge in schwarz kostet 55,00 EUR."),
    V("Welche Länge brauch ich beim Gürtel für W32?"),
], "BL-060-BK")
add(C, "de", [
    V("Ich hab die Traum Bettdecke in 155x220, passt da die Satin-Bettwäsche Nacht in anthrazit drauf?"),
    A("Ja, die Satin-Bettwäsche Nacht gibt es auch in 155 x 220 cm, passend zu Ihrer Decke."),
    V("Ist die in der Größe gerade da?"),
], "BW-530-AN")
add(C, "de", [
    V("Wir nehmen den Eik Esstisch 200x100 und das schwarze Sideboard Linn"),
    A("Schöne Kombination! Esstisch 1.590,00 EUR, Sideboard 1.190,00 EUR. Beides kommt per Spedition."),
    V("Was kostet die Lieferung und tragen die das auch bis ins Wohnzimmer?"),
], "furniture_delivery")
add(C, "de", [
    V("Für den Tisch: die Leinentischdecke in natur, die rauchgrauen Wassergläser und die Kiln Teller in weiß"),
    A("Sehr stimmig! Die Tischdecke gibt es ab 69 EUR, das Gläser-Set kostet 36,00 EUR, das Teller-Set 59,00 EUR."),
    V("Die Gläser, sind die spülmaschinenfest?"),
], "GL-650-RG")
add(C, "de", [
    V("Ich will Samtkissenhüllen in altrosa und senf zur cremefarbenen Strickdecke Zopf"),
    A("Das wird gemütlich! Die Hüllen kosten je 29,00 EUR, die Strickdecke 79,00 EUR – von der sind nur noch 2 Stück da."),
    V("Von den altrosa bräuchte ich 4, habt ihr so viele?"),
], "KH-610-RS")
add(C, "de", [
    V("Für meinen Vater die grauen Filzhausschuhe und die anthrazit Wollsocken"),
    A("Gute Idee gegen kalte Füße! Hausschuhe 49,00 EUR, Socken im 3er-Pack 29,00 EUR."),
    V("Kann man die Hausschuhe waschen?"),
], "HS-090-GR")
add(C, "de", [
    V("Was ist der Unterschied zwischen dem weißen Waffel Handtuch und dem weißen Calm?"),
    A("Das Waffel ist leicht und trocknet schnell, aus Waffelpiqué; das Calm ist dickes, saugstarkes Frottee aus Bio-Baumwolle."),
    V("Welches ist als großes Duschtuch günstiger?"),
], ["HT-620-WS", "BT-700-WH"])
add(C, "de", [
    V("Ich überlege Stuhl Bo natur zum Esstisch Eik 160"),
    A("Passt gut – Buche natur zur geölten Eiche. Stuhl 189,00 EUR, Tisch 1.290,00 EUR."),
    V("Passt die Sitzhöhe zur Tischhöhe?"),
], ["ST-920-NA", "ET-910-160"])
add(C, "de", [
    V("Hab den Ella Kaschmirpulli in rosé und den Aura Schal in camel gekauft"),
    A("Schöne Kombination! Beides ist reiner Kaschmir."),
    V("Wie wasch ich die am besten, ohne dass sie kaputtgehen?"),
], "care_wool")
add(C, "de", [
    V("Ich nehme das Wolke Kissen in 80x80 und die weiße Satin-Bettwäsche Nacht"),
    A("Gern! Das Kissen kostet 69,00 EUR, die Bettwäsche ab 79 EUR."),
    V("Ist bei der Bettwäsche ein Bezug dabei, der aufs Kissen passt?"),
], ["BW-530-WS", "KK-520-8080"])
add(C, "de", [
    V("Hab den Greta Mantel in camel und die Frida Strickjacke in dunkelblau bekommen. Strickjacke passt, der Mantel in M ist zu groß"),
    A("Schön, dass die Strickjacke passt! Beim Mantel helfe ich gern weiter."),
    V("Ich will den in S haben, wie geht das?"),
], "exchanges")
add(C, "de", [
    V("Partnerlook: ich die olivgrüne Leinenhose Marie, mein Freund das Porto Leinenhemd in oliv"),
    A("Schöne Idee! Die Hose kostet 79,00 EUR, das Hemd 59,00 EUR."),
    V("Das Hemd: er hat 106 cm Brust, welche Größe und ist die da?"),
], "LS-410-OL")
add(C, "de", [
    V("Wohnzimmer neu: Sideboard Linn in natur und der kleine runde Rune Beistelltisch"),
    A("Beide aus massiver Eiche, das passt gut. Sideboard 1.190,00 EUR, Beistelltisch 249,00 EUR."),
    V("Und wenn das Sideboard dann doch nicht passt, kann ich das zurückgeben? Was kostet mich das?"),
], "furniture_returns")
add(C, "de", [
    V("Grau melierte Basic Shirts und den grauen Loop Sweater, beides für meinen Sohn"),
    A("Gern! T-Shirt 25,00 EUR, Sweatshirt 59,00 EUR."),
    V("Das T-Shirt in M, wie viele gibt's noch?"),
], "TS-180-GR")
add(C, "de", [
    V("Für meine Mutter in Wien: die blau gestreifte Tischdecke und die Kiln Teller in speckled sand"),
    A("Schönes Geschenk! Tischdecke ab 69 EUR, Teller-Set 59,00 EUR."),
    V("Kann das schön eingepackt und ohne Preise direkt zu ihr gehen?"),
], "gift_wrapping")
add(C, "de", [
    V("Ich such Hosen in W30: die hellblaue Anton Jeans und die beigen Dune Chinos"),
    A("Beides Herrenhosen mit mittlerer Leibhöhe; die Jeans kostet 99,00 EUR, die Chinos 69,00 EUR."),
    V("Sind die beide in W30 grad da?"),
], ["JN-200-HB", "CH-210-BE"])
add(C, "de", [
    V("Graue Strickdecke Zopf oder graue Hygge Wolldecke fürs Sofa?"),
    A("Die Strickdecke Zopf ist aus Bio-Baumwolle mit Zopfmuster, 130 x 170 cm (79,00 EUR); die Hygge ist gebürstete Lammwolle mit Fransen, 130 x 180 cm (99,00 EUR)."),
    V("Welche kann ich einfach in die Waschmaschine stecken? Wir haben Katzen"),
], ["MT-335-GR", "WT-330-GR"])


def main():
    counters = {}
    out = []
    for category, lang, turns, core_, expect in ROWS:
        counters[category] = counters.get(category, 0) + 1
        out.append({
            "id": "%s-%03d" % (category, counters[category]),
            "lang": lang,
            "category": category,
            "part": "dev",
            "turns": turns,
            "core": core_,
            "expect": expect,
        })
    with open(os.path.join(HERE, "conversations.jsonl"), "w", encoding="utf-8") as f:
        for row in out:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print("wrote %d conversations" % len(out))


if __name__ == "__main__":
    main()
