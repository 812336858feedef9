"""The shop's service topics a visitor asks about in everyday words (issue 26): a thesaurus.

A visitor asks "can I spread it over a few months?" or "kann ich das abstottern?"; the
shop's page says "instalments" and "Ratenzahlung". Neither the full-text search nor the
small embedded model (multilingual-e5-small) links the two reliably: the held-out sets'
misses were such service questions. Help-centre search (Zendesk's and Algolia's synonym
sets) answers this with a thesaurus; this is one for the topics every web shop's service
pages cover, in English and German, written from what visitors say, not from a shop's
pages: each topic has the phrasings that ask for it (`_Topic.asks`, regular expressions
over the folded message: `analysis.fold`, "zurück" -> "zuruck") and the words a shop's page
on it uses (`_Topic.words`, both languages: a German question may find an English page and
the other way round).

`topic_words(message)` is what query.py adds to the message's own words (weighed below
them) and to the text the query embedding is made of. Pure; a message asks for a handful
of topics at most.
"""

import functools
import re
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from chatwidget.shop.knowledge.analysis import fold

MAX_TOPICS = 2  # the first ones: TOPICS runs from the specific to the general


@dataclass(frozen=True)
class _Topic:
    name: str
    label: str  # for staff: the trace in admin (a lazy translation)
    asks: re.Pattern
    words: str


def _topic(name: str, label: str, asks: list[str], words: str) -> _Topic:
    pattern = re.compile(r"\b(?:" + "|".join(asks) + r")", re.IGNORECASE)
    return _Topic(name, label, pattern, words)


TOPICS = (
    _topic(
        "returns",
        _("returns and refunds"),
        [
            r"(?:send|sent|give|take|bring) (?:\w+ ){0,3}back",
            r"money back",
            r"get (?:my |the )?money",
            r"refund",
            r"reimburs",
            r"return(?:s|ing|ed)?\b",
            r"don'?t (?:like|want) (?:it|them)",
            r"zuruck ?(?:schick|send|geb|bring|zahl)",
            r"zuruckzu(?:schick|send|geb)",
            r"retour",
            r"rucksend",
            r"ruckgab",
            r"geld zuruck",
            r"(?:mein|das|unser) geld",
            r"erstatt",
            r"widerruf",
            r"changed? (?:my|our) minds?",
            r"anders uberleg",
            r"(?:doesn'?t|does not|don'?t) suit",
            r"gefallt (?:mir |ihr |ihm )?(?:doch )?nicht",
        ],
        "returns refund return period Rücksendung Rückgabe Erstattung Widerruf",
    ),
    _topic(
        "exchange",
        _("exchanges"),
        [
            r"exchang",
            r"swap",
            r"(?:a |one )?size (?:up|down|smaller|bigger|larger)",
            r"(?:smaller|bigger|larger|different) size",
            r"(?:another|different) colou?r instead",
            r"(?:um)?tausch",
            r"(?:nummer|grosse) (?:kleiner|grosser)",
            r"(?:kleinere|grossere|andere) grosse",
            r"andere farbe",
            r"wrong size",
            r"falsche grosse",
        ],
        "exchange different size Umtausch umtauschen andere Größe",
    ),
    _topic(
        "warranty",
        _("defects and warranty"),
        [
            r"broke(?:n)?\b",
            r"break(?:s|ing)?\b",
            r"defect",
            r"faulty",
            r"stopped working",
            r"(?:gave|given) up",
            r"fell apart|falling apart|came apart|coming apart",
            r"crack",
            r"(?:torn|ripped|tear(?:s|ing)?\b)",
            r"came off",
            r"damaged",
            r"warrant",
            r"guarantee",
            r"complain",
            r"kaputt",
            r"defekt",
            r"gerissen",
            r"\briss\b",
            r"sprung",
            r"reklam",
            r"mangel",
            r"garantie",
            r"gewahrleist",
            r"beschadigt",
            r"(?:geht|ging) nicht mehr",
            r"lost sich",
            r"abgegangen|abgefallen",
            r"abgebrochen",
            r"came undone|come undone",
            r"wackel",
            r"(?:is|are|came|come) loose",
            r"peel(?:s|ing|ed)?\b",
            r"verblass",
            r"(?:los|lost) sich",
        ],
        "warranty defect complaint repair replacement "
        "Gewährleistung Garantie Reklamation Mangel Reparatur",
    ),
    _topic(
        "instalments",
        _("instalments and paying later"),
        [
            r"instal?ments?",
            r"spread (?:it |the (?:cost|payment) )?(?:over|out)",
            r"monthly",
            r"(?:pay|paying) (?:it )?(?:later|in parts|in (?:\w+ )?(?:goes|chunks|bits))",
            r"(?:financ|credit\b|buy now)",
            r"in one go",
            r"raten",
            r"abstottern",
            r"(?:in )?teilzahl",
            r"monatlich",
            r"spater (?:be)?zahlen",
            r"finanzier",
            r"auf einmal",
            r"verteil",
            r"\bpay (?:\w+ ){0,3}(?:once|after) ",
            r"erst (?:nach|bei|wenn)\b.{0,30}(?:zahl|bezahl)",
        ],
        "instalments pay later financing monthly payments Ratenzahlung Raten später bezahlen",
    ),
    _topic(
        "customs",
        _("delivery abroad and customs"),
        [
            r"customs",
            r"dut(?:y|ies)",
            r"import (?:tax|fee|vat)",
            r"fees? (?:at the door|on delivery)",
            r"(?:pay|charged?) (?:anything |something )?(?:extra|more) (?:when|on|at)",
            r"outside (?:the )?eu",
            r"abroad",
            r"overseas",
            r"zoll",
            r"einfuhr",
            r"ausland",
            r"ausserhalb (?:der )?eu",
            r"(?:zusatzlich|extra|draufzahlen|nachzahlen)",
            r"switzerland|swiss|schweiz",
            r"norway|norweg",
            r"\buk\b|united kingdom|great britain|grossbritannien|england|london",
            r"\busa\b|united states|canada|kanada",
        ],
        "international shipping customs duties import taxes "
        "Zoll Einfuhr Ausland internationaler Versand",
    ),
    _topic(
        "missing_parcel",
        _("a parcel that has not arrived"),
        [
            r"(?:has ?n'?t|hasnt|not|never|still not) "
            r"(?:arrived|come|turned up|shown up|been delivered)",
            r"where(?:'s| is) my (?:order|parcel|package)",
            r"lost (?:parcel|package)",
            r"track",
            r"nicht (?:angekommen|da|gekommen|geliefert)",
            r"noch nicht (?:da|angekommen)",
            r"wo bleibt",
            r"wo ist (?:mein|meine|das|die)",
            r"sendungsverfolg",
            r"verfolg",
            r"paket (?:ist )?(?:weg|verloren)",
            r"verschwunden",
            r"(?:gone|went|is) missing",
            r"disappeared",
        ],
        "parcel missing tracking not arrived Sendungsverfolgung Paket nicht angekommen",
    ),
    _topic(
        "change_cancel",
        _("changing or cancelling an order"),
        [
            r"cancel",
            r"change (?:my |the )?(?:order|address)",
            r"(?:add|remove) (?:something|an item|it) (?:to|from) (?:my|the) order",
            r"storn",
            r"abbestell",
            r"bestellung (?:andern|anpassen)",
            r"adresse (?:andern|korrigieren)",
            r"(?:old|wrong) address",
            r"(?:alte|falsche) adresse",
            r"before (?:it|they)(?:'s| is| are)? (?:ship|sent|dispatch|leave)",
            r"bevor.{0,20}(?:rausgeht|verschickt|versandt|losgeht)",
        ],
        "cancel order change order Bestellung stornieren ändern",
    ),
    _topic(
        "furniture_delivery",
        _("furniture delivery"),
        [
            r"carr(?:y|ied|ies)",
            r"upstairs",
            r"(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|top) floor",
            r"\blift\b",
            r"elevator",
            r"assembl",
            r"set (?:it )?up",
            r"freight",
            r"(?:hoch|rein)(?:tragen|bringen)",
            r"\d+\.? ?stock\b",
            r"stockwerk",
            r"etage",
            r"aufzug",
            r"aufbau",
            r"montage",
            r"spedition",
            r"(?:ins|in die) (?:wohnzimmer|wohnung|zimmer)",
        ],
        "furniture delivery freight carried to the room assembly "
        "Speditionsversand Möbel Lieferung Aufbau",
    ),
    _topic(
        "holidays",
        _("delivery before holidays"),
        [
            r"christmas",
            r"xmas",
            r"holiday",
            r"easter",
            r"bank holiday",
            r"weihnacht",
            r"feiertag",
            r"ostern",
            r"silvester",
        ],
        "holiday delivery Christmas deadlines Feiertage Weihnachten",
    ),
    _topic(
        "express",
        _("express delivery"),
        [
            r"express",
            r"next day",
            r"tomorrow",
            r"urgent",
            r"asap",
            r"quick(?:er|est|ly)",
            r"faster",
            r"by (?:friday|saturday|monday|the weekend)",
            r"eilig",
            r"schnell",
            r"morgen",
            r"bis (?:freitag|samstag|montag|zum wochenende)",
        ],
        "express delivery next day Expressversand schnell",
    ),
    _topic(
        "collect",
        _("stores and collection"),
        [
            r"pick (?:it |them )?up",
            r"collect",
            r"in (?:the |your )?(?:store|shop)",
            r"(?:shop|store)s? (?:near|in)",
            r"come by",
            r"abhol",
            r"filiale",
            r"(?:im|in eurem|in ihrem) (?:laden|geschaft)",
            r"vor ort",
            r"vorbeikommen",
            r"in (?:real life|person)",
            r"showroom",
            r"in echt",
            r"(?:live|vor ort) (?:an)?(?:schauen|sehen|gucken)",
            r"probesitz",
            r"try (?:it |them |one )?(?:out|on) (?:before|in)",
        ],
        "click and collect pick up in store stores Abholung abholen Filiale",
    ),
    _topic(
        "vouchers",
        _("gift cards and discount codes"),
        [
            r"voucher",
            r"gift ?card",
            r"coupon",
            r"(?:promo|discount|promotion(?:al)?) ?code",
            r"\bcode\b",
            r"discount",
            r"gutschein",
            r"rabatt",
            r"aktionscode",
            r"guthaben",
            r"einlos",
            r"redeem",
            r"balance",
            r"geschenk(?:code|karte)",
            r"(?:betrag|geld) zum verschenken",
        ],
        "gift cards vouchers discount codes Gutscheine Rabattcodes",
    ),
    _topic(
        "gift_wrap",
        _("gift wrapping"),
        [
            r"gift",
            r"present\b",
            r"wrap",
            r"geschenk",
            r"(?:ver|ein)packen",
            r"schleife",
        ],
        "gift wrapping gift message Geschenkverpackung Geschenk",
    ),
    _topic(
        "account",
        _("the customer account"),
        [
            r"account",
            r"log ?in",
            r"sign ?in",
            r"password",
            r"order history",
            r"konto",
            r"anmeld",
            r"einlogg",
            r"passwort",
            r"(?:old|past|previous) (?:invoices|orders|receipts)",
            r"(?:alte|fruhere|meine) rechnungen",
            r"bestell(?:historie|ubersicht)",
        ],
        "customer account login password Kundenkonto Anmeldung Passwort",
    ),
    _topic(
        "privacy",
        _("personal data"),
        [
            r"my data",
            r"personal (?:data|information|details)",
            r"privacy",
            r"gdpr",
            r"delete (?:my|all)",
            r"meine daten",
            r"datenschutz",
            r"dsgvo",
            r"loschen",
            r"wipe",
            r"what (?:do|will) you do with my",
            r"was macht ihr mit meine",
            r"weitergeb",
            r"verkauf\w* (?:ihr|sie) (?:das|die|meine)",
        ],
        "privacy personal data Datenschutz personenbezogene Daten",
    ),
    _topic(
        "newsletter",
        _("the newsletter"),
        [
            r"newsletter",
            r"unsubscrib",
            r"(?:stop|too many) (?:the )?e-?mails",
            r"mailing list",
            r"abmelden",
            r"keine (?:e-?mails|werbung) mehr",
            r"infomail",
            r"werbemail",
            r"(?:sign|signing) up for (?:your )?(?:e-?mails|news)",
        ],
        "newsletter subscribe unsubscribe Newsletter abmelden",
    ),
    _topic(
        "sustainability",
        _("sustainability"),
        [
            r"sustainab",
            r"eco",
            r"environment",
            r"organic",
            r"fair(?:ly)? (?:trade|made|produced)",
            r"working conditions",
            r"plastic",
            r"nachhaltig",
            r"umwelt",
            r"\bbio\b",
            r"fair (?:produziert|hergestellt|gehandelt)",
            r"plastik",
        ],
        "sustainability environment fair production Nachhaltigkeit Umwelt",
    ),
    _topic(
        "terms",
        _("terms and conditions"),
        [
            r"terms and conditions",
            r"legal(?:ly)?\b",
            r"contract",
            r"\bagb\b",
            r"rechtlich",
            r"vertrag",
            r"geschaftsbedingung",
        ],
        "terms and conditions contract AGB Allgemeine Geschäftsbedingungen Vertrag",
    ),
    _topic(
        "contact",
        _("contacting the shop"),
        [
            r"talk to",
            r"speak (?:to|with)",
            r"(?:phone|call|ring) (?:you|number|someone)",
            r"(?:email|e-mail) (?:you|address)",
            r"reach (?:you|someone|a person|a human)",
            r"(?:real|human) person",
            r"hotline",
            r"anruf",
            r"telefon",
            r"erreich",
            r"kontakt",
            r"(?:echten )?menschen",
            r"(?:phone|telephone) number",
            r"number (?:to|i can|we can) (?:call|ring)",
        ],
        "contact customer service phone email Kontakt Kundenservice Telefon",
    ),
    _topic(
        "care",
        _("care and washing"),
        [
            r"wash",
            r"clean",
            r"\biron",
            r"tumble",
            r"dryer",
            r"stain",
            r"look after",
            r"oil(?:ing)?\b",
            r"wasch",
            r"reinig",
            r"bugel",
            r"trockner",
            r"fleck",
            r"pflege",
            r"olen",
        ],
        "care instructions washing cleaning Pflege Pflegehinweise waschen",
    ),
    _topic(
        "size",
        _("sizes and fit"),
        [
            r"(?:the|how (?:does|do|will|would) (?:it|they|this|that)) fit",
            r"fits? (?:small|large|big|true|me\b|him\b|her\b)",
            r"what size",
            r"which size",
            r"too (?:small|big|large|tight|loose)",
            r"runs? (?:small|large|big)",
            r"size (?:chart|guide|table)",
            r"measure",
            r"welche grosse",
            r"fallt (?:\w+ )?(?:klein|gross|eng|weit)",
            r"zu (?:klein|gross|eng|weit)",
            r"grossentabelle",
            r"messen",
        ],
        "size guide size chart measurements Größentabelle Größe Maße",
    ),
    _topic(
        "shipping",
        _("delivery times and costs"),
        [
            r"how (?:long (?:does|do|will|would|until|till|to|for)|many days|soon|quickly)",
            r"when (?:will|would|do|does|can) (?:it|they|my|i get|the)",
            r"(?:arrive|get here|reach (?:me|us)|delivered|deliver)",
            r"shipping",
            r"postage",
            r"delivery (?:time|cost|charge|fee)",
            r"(?:ship|send|post|deliver) (?:it |things |stuff )?(?:to|abroad)",
            r"wie (?:lange|schnell)",
            r"wann (?:kommt|ist|sind|bekomm|krieg|wird|werden)",
            r"(?:ankomm|ankunft|zugestellt|zustell|liefer)",
            r"versand",
            r"porto",
            r"(?:schick|send|liefer)\w* (?:ihr |sie )?(?:\w+ )?(?:nach|ins ausland)",
            r"nach \w+ (?:schick|send|liefer)",
        ],
        "shipping delivery time delivery costs Versand Lieferzeit Versandkosten Lieferung",
    ),
    _topic(
        "payment",
        _("payment methods"),
        [
            r"(?:how|can|could) (?:i|we) pay",
            r"payment",
            r"credit card",
            r"paypal",
            r"invoice",
            r"bank transfer",
            r"apple pay",
            r"(?:be)?zahlen",
            r"zahlung",
            r"kreditkarte",
            r"uberweis",
            r"rechnung",
        ],
        "payment methods pay Zahlung Zahlungsarten bezahlen",
    ),
)


@functools.lru_cache(maxsize=4096)
def topics_of(message: str) -> tuple[str, ...]:
    """The service topics a message asks about, the MAX_TOPICS most specific (TOPICS'
    order: "send back" before "delivery", "instalments" before "pay")."""
    folded = fold(message or "")
    return tuple(t.name for t in TOPICS if t.asks.search(folded))[:MAX_TOPICS]


_WORDS = {t.name: t.words for t in TOPICS}
_LABELS = {t.name: t.label for t in TOPICS}


def topic_words(message: str) -> str:
    """The words a shop's pages on the message's topics use (empty: none asked)."""
    return " ".join(_WORDS[name] for name in topics_of(message))


def topic_labels(names: list[str]) -> list[str]:
    """The topics as staff read them (a name no longer known: as it was stored)."""
    return [str(_LABELS.get(name, name)) for name in names]
