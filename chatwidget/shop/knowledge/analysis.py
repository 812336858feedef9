"""Words into index terms: one analyser for both engines, in the widget's languages.

Pure functions (no database). Both full-text engines index the terms this module makes
(PostgreSQL with the `simple` configuration, SQLite's FTS5 with its plain tokenizer), so a
chunk matches the same words on either, and the rescoring (scoring.py) compares the same terms.

- Words are folded first (case, diacritics, ß -> ss: "Größe" and "groesse" typed without
  umlauts meet) and stemmed with the Snowball stemmer of the text's language
  (`snowballstemmer`): size = sizes, Größe = Größen, while Rücksendung (return) stays apart
  from Rucksack (backpack), which a shared prefix had merged.
- English derivations the Snowball stemmer keeps apart are joined by a few suffixes:
  washable ~ wash, shipment ~ shipping.
- A document's language is guessed from its function words (a shop's pages may be in either
  language whatever the site's default); a query is stemmed in both languages, since a
  visitor's few words rarely say which.
- The other visitor languages (fr, es, it, nl, pl: chatwidget.platform.languages) have
  their own Snowball stemmers too (chaussures = chaussure, envíos = envío, scarpe = scarpa,
  schoenen = schoen, buty = but): a document is stemmed in the language its function words
  show (`language_guess`, the site's language when they show none), and a query in English,
  German and the message's own language (`stems`; the caller guesses it with the site's
  language as default). Words are folded before stemming, so a Polish ending spelled with a
  diacritic (-ów, -ą, -ę) is not removed; those without one (-y, -i, -e, -ami) are.
- German compounds: a query word is also matched by its two parts
  (Rücksendeetikett ~ "Etikett für die Rücksendung"); `compound_splits` gives every split
  into two parts of at least MIN_PART letters, and an engine finds only those whose two parts
  are both words of the shop.
"""

import functools
import re
import unicodedata

import snowballstemmer

LANGUAGES = ("en", "de")  # a query is always stemmed in these (and its own language)
SNOWBALL = {
    "en": "english",
    "de": "german",
    "fr": "french",
    "es": "spanish",
    "it": "italian",
    "nl": "dutch",
    "pl": "polish",
}
MIN_PART = 4  # letters of each part of a German compound
MIN_COMPOUND = 2 * MIN_PART + 1
_EN_DERIVED = ("abl", "ibl", "ment")  # after Snowball: washabl -> wash, shipment -> ship
_LINKS = ("s", "es", "n", "en")  # German linking elements between a compound's parts

_EN_HINTS = frozenset(
    "the and is are of to for with you your this that it in on can do does how what our we "
    "be by or not will from at as".split()
)
_DE_HINTS = frozenset(
    "der die das und ist sind ein eine mit für fur auf ich sie wir ihr nicht auch zu wie was "
    "kann den dem des im bei oder sich aus von zum zur nach wird werden bis".split()
)
# Function words of the other visitor languages that are no English or German word (nor
# one another's, where it could be helped): "die", "is", "es", "to" would mislead.
_HINTS = {
    "fr": frozenset(
        "le les est et du pour avec dans sur vous nous pas qui au aux cette sont votre vos une "
        "très être peut".split()
    ),
    "es": frozenset(
        "el los las del para con por una está están son sus muy pero como usted puede y".split()
    ),
    "it": frozenset(
        "il gli della delle dei sono che non di nel alla questo questa può anche è si una con "
        "posso".split()
    ),
    "nl": frozenset(
        "het een niet voor zijn uw ook maar naar bij wordt worden deze dit geen wat je".split()
    ),
    "pl": frozenset("w na z do nie się jest że jak dla od są czy przez lub oraz także".split()),
}
_WORD = re.compile(r"[^\W_]+")


# Query words that find nothing of their own (query.words drops them), in every widget
# language.
STOPWORDS = frozenset(
    """
a an and are as at be but by can could do does did for from have has had how i if in into is
it its me my no not of on or our please so than that the their them then there these they
this to too us was we what when where which who why will with would you your yes hi hello
thanks thank about also any anything else just like more much need some want get got tell
show know one ok okay
aber als am an auch auf aus bei bin bis bitte da das dass dem den der des die doch du ein
eine einem einen einer es für gibt habe haben hallo hat ich ihr im in ist ja kann können mal
mein meine mit nach nicht noch nur oder sie sind so und uns von vor war was wie wir wo zu zum
zur danke gerne welche welcher welches gut
now right just still really got gets getting stuff thing things ever here there should shall
might may must been being am were say let lets wondering question quick though maybe guys hey
ah ach alles klar andere anderen anderes frage fragen womit soll sollte man schon gerade denn
eigentlich kannst könnt könnte konnte würde wäre hab habt hast bist mir mich dich dir euch
ihnen ihm ihn wann warum wieso ob wenn dann also super prima toll genau moin servus
those all each every either neither enough don doesn didn isn aren won wouldn couldn out off
diese dieser dieses diesen jene davon dazu damit darin ganz nem nen ne
""".split()
)
# The second half (issue 26): chat fillers and function words that matched pages by accident
# (the last two lines: function words a follow-up's own words were read as a subject by,
# "have you got enough of those for all of us?")
# ("right" in "Your rights", "andere Frage" in the FAQ) and drowned a new question's own
# words; found on the dev part of the held-out set.
# The other widget languages (fr, es, it, nl, pl): their function words and greetings, none
# that is also an English or German word a shop's page may need ("van", "son", "dove", "tot",
# "pour", "ella" stay searchable).
STOPWORDS = STOPWORDS | frozenset(
    """
au aux avec ce ces cette dans des du elle est et êtes il ils je la le les leur mais même nous
ou où par pas peut qu que quel quelle qui sa se ses sont sur ta te tes toi ton tu un une vos
votre vous très bonjour merci
al como con de del el en es esta está están este esto la las lo los mi mis muy más para pero
por qué su sus también tengo tiene una uno usted ya hola gracias puedo
che chi ci come da della delle dei di gli ha hanno ho il io ma mio non per più può quale
quando questo questa si sono tu vorrei ciao grazie
aan al als bij dan dat deze die dit doen een er geen heb heeft het hoe ik is je jij kan
kunnen maar met mijn naar niet nog om ook op uw voor waar wat wanneer wel wij zijn zou hallo
bedankt
aby ale czy dla go ich im jak jakie jaki jest ja je jego jej już mam mnie może na nie nas od po
przez się są ta tak też za że dzień dobry dziękuję proszę
""".split()
)


@functools.lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """Case-folded, without diacritics (ß -> ss, ü -> u), the way both indexes fold. Cached:
    a catalogue repeats its words, and an import folds every one (issue 26)."""
    word = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in word if not unicodedata.combining(ch))


STOPWORDS = STOPWORDS | {fold(w) for w in STOPWORDS}  # words are folded: für -> fur


@functools.cache
def _stemmer(language: str):
    name = SNOWBALL.get(language, "english")
    if name not in snowballstemmer.algorithms():  # polish: snowballstemmer 3.0 and later
        name = "english"
    return snowballstemmer.stemmer(name)


@functools.lru_cache(maxsize=65536)
def stem(term: str, language: str = "en") -> str:
    """The index term of one folded word. Identifiers and numbers are kept as they are."""
    if len(term) <= 2 or any(ch.isdigit() for ch in term):
        return term
    out = fold(_stemmer(language).stemWord(term))
    if language not in SNOWBALL or language == "en":
        for suffix in _EN_DERIVED:
            if out.endswith(suffix) and len(out) - len(suffix) >= 3:
                out = out[: -len(suffix)]
                break
    return out


@functools.lru_cache(maxsize=65536)
def stems(term: str, language: str = "en") -> tuple[str, ...]:
    """The index terms a query word may have in a document: English, German and, when the
    message is in another language (`language`), that language's (one to three forms)."""
    languages = LANGUAGES if language in LANGUAGES else (*LANGUAGES, language)
    return tuple(dict.fromkeys(stem(term, lang) for lang in languages))


def language_guess(text: str, default: str = "en") -> str:
    """A visitor language by the function words of the text: the one with most of them
    alone; `default` when none leads or the default is among the leaders (a short message
    with one word shared by Spanish and Italian stays in the site's language)."""
    counts = {"en": 0, "de": 0} | dict.fromkeys(_HINTS, 0)
    for m in _WORD.finditer(text[:4000]):
        word = m.group(0).casefold()
        counts["en"] += word in _EN_HINTS
        counts["de"] += word in _DE_HINTS
        for lang, hints in _HINTS.items():
            counts[lang] += word in hints
    top = max(counts.values())
    leaders = [lang for lang, n in counts.items() if n == top]
    if top == 0 or default in leaders or len(leaders) > 1:
        return default
    return leaders[0]


@functools.lru_cache(maxsize=16384)
def compound_splits(term: str) -> tuple[tuple[str, str], ...]:
    """German: the (stem, stem) pairs of the two-part splits of a long word, a linking s/es/n
    dropped from the first part. Only pairs whose both stems are words of a document match
    anything, so a wrong split costs an empty lookup, never a false match on one part."""
    if len(term) < MIN_COMPOUND or not term.isalpha():
        return ()
    out: dict[tuple[str, str], None] = {}
    for i in range(MIN_PART, len(term) - MIN_PART + 1):
        head, tail = term[:i], term[i:]
        heads = [head] + [head[: -len(x)] for x in _LINKS if head.endswith(x)]
        for h in heads:
            if len(h) >= MIN_PART - 1:
                out[(stem(h, "de"), stem(tail, "de"))] = None
    return tuple(out)


MIN_HEAD = 5  # letters of a compound's part that a query word may match on its own


def compound_parts(terms: set[str]) -> set[str]:
    """The first and last parts of a text's long (compound) terms, at every split with at
    least MIN_HEAD letters on the query's side and MIN_PART on the other: "Geschenk" finds
    "Geschenkverpackung", "Lieferung" finds "Expresslieferung". Letters of a part in the
    middle of a word are no match, nor a part shorter than MIN_HEAD (Sand in Versand)."""
    out: set[str] = set()
    for term in terms:
        if len(term) < MIN_HEAD + MIN_PART or not term.isalpha():
            continue
        for i in range(MIN_HEAD, len(term) - MIN_PART + 1):
            out.add(term[:i])
        for i in range(MIN_PART, len(term) - MIN_HEAD + 1):
            out.add(term[i:])
    return out


@functools.lru_cache(maxsize=65536)
def compound_head(term: str) -> str:
    """The form of a query word that may begin or end a German compound of a text
    (`compound_parts`): its German stem from MIN_HEAD letters on, else the word itself when
    Snowball cut a word of that length short (Raten -> rat: "Ratenzahlung" holds "raten",
    never "rat", and a part so short would match inside unrelated words). "" when neither
    is long enough."""
    german = stem(term, "de")
    if german.isalpha() and len(german) >= MIN_HEAD:
        return german
    return term if term.isalpha() and len(term) >= MIN_HEAD else ""


def index_terms(words: list[str], *, language: str) -> list[str]:
    """The terms a document's words are indexed with (query.words gives the words)."""
    return [stem(w, language) for w in words]
