"""How a message asks: whether it leans on what came before, points at the visitor's
page, or opens with a greeting before its question (issue 26).

Pure functions (no database), read by the retrieval query (query.py) before it searches:
- `refers_back`: "is it machine washable?", "and in blue?", "Habt ihr die in 38?", a choice
  among the things just named (`chooses`), or a short question about their stock, price or
  measures (`asks_of_it`: "any left?", "Maße?");
- `deictic`: "this one", "gibt es das in XL?" (the page the visitor is on);
- `opener_strip`: "hi", "thanks! also", "hallo, kurze Frage:" are no part of the question.
The words themselves, and how they are indexed, are analysis.py's.
"""

import re

from chatwidget.shop.knowledge.analysis import STOPWORDS, fold

# --- does a message lean on what came before? -------------------------------------------------

_EN_BACK = frozenset(
    "it its it's itself they them their this that these those one ones same".split()
)
_EN_OPENERS = ("and ", "what about", "how about", "also ", "same ", "or ")
_DE_BACK = frozenset("es ihn ihm diese dieser dieses diesen davon dazu damit darin".split())
# Words that choose among the things just named: "how much for both?", "beides zusammen?"
_CHOOSE = frozenset("both either neither beide beides beiden".split())
# "which is lighter?", "welches is dicker?": a question word standing for the things just
# named, before a verb (before a noun it asks afresh: "which jacket is waterproof?")
_WHICH = frozenset("which welche welcher welches welchen".split())
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_WHICH_VERBS = frozenset(
    "is are was were one ones of would should do does did has have works work fits fit costs"
    " cost ist sind war wäre würde passt hat hält kostet davon von".split()
)
_DE_ARTICLES = frozenset("der die das den dem".split())
_DE_OPENERS = ("und ", "was ist mit", "wie ist es mit", "auch ", "oder ")
_TOKEN = re.compile(r"[^\W\d_]+(?:'[a-z]+)?|[?!.,;:]")


# What a short question asks of the thing just talked about, without naming it: its stock,
# its price against the other's, its measures ("any left?", "wie viele habt ihr noch?", "was
# ist preislich der Unterschied?", "Maße?"). A longer message with such words may name a
# subject of its own.
_ASKS_OF_IT = re.compile(
    r"\b(?:any (?:more )?left|how many (?:\w+ )?(?:left|in stock|do you have)|running (?:low|out)"
    r"|sold out|in stock|still available|price difference|difference in price|cheaper"
    r"|more expensive|wie viele|noch (?:da|vorratig|lieferbar|auf lager|zu haben|verfugbar)\b"
    r"|ausverkauft|preislich|preisunterschied|unterschied|gunstiger|teurer|billiger"
    # its measures and make: "how tall roughly?", "Maße?", "wie schwer ist der?"
    r"|how (?:tall|high|wide|big|heavy|deep|thick)\b|how long (?:is|are)\b"
    r"|dimensions|measurements|weight\b|what(?:'s| is| are) (?:it|they) made of"
    r"|masse\b|abmessungen|gewicht|wie (?:gross|hoch|lang|breit|schwer|tief|dick)\b"
    r"|aus welchem (?:material|stoff))"
)
ASKS_OF_IT_WORDS = 4  # content words (query.words) a message that asks it may have


def asks_of_it(message: str) -> bool:
    """Whether a short message asks about the stock, the price or the measures of what was
    just named."""
    return bool(_ASKS_OF_IT.search(fold(message))) and (
        sum(1 for w in _TOKEN.findall(fold(message)) if w.isalpha() and w not in STOPWORDS)
        <= ASKS_OF_IT_WORDS
    )


def refers_back(message: str) -> bool:
    """Whether a message leans on an earlier subject: "is it machine washable?", "and in
    blue?", "Wie groß ist der?", "Habt ihr die in 38?" (a German article standing alone,
    before a word in lower case or at the end, is a pronoun; nouns are capitalised).
    A message without such a word is read as a question of its own, so that a change of
    subject is not answered with the earlier product."""
    text = " ".join(message.split())
    low = text.casefold()
    if low.startswith(_EN_OPENERS + _DE_OPENERS):
        return True
    tokens = _TOKEN.findall(text)
    for i, token in enumerate(tokens):
        word = token.casefold()
        after = tokens[i + 1].casefold() if i + 1 < len(tokens) else ""
        if word == "one" and after == "of":
            continue  # "one of the plates has a crack": a new subject, no pronoun
        if word in _EN_BACK or word in _DE_BACK:
            return True
        if word in _DE_ARTICLES:
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            if not after or not after[0].isalpha() or after[0].islower():
                return True
    return chooses(message) or asks_of_it(message)


def chooses(message: str) -> bool:
    """Whether a message chooses among the things just named: "how much for both
    together?", "which is lighter to carry around?", "welches davon kann in die Maschine?",
    "how long does the woody one last?".
    Such a message is about them whatever else it names (query.KnowledgeQuery.fresh is
    empty), where "is it ok to pick it up in the Hamburg shop instead?" may name a subject
    of its own beside its pronoun. Only its last sentence: "I ordered the sage one
    yesterday. Can you still send it to the new address?" asks about the address."""
    last = _SENTENCES.split(" ".join(message.split()).strip(" .!?"))[-1]  # the question
    tokens = [t.casefold() for t in _TOKEN.findall(last)]
    for i, word in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if word in _CHOOSE or (word in _WHICH and after in _WHICH_VERBS):
            return True
        # "the woody one", "the white ones", "that one": one of them, by what sets it apart
        if word in ("one", "ones") and after != "of" and "the" in tokens[max(0, i - 2) : i]:
            return True
        if word in ("one", "ones") and i and tokens[i - 1] in ("that", "this"):
            return True
    return False


# --- does a message point at what the visitor is looking at? -----------------------------------

_EN_HERE = frozenset("this these here".split())
_DE_HERE = frozenset("dies diese dieser dieses diesen hier".split())


def deictic(message: str) -> bool:
    """Whether a message points at something in front of the visitor: "this one", "does
    this come in XL?", "das hier", "gibt es das in XL?" (German "das" standing alone, as
    `refers_back` reads an article). On a page with a document of its own, that document is
    what is meant (selectors.knowledge_search)."""
    tokens = _TOKEN.findall(" ".join(message.split()))
    for i, token in enumerate(tokens):
        word = token.casefold()
        if word in _EN_HERE or word in _DE_HERE:
            return True
        if word == "das":
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            if not after or not after[0].isalpha() or after[0].islower():
                return True
    return False


# --- what a message opens with before its question ---------------------------------------------

# Greetings, thanks and announcements of a question: never the question itself, whatever
# follows them. Acknowledgements ("ok", "great", "super") only before punctuation or another
# opener: "super soft?" keeps its word. "also", "but", "btw" only after another opener
# ("thanks! also ..."): alone, "also in blue?" leans on the earlier subject (`refers_back`).
_GREETINGS = (
    r"hi there|hello there|hey there|hiya|hi|hello|hey|good (?:morning|afternoon|evening)|"
    r"hallo|moin|servus|guten (?:tag|morgen|abend)|gr[uü](?:e|ß|ss)e?(?: gott| dich| euch)?|"
    r"thanks?(?: you)?(?: (?:so|very) much| a lot)?|thx|ty|cheers|many thanks|"
    r"danke(?: sch[oö]n| sehr)?|vielen dank|merci|"
    r"(?:a )?quick question|(?:one )?more question|another question|one (?:more|last) thing|"
    r"(?:a )?(?:completely |totally )?(?:different|unrelated|other) (?:question|thing|topic)|"
    r"unrelated|(?:and )?(?:on )?(?:a|one) (?:side|different) note|"
    r"(?:eine )?kurze frage|(?:noch )?eine (?:andere )?frage|andere frage|noch (?:eine )?frage|"
    r"noch (?:et)?was(?: anderes)?|(?:ganz )?(?:et)?was anderes|themawechsel"
)
_ACKS = (
    r"ok(?:ay)?(?: cool| great| thanks?| danke| super)?|cool|great|perfect|nice|awesome|"
    r"alright|all right|got it|i see|understood|fine|good|sure|"
    r"ah|oh|ahh|aha|achso|ach so|ah ok|ah okay|oh ok|super|prima|toll|perfekt|gut|sehr gut|"
    r"alles klar|verstanden|klar|okidoki|ja|yes|jo|na gut"
)
_AFTER = r"also|and also|but|btw|by the way|[uü]brigens|au[sß]erdem"
_MARKS = r"[,.!:;?\u2013\u2014-]"
_PUNCT = rf"\s*{_MARKS}+\s*"
_OPENER = re.compile(
    rf"^\s*(?:(?P<greet>{_GREETINGS})(?:{_PUNCT}|\s+|$)|(?P<ack>{_ACKS})(?:{_PUNCT}|$))",
    re.IGNORECASE,
)
_ACK_BEFORE = re.compile(rf"^\s*(?P<ack>{_ACKS})\s+(?=(?:{_GREETINGS}|{_ACKS})\b)", re.I)
_AFTER_OPENER = re.compile(rf"^\s*(?:{_AFTER})\b{_MARKS}*\s*", re.IGNORECASE)


def opener_strip(message: str) -> str:
    """The message without what it opens with before its question ("hi", "hello, quick
    question:", "hallo, kurze Frage", "thanks! also ..."): those words find nothing, and in
    the message's embedding they pull it towards every chat that opened the same way.
    The message as it is when nothing else is left."""
    rest, stripped = message, False
    while True:
        found = _OPENER.match(rest) or _ACK_BEFORE.match(rest)
        if not found or found.end() == 0:
            break
        rest, stripped = rest[found.end() :], True
    if stripped:
        rest = _AFTER_OPENER.sub("", rest, count=1)
    return rest.strip() or message.strip()
