import json, os

def V(t): return {"role": "visitor", "text": t}
def A(t): return {"role": "assistant", "text": t}

PG = {
 "shipping": ["page-en-shipping", "page-de-versand"],
 "express": ["page-en-express", "page-de-express"],
 "international": ["page-en-international", "page-de-international"],
 "furniture_delivery": ["page-en-furniture-delivery", "page-de-spedition"],
 "holiday": ["page-en-holiday-delivery", "page-de-feiertage"],
 "click_collect": ["page-en-click-collect", "page-de-abholung"],
 "tracking": ["page-en-tracking", "page-de-sendungsverfolgung"],
 "missing": ["page-en-parcel-missing", "page-de-paket-fehlt"],
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
def P(*topics):
    out = []
    for t in topics: out += PG[t]
    return out

def O(kind, id_, label): return {"kind": kind, "id": id_, "label": label}

rows = []
def add(cat, lang, turns, expect, core=None):
    rows.append({"category": cat, "lang": lang, "turns": turns, "core": core, "expect": expect})

# ---------------------------------------------------------------- paraphrase
C = "paraphrase"
add(C, "en", [V("my package was meant to come tuesday, it's thursday now. dhl says it was dropped off but there's literally nothing at my door")], P("missing"))
add(C, "en", [V("Instead of waiting around for the postman, could I just grab my order at your Berlin shop on my way home?")], P("click_collect"))
add(C, "en", [V("the zip on the duvet cover I got from you gave up after two weeks. what can you do about that?")], P("warranty"))
add(C, "en", [V("I stupidly ordered a medium when I need a large. How do I get the right one?")], P("exchanges"))
add(C, "en", [V("do you take the iphone tap-to-pay thing at checkout?")], P("payment"))
add(C, "en", [V("That dining table is a lot of money in one go. Is there a way to spread it over several months?")], P("klarna"))
add(C, "en", [V("My grandad lives in Zurich. Can you post things to him, and will the poor man get hit with fees at the door?")], P("international"))
add(C, "en", [V("It's the 20th of December already - if I order a present today, is there any chance it's under the tree in Cologne on the 24th?")], P("holiday"))
add(C, "en", [V("I'm after a breezy men's top with a proper collar for a sweltering office, ideally in a pale summer-sky colour")], ["LS-410-SB"])
add(C, "en", [V("Something has been eating holes in my jumpers in the wardrobe. How should I be storing them? Is hanging them up ok?")], P("care_wool"))
add(C, "en", [V("our cat jumped on the little round side table we bought from you and left scratch marks on the top. can I sort that out myself or is it ruined?")], P("care_wood"))
add(C, "en", [V("I can't get into my profile on your site any more, I have no idea what I typed as my login back then")], P("account"))
add(C, "en", [V("I hit buy too quickly and the parcel is going to my old flat. Is it too late to point it to the new street?")], P("change_cancel"))
add(C, "en", [V("Is there anywhere I can actually sit on your dining chairs before I buy four of them?")], P("stores"))
add(C, "en", [V("It's for my wife's birthday - can you make the parcel look nice and leave the prices off the paperwork?")], P("gift_wrapping"))
add(C, "de", [V("hab vor 3 wochen nen pulli gekauft und jetzt hat der überall so kleine kügelchen drauf?? ist das normal oder kann ich den reklamieren")], P("care_wool", "warranty"))
add(C, "de", [V("was kostet es wenn ihr mir was nach wien schickt")], P("shipping"))
add(C, "de", [V("kann ich mir das auch an so eine gelbe dhl-station schicken lassen, bin tagsüber nie daheim")], P("shipping"))
add(C, "de", [V("bei meinem pulli von euch ist am ärmel die naht offen, ist jetzt aber schon fast 3 jahre alt. macht ihr sowas noch heile?")], P("repair"))
add(C, "de", [V("wenn mir die klamotten nicht gefallen, muss ich dann das porto fürs zurückschicken selber zahlen? wohn in graz")], P("returns"))
add(C, "de", [V("hab nen code aus dem newsletter und noch einen von meiner freundin bekommen, kann ich die beide auf einmal einlösen?")], P("discount"))
add(C, "de", [V("ich hab zu weihnachten 2022 so eine karte mit guthaben von euch bekommen und nie benutzt, gilt die überhaupt noch?")], P("gift_cards"))
add(C, "de", [V("woher kommt eigentlich eure wolle, werden die schafe da anständig behandelt?")], P("sustainability"))
add(C, "de", [V("habt ihr auch überzüge für ne richtig große zudecke, 240 x 220?")], P("bedding_sizes"))
add(C, "de", [V("wann seid ihr telefonisch erreichbar, auch samstags?")], P("contact"))
add(C, "de", [V("wer betreibt den shop eigentlich? bräuchte firmenname, anschrift und handelsregisternummer für meine unterlagen")], P("impressum"))
add(C, "de", [V("was macht ihr mit meiner adresse und so wenn ich bestelle, verkauft ihr das weiter?")], P("privacy"))
add(C, "de", [V("kann ich das sideboard auch abstottern? 1190 auf einmal is grad bisschen viel")], P("klarna"))
add(C, "de", [V("wir wohnen im 3. stock ohne aufzug, tragen die den esstisch bis in die wohnung hoch oder bleibt der unten auf der straße stehen?")], P("furniture_delivery"))
add(C, "de", [V("mein mann hat den falschen tisch bestellt, viel zu groß für unsere küche. wie werden wir das ding wieder los und kostet das was?")], P("furniture_returns"))

# ---------------------------------------------------------------- subject_change
C = "subject_change"
add(C, "en", [
  V("Hi, is the navy merino jumper Fell available in M?"),
  A("Yes, the Merino jumper Fell in navy is in stock in M - in fact all sizes from XS to XL are available. It's EUR 89.00, 100% extra-fine mulesing-free merino."),
  V("great, putting it in the basket. can I pay with paypal?")], P("payment"))
add(C, "en", [
  V("I'm thinking of getting the Lina wrap dress in emerald for my wife, she's usually a 38."),
  A("Size M corresponds to EU 38 and the emerald Lina is in stock in M. It's a midi wrap dress in LENZING ECOVERO viscose with long sleeves, EUR 79.00."),
  V("lovely. and can I return it if she doesn't like it?")], P("returns"))
add(C, "en", [
  V("how bright is the yellow on the Skagen rain jacket? I want to be seen on my bike"),
  A("It's a proper signal yellow - very visible. The jacket has taped seams, a hood and a 10,000 mm water column. In yellow it's currently in stock in XS and M, with only 2 left in L."),
  V("ok good. totally different thing - do you also sell big fluffy bath sheets, sort of sage green?")], ["BT-700-SG"])
add(C, "en", [
  V("The Rune side table, is the black one solid wood or veneer?"),
  A("It's solid FSC oak from Saxony, black-stained, with a natural oil finish. 45 cm diameter, 50 cm high, EUR 249.00 - only 4 left in black."),
  V("nice"),
  A("It comes fully assembled, so you just unpack it."),
  V("How many days would it take to reach me in Amsterdam?")], P("shipping"))
add(C, "en", [
  V("Does the Nora linen duvet set come with pillowcases?"),
  A("Yes - the 135 x 200 and 155 x 220 sets come with one 80 x 80 pillowcase, the 200 x 200 set with two. The fabric is stonewashed European linen with coconut buttons."),
  V("Great, I actually ordered the sage one yesterday. But we're moving on Friday - can you still send it to the new address instead?")], P("change_cancel"))
add(C, "en", [
  V("Do the Dune chinos in beige have stretch?"),
  A("Yes, they're 98% organic cotton with 2% elastane, slim straight fit, mid-rise. In beige W32, W34 and W36 are in stock; W30 is back in about 3 weeks."),
  V("ok cool. what time does your Hamburg store close on saturdays?")], P("stores"))
add(C, "en", [
  V("which of the Ember candles smells more like autumn?"),
  A("The fig is fruity and sweet, the cedarwood is warm and woody - most people find cedarwood more autumnal. Both are 200 g soy wax with about 45 hours of burn time."),
  V("I'll go for cedarwood. it's for my sister, can you send it straight to her with a little note from me?")], P("gift_wrapping"))
add(C, "en", [
  V("Are the Kiln dinner plates all exactly the same?"),
  A("Not quite - the reactive glaze makes every plate a little different, which is part of the charm. They come as a set of 4, 27 cm, dishwasher and microwave safe."),
  V("Ah, about that - one of the plates I bought last month now has a hairline crack across the glaze. What do I do?")], P("warranty"))
add(C, "en", [
  V("I'm looking at the Aura scarf in camel as a present for my aunt."),
  A("Good choice - it's 100% cashmere woven in Scotland, 180 x 30 cm with fringed ends, EUR 119.00, and in stock."),
  V("hmm she's really picky though. if I get her a voucher instead, how long would she have to use it?")], P("gift_cards"))
add(C, "en", [
  V("Is the pink stripe Hamilton shirt still available in L?"),
  A("Yes, L is in stock in pink stripe. XL is sold out at the moment and back in about 3 weeks."),
  V("Just ordered it. How will I know where the parcel is once it leaves?")], P("tracking"))
add(C, "en", [
  V("Is the big Eik dining table, the 200 cm one, in stock?"),
  A("Yes, the Eik dining table 200 x 100 cm is available. It's solid FSC oak, natural oiled, 4 cm top, EUR 1,590.00, delivered by freight carrier."),
  V("Could you deliver it to my holiday flat in Switzerland?")], P("international"))
add(C, "en", [
  V("will a 14 inch laptop fit in the Harbour tote?"),
  A("Yes, the Harbour tote is 42 x 38 x 12 cm and fits laptops up to 14 inches. It also has an inner zip pocket."),
  V("perfect, I'll take the black. unrelated but do you have a chunky knitted cardigan for women in a creamy off-white?")], ["SJ-140-CR"])
add(C, "en", [
  V("I wanted the ecru Loop sweatshirt in M but it says sold out"),
  A("That's right, ecru in M and S is sold out and should be back in about 3 weeks. XS and XL are in stock and L has 2 left."),
  V("I'll wait then. Is there some way to get an email when new stuff or a sale comes out?")], P("newsletter"))
add(C, "en", [
  V("How big is the Hygge throw in ochre?"),
  A("It's 130 x 180 cm, brushed lambswool with fringes, woven in Lithuania. EUR 99.00 and in stock."),
  V("ok. separate question - I got a 15% code from an instagram post but at checkout it just says invalid??")], P("discount"))
add(C, "en", [
  V("Is the Sola dress in terracotta lined?"),
  A("The description doesn't mention a lining - the Sola is a simple sleeveless A-line dress in mid-weight European linen with side pockets and a square neckline."),
  V("Ok thanks. Totally different thing: I ordered something else last week and it just never arrived, the tracking hasn't moved since Monday.")], P("missing"))
add(C, "de", [
  V("die leinenhose marie in schwarz, gibts die noch in M?"),
  A("Ja, in Schwarz haben wir die Marie in M noch – allerdings nur noch 3 Stück. XS, S, L und XL sind ebenfalls vorrätig."),
  V("super. kann ich das dann auf rechnung zahlen?")], P("klarna", "payment"))
add(C, "de", [
  V("ist der kaschmirpullover ella in rosé eher rosa oder eher beige?"),
  A("Das Rosé ist ein zartes, gedecktes Rosa, eher pudrig als knallig. Der Pullover ist aus 100 % Kaschmir mit Rundhals, 169,00 EUR."),
  V("okay, den will ich. kann ich den in münchen im laden abholen statt liefern lassen?")], P("click_collect"))
add(C, "de", [
  V("wollmantel greta camel in L?"),
  A("Leider ist der Greta in Camel in L gerade ausverkauft, er sollte in ca. 3 Wochen wieder da sein. XS, M und XL sind vorrätig, S nur noch 3 Stück."),
  V("schade. andere frage, habt ihr warme hausschuhe in rot, größe 41?")], ["HS-090-RT"])
add(C, "de", [
  V("fällt die anton jeans eng aus?"),
  A("Die Anton hat eine gerade Beinform mit mittlerer Leibhöhe, also weder eng noch weit. Durch 2 % Elasthan ist sie angenehm bequem."),
  V("ok dann nehm ich die dunkelblaue in 32. wie lange braucht ein paket zu meinem bruder nach kopenhagen?")], P("shipping"))
add(C, "de", [
  V("satin bettwäsche nacht anthrazit in 155x220?"),
  A("Die ist in 155 x 220 cm leider ausverkauft, wieder da in ca. 3 Wochen. In 135 x 200 cm gibt es noch 3 Stück, in Weiß sind beide Größen vorrätig."),
  V("hm ok. ich hab gestern schon was anderes bestellt, wo kann ich sehen wie weit das schon ist?")], P("tracking"))
add(C, "de", [
  V("ist das daunenkissen wolke eher fest oder weich?"),
  A("Das Wolke ist weich und bauschig, gefüllt mit 90 % Daunen und 10 % Federn, Downpass-zertifiziert. Das 80 x 80 cm kostet 69,00 EUR."),
  V("und wenn ichs auspack und es ist mir doch zu weich, kann ich's zurückschicken?")], P("returns"))
add(C, "de", [
  V("ich schwanke beim esstisch eik zwischen 160 und 200, wir sind meist zu sechst"),
  A("Für sechs Personen reicht der 160 x 90 cm gut, mit 200 x 100 cm haben Sie mehr Luft und es passen auch acht. Beide sind aus massiver Eiche mit 4 cm Platte."),
  V("dann der 160er. wie lange dauert das bis der kommt und stellen die den auch ins wohnzimmer?")], P("furniture_delivery"))
add(C, "de", [
  V("t-shirt basic weiß in xxl noch da?"),
  A("Ja, in XXL haben wir das weiße Basic noch 3 Stück. Es ist ein schweres Unisex-Shirt aus 180 g/m² Bio-Baumwolle, 25,00 EUR."),
  V("top. bin übrigens in hamburg, habt ihr da nen laden und wie lang hat der auf?")], P("stores"))
add(C, "de", [
  V("die strickdecke zopf, ist die kratzig?"),
  A("Nein, die Zopf ist aus 100 % Bio-Baumwolle und kratzt nicht. 130 x 170 cm, in Creme und Grau noch je 2 Stück."),
  V("ok creme bitte. kann ich mit paypal zahlen und wird das sofort abgebucht?")], P("payment"))
add(C, "de", [
  V("die samt kissenhülle in senf, ist da ein inlett dabei?"),
  A("Nein, die Velours-Hülle 45 x 45 cm kommt ohne Füllung. Sie hat einen verdeckten Reißverschluss, Rückseite aus Leinen. In Senf gibt es noch 2 Stück."),
  V("ok danke. ganz andere sache: laut dhl wurde mein paket gestern zugestellt aber es ist nirgends. was nu?")], P("missing"))
add(C, "de", [
  V("sideboard linn schwarz, wie breit genau?"),
  A("Das Linn misst 180 x 45 x 75 cm (B x T x H), mit zwei Schiebetüren und zwei Schubladen. In Eiche schwarz gebeizt sind nur noch 2 Stück da."),
  V("passt. hab grad noch gesehen ihr habt so ne gelbe regenjacke, gibts die in S?")], ["RJ-150-YE"])
add(C, "de", [
  V("sind die rauchgrauen gläser spülmaschinenfest?"),
  A("Ja, das Wasserglas-Set Klar in Rauchgrau ist spülmaschinengeeignet. 6 mundgeblasene Gläser à 300 ml, stapelbar, 36,00 EUR."),
  V("gut. wollte noch fragen ob ihr auch in die schweiz liefert, meine tante wohnt in basel")], P("international"))
add(C, "de", [
  V("filzhausschuhe stube grau größe 37?"),
  A("Die grauen Stube sind in 37 leider ausverkauft, in ca. 3 Wochen wieder da. 36 und 38 sind vorrätig; bei halben Größen lieber eine Nummer größer nehmen."),
  V("mist, hab vor ner stunde schon was anderes bestellt und wollte die dazu. kann ich die bestellung noch stornieren?")], P("change_cancel"))
add(C, "de", [
  V("waffelhandtuch salbei, wie groß ist das kleine?"),
  A("Das Handtuch misst 50 x 100 cm und kostet 19 EUR, davon sind in Salbei noch 2 Stück da. Das Duschtuch 70 x 140 cm ist vorrätig."),
  V("danke. sag mal, mein cardigan von euch hat ein loch am ellbogen, wie lange dauert sowas bei euch zu reparieren?")], P("repair"))
add(C, "de", [
  V("leinenbluse ida weiß in S?"),
  A("In Weiß ist die Ida in S leider ausverkauft, wieder da in ca. 3 Wochen. In Hellblau ist S vorrätig."),
  V("hmm ne, dann schenk ich meiner schwester lieber nen gutschein. kann man den per mail verschicken?")], P("gift_cards"))

# ---------------------------------------------------------------- followup
C = "followup"
add(C, "en", [
  V("Porto linen shirt in white - do you have M?"),
  A("Yes, the white Porto is in stock in M. It's also available in sky blue, sand and olive."),
  V("and in olive?")], ["LS-410-OL"])
add(C, "en", [
  V("I'd like the Fell jumper in grey melange, size L"),
  A("Sorry, grey melange is sold out in L right now - it should be back in about 3 weeks. S and M are in stock."),
  V("what about the burgundy one?")], ["MJ-118-BU"])
add(C, "en", [
  V("is the navy Skagen jacket actually waterproof or just showerproof?"),
  A("It's fully waterproof: recycled polyester with PU coating, taped seams and a 10,000 mm water column."),
  V("can it go in the washing machine?")], ["RJ-150-NV"])
add(C, "en", [
  V("hamilton oxford in white, XL?"),
  A("Yes, the white Hamilton is in stock in XL, EUR 49.00."),
  V("ok and the striped one?")], ["OX-220-PS"])
add(C, "en", [
  V("Do you have the Dune chinos in navy in W30?"),
  A("Yes, but only 2 left in navy W30."),
  V("Hmm. Olive, same size?")], ["CH-210-OL"])
add(C, "en", [
  V("Crisp percale set in white for a 200x200 duvet - available?"),
  A("Yes, the white Crisp set is in stock in 200 x 200 cm, EUR 129."),
  V("same in grey?")], ["PC-510-GR"])
add(C, "en", [
  V("how much is the white Calm hand towel?"),
  A("The hand towel (50 x 100 cm) is EUR 14 - only 2 left in white."),
  V("and the biggest size?")], ["BT-700-WH"])
add(C, "en", [
  V("How tall is the blue Tide vase?"),
  A("It's 25 cm high with an 8 cm opening, hand-thrown in Porto."),
  V("Is the white one the same shape?"),
  A("Yes, same shape and size - only the glaze differs (matte white)."),
  V("any left?")], ["VA-660-WH"])
add(C, "en", [
  V("how much is shipping to France?"),
  A("Standard shipping to other EU countries like France is EUR 7.95, and free for orders over EUR 100."),
  V("and how long does it take?")], P("shipping"))
add(C, "en", [
  V("How long do I have to send something back?"),
  A("You have 30 days from delivery. Items should be unworn, unwashed and with the original tags."),
  V("when do I get the money then?")], P("returns"))
add(C, "en", [
  V("I need a present by tomorrow, is that possible?"),
  A("Yes - with Express, orders placed by 12 noon Monday to Friday arrive the next working day within Germany, for EUR 12.90."),
  V("what about saturday?")], P("express"))
add(C, "en", [
  V("Can I pay later with Klarna?"),
  A("Yes, with Klarna 'Pay in 30 days' you receive your order first and pay within 30 days at no extra cost."),
  V("is there an age limit?")], P("klarna"))
add(C, "en", [
  V("Lina wrap dress black, size S?"),
  A("The black Lina is in stock in S."),
  V("and the floral?")], ["WD-260-FL"])
add(C, "en", [
  V("How big is the white Kiln mug?"),
  A("It holds 350 ml and has a generous handle. EUR 16.00, sold individually."),
  V("microwave ok?")], ["ML-650-WH"])
add(C, "en", [
  V("Where exactly is your shop in Vienna?"),
  A("Our Vienna store is in Neubau, at Neubaugasse 8."),
  V("open sundays?")], P("stores"))
add(C, "de", [
  V("leinenhose marie in sand, gibts die in XL?"),
  A("In Sand ist XL leider ausverkauft, sie kommt in ca. 3 Wochen wieder."),
  V("und in schwarz?")], ["LH-310-SW"])
add(C, "de", [
  V("kaschmirpulli ella camel in M bitte"),
  A("Camel in M ist leider gerade ausverkauft, wieder da in ca. 3 Wochen. XS, S, L und XL sind vorrätig."),
  V("und grau?")], ["KP-120-GR"])
add(C, "de", [
  V("anton jeans hellblau W30?"),
  A("Die hellblaue Anton ist in W30 leider ausverkauft, ca. 3 Wochen."),
  V("gibts die dunkle in 30?")], ["JN-200-DB"])
add(C, "de", [
  V("was kostet die bettdecke traum in 135x200?"),
  A("Die Ganzjahresbettdecke Traum in 135 x 200 cm kostet 119,00 EUR und ist vorrätig."),
  V("und die größere?")], ["BD-540-155"])
add(C, "de", [
  V("der eik tisch mit 160, was kostet der?"),
  A("Der Esstisch Eik 160 x 90 cm kostet 1.290,00 EUR und ist vorrätig."),
  V("und in 2 meter?")], ["ET-910-200"])
add(C, "de", [
  V("ist bei der kissenhülle velours in petrol ein kissen mit drin?"),
  A("Nein, die Hülle (45 x 45 cm) kommt ohne Füllung, mit verdecktem Reißverschluss."),
  V("ok. und altrosa noch da?")], ["KH-610-RS"])
add(C, "de", [
  V("wenn ich heut vor 12 bestell, kommts dann morgen?"),
  A("Ja, mit Expressversand für 12,90 EUR stellt DHL Express am nächsten Werktag innerhalb Deutschlands zu."),
  V("geht das auch nach österreich?")], P("express"))
add(C, "de", [
  V("kann ich in wien im laden abholen?"),
  A("Ja, wählen Sie im Checkout 'Im Geschäft abholen' und die Filiale Wien. Vorrätiges liegt nach 2 Stunden bereit, sonst nach 2-3 Werktagen."),
  V("und wie lang legt ihr mir das dann zurück?")], P("click_collect"))
add(C, "de", [
  V("kann ich die hose in ner anderen größe kriegen, die m ist zu klein"),
  A("Ein direkter Umtausch per Post geht leider nicht – schicken Sie die Hose kostenlos zurück und bestellen Sie einfach die gewünschte Größe neu."),
  V("geht das auch im laden?")], P("exchanges"))
add(C, "de", [
  V("strickjacke frida dunkelblau in S?"),
  A("Die dunkelblaue Frida ist in S leider ausverkauft, wieder da in ca. 3 Wochen."),
  V("und die helle?")], ["SJ-140-CR"])
add(C, "de", [
  V("das waffel duschtuch in rosé ist ausverkauft oder?"),
  A("Stimmt, das Duschtuch in Rosé ist ausverkauft, wieder da in ca. 3 Wochen. Das kleine Handtuch in Rosé ist vorrätig."),
  V("und in weiß?")], ["HT-620-WS"])
add(C, "de", [
  V("sind die stühle bo stapelbar?"),
  A("Ja, der Stuhl Bo ist stapelbar. Massive Buche, geschwungene Rückenlehne, Sitzhöhe 46 cm. Der natur ist vorrätig."),
  V("gibts den auch dunkel?")], ["ST-920-SW"])
add(C, "de", [
  V("bei meiner tasche von euch ist der reißverschluss kaputt, nach 4 monaten"),
  A("Das tut mir leid! Schicken Sie uns bitte eine kurze Beschreibung und Fotos mit Ihrer Bestellnummer an service@shop.example – wir reparieren, ersetzen oder erstatten den Artikel."),
  V("und wer zahlt das porto wenn ich die einschicken muss?")], P("warranty"))
add(C, "de", [
  V("wollsocken alpin anthrazit, welche größen gibts?"),
  A("Die Alpin-Socken gibt es in 35-38, 39-42 und 43-46, alle vorrätig. Im 3er-Pack für 29,00 EUR."),
  V("dürfen die in den trockner?")], ["SK-095-AN"])
add(C, "de", [
  V("satin bettwäsche nacht weiß in 135x200 da?"),
  A("Ja, die weiße Nacht ist in 135 x 200 und 155 x 220 vorrätig."),
  V("und die dunkle in 155?")], ["BW-530-AN"])

# ---------------------------------------------------------------- after_condensation
C = "after_condensation"
def core(request, objects, constraints=None):
    return {"request": request, "objects": objects, "constraints": constraints or []}

add(C, "en", [V("does the one we talked about still come in my size?")], ["LS-410-SB"],
    core("Looking for a light men's shirt for a summer wedding in Italy; settled on the sky blue linen shirt.",
         [O("article", "LS-410-SB", "Linen shirt Porto, sky blue")], ["size L", "should arrive before mid-June"]))
add(C, "en", [
  A("Just to recap: the grey percale set is sold out in 200 x 200 for about 3 weeks."),
  V("ok then the linen one - is that there in my size?")], ["LB-500-WH"],
    core("Compare duvet cover sets for a 200 x 200 duvet.",
         [O("article", "PC-510-GR", "Percale duvet cover set Crisp, light grey"), O("article", "LB-500-WH", "Linen duvet cover set Nora, white")],
         ["duvet 200 x 200 cm"]))
add(C, "en", [V("right, so how do I send it back, and do I pay for that? I'm in Munich")], P("returns"),
    core("Wants to return the belt from a delivered order because it is too short; keeping the chinos.",
         [O("order", "100482", "Order 100482"), O("article", "BL-060-BR", "Leather belt Ridge, cognac brown"), O("article", "CH-210-BE", "Chinos Dune, beige")]))
add(C, "en", [V("what would the delivery cost me then?")], P("furniture_delivery"),
    core("Planning to buy the large oak dining table.",
         [O("article", "ET-910-200", "Esstisch Eik, 200 x 100 cm")], ["lives in Vienna, Austria", "wants it carried into the flat"]))
add(C, "en", [V("can you wrap it and put a card in with a message from me?")], P("gift_wrapping"),
    core("Looking for a birthday present for her mother; chose the camel cashmere scarf.",
         [O("article", "CS-077-CA", "Cashmere scarf Aura, camel")], ["budget EUR 120", "ship directly to the mother"]))
add(C, "en", [
  A("Have you had a chance to ask your neighbours and check the letterbox for a DHL card?"),
  V("yes, nobody has it and there's no card. it's been three days now. what happens next?")], P("missing"),
    core("Parcel shows as delivered in tracking but the customer cannot find it.",
         [O("order", "100917", "Order 100917")]))
add(C, "en", [V("I'll go with the warmer-coloured one. is it in stock?")], ["WT-330-OC"],
    core("Wants a wool throw for the sofa; asked about the two colours.",
         [O("article", "WT-330-OC", "Wool throw Hygge, ochre"), O("article", "WT-330-GR", "Wool throw Hygge, grey")], ["warm colour preferred"]))
add(C, "en", [V("how do I wash it without ruining it? he's hopeless with laundry")], ["MJ-118-NV"] + P("care_wool"),
    core("Buying a jumper for her partner who is always cold; decided on navy merino.",
         [O("article", "MJ-118-NV", "Merino jumper Fell, navy")], ["size M"]))
add(C, "en", [
  A("I'm afraid both colours are sold out in S at the moment; they should be back in about 3 weeks."),
  V("fine, then XS in the dark one?")], ["RJ-150-NV"],
    core("Rain jacket for a teenage daughter.",
         [O("article", "RJ-150-YE", "Rain jacket Skagen, yellow"), O("article", "RJ-150-NV", "Rain jacket Skagen, navy")], ["size S"]))
add(C, "en", [V("can I still cancel it myself or do I need to call you?")], P("change_cancel"),
    core("Ordered the wrong size of a shirt (M instead of L) about 20 minutes ago.",
         [O("order", "100233", "Order 100233"), O("article", "OX-220-LB", "Oxford shirt Hamilton, light blue")]))
add(C, "en", [V("how many of the mugs have you got left?")], ["ML-650-SP"],
    core("Kitting out a new flat with tableware for four.",
         [O("article", "CP-640-SP", "Stoneware dinner plate set Kiln, speckled sand"), O("article", "ML-650-SP", "Stoneware mug Kiln, speckled sand")],
         ["speckled sand colour", "4 people"]))
add(C, "en", [V("would my address work for paying it off monthly?")], P("klarna"),
    core("Wants to pay for the sideboard in instalments.",
         [O("article", "SD-930-NA", "Sideboard Linn, Eiche natur")], ["billing address in Rotterdam, Netherlands"]))
add(C, "en", [V("and if I want it to sit a bit looser?")], P("size_men"),
    core("Choosing a size for a white Oxford shirt; chest measures 104 cm, so size L was recommended.",
         [O("article", "OX-220-WH", "Oxford shirt Hamilton, white")], ["chest 104 cm"]))
add(C, "en", [V("will I have to pay anything extra when it gets here?")], P("international"),
    core("Order with a white linen dress has been shipped to the customer in London.",
         [O("order", "100771", "Order 100771"), O("article", "LD-270-WH", "Linen dress Sola, white")], ["delivery address in the UK"]))
add(C, "en", [V("how long does the woody one last?")], ["SC-720-CE"],
    core("Looking for candles for a dinner party; compared the two scents.",
         [O("article", "SC-720-CE", "Scented candle Ember, cedarwood"), O("article", "SC-720-FG", "Scented candle Ember, fig")], ["prefers woody scents"]))
add(C, "de", [V("hat die noch M?")], ["LH-310-OG"],
    core("Sucht eine weite, luftige Damenhose für den Sommerurlaub; hat sich für olivgrün entschieden.",
         [O("article", "LH-310-OG", "Leinenhose Marie, olivgrün")], ["Größe M"]))
add(C, "de", [V("und das kissen, kann man das einfach waschen?")], ["KK-520-4080"],
    core("Richtet das Gästezimmer ein: Bettwäsche und ein kleines Kopfkissen.",
         [O("article", "BW-530-WS", "Satin-Bettwäsche Nacht, weiß"), O("article", "KK-520-4080", "Daunenkopfkissen Wolke, 40 x 80 cm")], ["135 x 200 cm"]))
add(C, "de", [
  A("Knötchen in den ersten Wochen sind bei Kaschmir leider normal, sie lassen sich mit einem Kaschmirkamm entfernen."),
  V("also kann ich das nicht reklamieren?")], P("warranty"),
    core("Pullover vor 5 Wochen gekauft, bildet Knötchen an den Ärmeln; Kundin ist verärgert.",
         [O("order", "200318", "Bestellung 200318"), O("article", "KP-120-RO", "Kaschmirpullover Ella, rosé")], ["Größe S"]))
add(C, "de", [V("wie lange dauert das ungefähr bis die sachen bei uns sind?")], P("furniture_delivery"),
    core("Möchte einen Esstisch und vier Stühle für die neue Wohnung bestellen.",
         [O("article", "ET-910-160", "Esstisch Eik, 160 x 90 cm"), O("article", "ST-920-SW", "Stuhl Bo, schwarz")], ["Lieferung nach Leipzig", "4 Stühle"]))
add(C, "de", [V("is die größe noch da?")], ["HS-090-RT"],
    core("Sucht ein warmes Geschenk für die Freundin; Entscheidung fiel auf rote Filzhausschuhe.",
         [O("article", "HS-090-RT", "Filzhausschuhe Stube, rot")], ["Größe 38"]))
add(C, "de", [V("wie mach ich das am besten mit dem tauschen?")], P("exchanges"),
    core("Hat die graue Strickdecke bestellt und erhalten, möchte sie lieber in creme.",
         [O("order", "200644", "Bestellung 200644"), O("article", "MT-335-GR", "Strickdecke Zopf, grau"), O("article", "MT-335-CR", "Strickdecke Zopf, creme")]))
add(C, "de", [V("und was kostet mich der versand dahin?")], P("international"),
    core("Kundin möchte den grauen Wollmantel bestellen.",
         [O("article", "WM-160-GR", "Wollmantel Greta, grau")], ["Lieferadresse in Zürich", "Größe XS"]))
add(C, "de", [V("welche größe von der decke brauch ich da und ist die vorrätig?")], ["TD-600-BS"],
    core("Sucht eine Tischdecke für den großen Esstisch; mag die gestreifte.",
         [O("article", "TD-600-BS", "Leinentischdecke Tafel, blau gestreift"), O("article", "ET-910-200", "Esstisch Eik, 200 x 100 cm")]))
add(C, "de", [V("und den rest vom gutschein, kann ich den später noch für was anderes nehmen?")], P("gift_cards"),
    core("Möchte das Sideboard teilweise mit einem Geschenkgutschein über 150 EUR bezahlen.",
         [O("article", "SD-930-NA", "Sideboard Linn, Eiche natur")], ["Gutschein 150 EUR"]))
add(C, "de", [V("kommt das noch vor heiligabend an??")], P("holiday"),
    core("Hat am 18.12. mit Standardversand bestellt, Lieferadresse München.",
         [O("order", "200901", "Bestellung 200901")], ["Standardversand", "bestellt am 18. Dezember"]))
add(C, "de", [V("welches von beiden gibts jetzt sofort in der großen größe?")], ["HT-620-SA", "BT-700-SG"],
    core("Sucht große Handtücher in Salbeigrün fürs Bad.",
         [O("article", "HT-620-SA", "Waffelpiqué-Handtuch Waffel, salbei"), O("article", "BT-700-SG", "Organic cotton towel Calm, sage")], ["Duschtuch- bzw. Badetuchgröße"]))
add(C, "de", [
  A("Von Grau in M haben wir nur noch 2 Stück."),
  V("ok. und wenn ich zwischen m und l lieg, welche nehm ich da?")], P("size_women"),
    core("Möchte den grauen Kaschmirpullover kaufen.",
         [O("article", "KP-120-GR", "Kaschmirpullover Ella, grau")], ["Größe M oder L"]))
add(C, "de", [V("wie seh ich wo das paket grad rumfährt?")], P("tracking"),
    core("Hat drei schwarze T-Shirts bestellt, Versandbestätigung ist angekommen.",
         [O("order", "200112", "Bestellung 200112"), O("article", "TS-180-SW", "T-Shirt Basic, schwarz")]))
add(C, "de", [V("darf die in den trockner?")], ["LB-500-NA"] + P("care_linen"),
    core("Hat die Leinenbettwäsche in natur gekauft und fragt nach der Pflege.",
         [O("article", "LB-500-NA", "Linen duvet cover set Nora, natural")], ["Größe 155 x 220"]))
add(C, "de", [V("wie krieg ich die 10 prozent, muss ich mich da irgendwo anmelden?")], P("newsletter"),
    core("Möchte die schwarze Jeans bestellen und fragt nach Rabatt für Neukunden.",
         [O("article", "JN-200-SW", "Jeans Straight Fit Anton, schwarz")], ["W34", "L32", "Erstbestellung"]))

# ---------------------------------------------------------------- multi_product
C = "multi_product"
add(C, "en", [
  V("I'm stuck between the Fell merino jumper in navy and the Loop sweatshirt in forest green for winter walks."),
  A("The Fell is a fine-knit extra-fine merino crew-neck, warm without bulk. The Loop is a heavyweight 340 g/m² organic cotton loopback with a slightly boxy fit."),
  V("which of the two is warmer?")], ["MJ-118-NV", "SW-190-FG"])
add(C, "en", [
  V("I'm looking at the white Porto linen shirt and the white Hamilton oxford."),
  A("Both are men's shirts with button-down collars. The Porto is garment-washed linen (EUR 59), the Hamilton organic cotton Oxford cloth in a regular fit (EUR 49)."),
  V("is the oxford ok in the dryer?")], ["OX-220-WH"])
add(C, "en", [
  V("Thinking of the natural Harbour tote and the cognac Ridge belt as a gift for my brother."),
  A("Nice combination - the tote has leather handles that go well with the cognac belt. The tote is EUR 29, the belt EUR 55."),
  V("does the bag fit his 13 inch macbook?")], ["TB-080-NA"])
add(C, "en", [
  V("I want the white Kiln plates and the blue Tide vase."),
  A("Great picks. The plates are a set of 4, 27 cm, EUR 59; the vase is 25 cm high, hand-thrown in Porto, EUR 45."),
  V("Can both go in the dishwasher?")], ["CP-640-WH", "VA-660-BL"])
add(C, "en", [
  V("Nora linen set in sage or the Crisp percale in white - which should I get?"),
  A("Linen is textured and gets softer with every wash; percale is cool and crisp with a hidden zip. Both come in 135 x 200, 155 x 220 and 200 x 200."),
  V("which works out cheaper for 155x220?")], ["LB-500-SG", "PC-510-WH"])
add(C, "en", [
  V("I got the yellow Skagen jacket and the navy Dune chinos last week."),
  A("Great - how are you getting on with them?"),
  V("the jacket is perfect but the chinos are too tight. can I send back only the trousers and keep the jacket?")], P("returns"))
add(C, "en", [
  V("I'm furnishing the living room: the Rune side table in natural oak and the Eik dining table, 160 cm."),
  A("Both are solid FSC oak with a natural oil finish. The Rune is EUR 249, the Eik 160 x 90 is EUR 1,290."),
  V("which of those comes by normal parcel and which needs the truck?")], ["OT-900-NA", "ET-910-160"])
add(C, "en", [
  V("For a summer wedding - Lina wrap dress in emerald or Sola linen dress in terracotta?"),
  A("The Lina is a flowing midi with long sleeves and a tie waist; the Sola is a sleeveless A-line linen dress with a square neckline."),
  V("which one has pockets? I need somewhere for my phone")], ["WD-260-EM", "LD-270-TC"])
add(C, "en", [
  V("I'd like the charcoal Aura scarf and the grey melange Fell jumper for my dad."),
  A("They'll go well together. The scarf is 100% cashmere, the jumper extra-fine merino."),
  V("how much for both together?")], ["CS-077-CH", "MJ-118-GR"])
add(C, "en", [
  V("The cedarwood Ember candle and a white Kiln mug for a small secret santa."),
  A("Lovely - the candle is EUR 32 and the mug EUR 16."),
  V("is the mug a single one or a set?")], ["ML-650-WH"])
add(C, "en", [
  V("Looking at the light blue Hamilton shirt and the beige Dune chinos for work."),
  A("A classic combination - both are organic cotton, the chinos with a little stretch."),
  V("I'm an L in shirts and W32 in trousers. are both available?")], ["OX-220-LB", "CH-210-BE"])
add(C, "en", [
  V("need a towel for the gym bag - the grey Calm one or the white waffle towel?"),
  A("The Calm is a thick 600 g/m² terry towel; the Waffel is a light waffle piqué that dries quickly."),
  V("which is lighter to carry around?")], ["BT-700-GR", "HT-620-WS"])
add(C, "en", [
  V("I like the ecru Loop sweatshirt and the white Basic tee together."),
  A("Good layering combo - the tee is heavy 180 g/m² organic cotton, the sweatshirt 340 g/m² loopback."),
  V("is the sweatshirt there in M?")], ["SW-190-EC"])
add(C, "en", [
  V("For the sofa: the grey Hygge wool throw or the grey cable-knit Zopf blanket?"),
  A("The Hygge is brushed lambswool with fringes (130 x 180), the Zopf is organic cotton with a cable pattern (130 x 170)."),
  V("with two dogs, which one can I just chuck in the washer and dryer?")], ["WT-330-GR", "MT-335-GR"])
add(C, "en", [
  V("Ordering the navy Dune chinos in W34 and the black Ridge belt."),
  A("Good match. The belt is 3.5 cm wide, full-grain leather with a brass buckle."),
  V("which belt length do I need for those trousers?")], ["BL-060-BK", "CH-210-NV"])
add(C, "de", [
  V("ich hätte gern die leinenhose marie in sand und die leinenbluse ida in weiß"),
  A("Schöne Kombi! Beide sind aus 100 % europäischem Leinen. Die Hose kostet 79 EUR, die Bluse 69 EUR."),
  V("ist die bluse in M da?")], ["LB-315-WS"])
add(C, "de", [
  V("kaschmirpullover ella camel oder strickjacke frida creme, was ist pflegeleichter?"),
  A("Die Ella ist aus reinem Kaschmir, die Frida ein Grobstrick aus Bio-Baumwolle."),
  V("welches davon kann ich einfach in die maschine stecken?")], ["KP-120-CA", "SJ-140-CR"])
add(C, "de", [
  V("ich überleg mir den wollmantel greta in grau und den kaschmirpulli ella auch in grau zu holen"),
  A("Passt farblich sehr gut zusammen. Der Mantel ist aus 80 % Schurwolle, der Pullover aus 100 % Kaschmir."),
  V("was kosten die zwei zusammen?")], ["WM-160-GR", "KP-120-GR"])
add(C, "de", [
  V("brauche ein neues kopfkissen 40x80 und eine decke 155x220"),
  A("Da passen das Daunenkopfkissen Wolke 40 x 80 cm (49 EUR) und die Ganzjahresbettdecke Traum 155 x 220 cm (149 EUR)."),
  V("ich bin hausstauballergiker, ist die decke da okay?")], ["BD-540-155"])
add(C, "de", [
  V("wir wollen den esstisch eik 200 und das sideboard linn in schwarz"),
  A("Beides aus massiver FSC-Eiche und beides kommt per Spedition. Der Tisch kostet 1.590 EUR, das Sideboard 1.190 EUR."),
  V("ist das sideboard in schwarz überhaupt noch lieferbar?")], ["SD-930-SW"])
add(C, "de", [
  V("satin bettwäsche nacht in weiß oder die perkal crisp in weiß?"),
  A("Der Satin ist glänzend und glatt, 300 Fäden; das Perkal ist matt und knackig, Bio-Baumwolle mit 200 Fäden."),
  V("welche is kühler im hochsommer? ich schwitz nachts immer")], ["BW-530-WS", "PC-510-WH"])
add(C, "de", [
  V("nehm die anton jeans in schwarz und das basic shirt in schwarz"),
  A("Die Jeans kostet 99 EUR, das T-Shirt 25 EUR."),
  V("gibts die jeans auch in länge 34? bin recht groß")], ["JN-200-SW"])
add(C, "de", [
  V("hausschuhe stube in grau und dazu die wollsocken alpin natur"),
  A("Gemütliche Kombi! Die Hausschuhe sind aus Schafwollfilz, die Socken aus 70 % Merinowolle."),
  V("kann man die socken normal waschen?")], ["SK-095-NA"])
add(C, "de", [
  V("für den geburtstagstisch: leinentischdecke tafel natur und die wassergläser klar"),
  A("Die Tischdecke gibt es in 140 x 180 cm (69 EUR) und 140 x 250 cm (89 EUR); das Glas-Set kostet 36 EUR."),
  V("wie viele gläser sind da drin?")], ["GL-650-KL"])
add(C, "de", [
  V("ich mag die samtkissenhülle in petrol und die strickdecke zopf in creme"),
  A("Das sieht zusammen auf dem Sofa bestimmt schön aus."),
  V("welche von den beiden ist aus bio-baumwolle?")], ["KH-610-PE", "MT-335-CR"])
add(C, "de", [
  V("esstisch eik 160 und dazu 4 stühle bo in schwarz"),
  A("Gute Wahl – der Tisch ist aus massiver Eiche, die Stühle aus massiver Buche."),
  V("passt die sitzhöhe von den stühlen zum tisch?")], ["ST-920-SW", "ET-910-160"])
add(C, "de", [
  V("hab die marie hose in oliv und die ida bluse in hellblau bestellt"),
  A("Danke für Ihre Bestellung! Wie kann ich helfen?"),
  V("die bluse ist zu groß, die hose passt. wie krieg ich die bluse eine nummer kleiner?")], P("exchanges"))
add(C, "de", [
  V("handtücher: waffel in rosé und calm in sage, was ist der unterschied?"),
  A("Die Waffel-Tücher sind leichte Waffelpiqué-Baumwolle, die Calm-Tücher dicker Bio-Frottee mit 600 g/m²."),
  V("was kostet das große waffel-duschtuch in rosé?")], ["HT-620-RS"])
add(C, "de", [
  V("t-shirt basic grau meliert oder der loop sweater in grey melange für den herbst?"),
  A("Das Shirt ist 180 g/m² Bio-Baumwolle, der Sweater schwerer Loopback."),
  V("welches is dicker?")], ["TS-180-GR", "SW-190-GM"])
add(C, "de", [
  V("ich schau mir das sideboard linn in eiche natur und den kleinen runden beistelltisch rune natur an"),
  A("Beide aus massiver Eiche, geölt. Das Sideboard kostet 1.190 EUR, der Beistelltisch 249 EUR."),
  V("welches davon kommt schon fertig montiert?")], ["SD-930-NA", "OT-900-NA"])

# ---------------------------------------------------------------- write
cat_ids = {r["id"] for r in map(json.loads, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalogue.jsonl")))}
out = []
counters = {}
for r in rows:
    counters[r["category"]] = counters.get(r["category"], 0) + 1
    rec = {"id": f'{r["category"]}-{counters[r["category"]]:03d}', "lang": r["lang"], "category": r["category"],
           "part": "dev", "turns": r["turns"], "core": r["core"], "expect": r["expect"]}
    out.append(rec)
pass
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "conversations.jsonl"), "w") as f:
    for rec in out:
        f.write(json.dumps(rec, ensure_ascii=False) + "\n")
print(len(out))
