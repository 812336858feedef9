"""Words into index terms: one analyser for both engines, English and German.

Pure functions (no database). Both full-text engines index the terms this module makes
(PostgreSQL with the `simple` configuration, SQLite's FTS5 with its plain tokenizer), so a
chunk matches the same words on either, and the rescoring (query.py) compares the same terms.

- Words are folded first (case, diacritics, ß -> ss: "Größe" and "groesse" typed without
  umlauts meet) and stemmed with the Snowball stemmer of the text's language
  (`snowballstemmer`): size = sizes, Größe = Größen, while Rücksendung (return) stays apart
  from Rucksack (backpack), which a shared prefix had merged.
- English derivations the Snowball stemmer keeps apart are joined by a few suffixes:
  washable ~ wash, shipment ~ shipping.
- A document's language is guessed from its function words (a shop's pages may be in either
  language whatever the site's default); a query is stemmed in both languages, since a
  visitor's few words rarely say which.
- The other visitor languages (fr, es, it, nl, pl: chatwidget.platform.languages) are
  stemmed like English, as any text that is not German was before: a plural -s still meets
  its singular. Their own Snowball stemmers are left out until a held-out retrieval set in
  those languages can show they help: each would need the site's language in every query
  expansion (`stems`), and the held-out benchmark is English and German.
- German compounds: a query word is also matched by its two parts
  (Rücksendeetikett ~ "Etikett für die Rücksendung"); `compound_splits` gives every split
  into two parts of at least MIN_PART letters, and an engine finds only those whose two parts
  are both words of the shop.
"""

import functools
import re
import unicodedata

import snowballstemmer

LANGUAGES = ("en", "de")
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
_WORD = re.compile(r"[^\W_]+")


@functools.lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """Case-folded, without diacritics (ß -> ss, ü -> u), the way both indexes fold. Cached:
    a catalogue repeats its words, and an import folds every one (issue 26)."""
    word = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in word if not unicodedata.combining(ch))


@functools.cache
def _stemmer(language: str):
    return snowballstemmer.stemmer("german" if language == "de" else "english")


@functools.lru_cache(maxsize=65536)
def stem(term: str, language: str = "en") -> str:
    """The index term of one folded word. Identifiers and numbers are kept as they are."""
    if len(term) <= 2 or any(ch.isdigit() for ch in term):
        return term
    out = fold(_stemmer(language).stemWord(term))
    if language != "de":
        for suffix in _EN_DERIVED:
            if out.endswith(suffix) and len(out) - len(suffix) >= 3:
                out = out[: -len(suffix)]
                break
    return out


def stems(term: str) -> tuple[str, ...]:
    """The index terms a query word may have in a document of either language (one or two)."""
    forms = dict.fromkeys(stem(term, lang) for lang in LANGUAGES)
    return tuple(forms)


def language_guess(text: str, default: str = "en") -> str:
    """ "de" or "en" by the function words of the text; `default` when neither leads."""
    en = de = 0
    for m in _WORD.finditer(text[:4000]):
        word = m.group(0).casefold()
        en += word in _EN_HINTS
        de += word in _DE_HINTS
    if de > en:
        return "de"
    if en > de:
        return "en"
    return default


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


def index_terms(words: list[str], *, language: str) -> list[str]:
    """The terms a document's words are indexed with (query.words gives the words)."""
    return [stem(w, language) for w in words]


# --- does a message lean on what came before? -------------------------------------------------

_EN_BACK = frozenset(
    "it its it's itself they them their this that these those one ones same".split()
)
_EN_OPENERS = ("and ", "what about", "how about", "also ", "same ", "or ")
_DE_BACK = frozenset("es ihn ihm diese dieser dieses diesen davon dazu damit darin".split())
_DE_ARTICLES = frozenset("der die das den dem".split())
_DE_OPENERS = ("und ", "was ist mit", "wie ist es mit", "auch ", "oder ")
_TOKEN = re.compile(r"[^\W\d_]+(?:'[a-z]+)?|[?!.,;:]")


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
        if word in _EN_BACK or word in _DE_BACK:
            return True
        if word in _DE_ARTICLES:
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            if not after or not after[0].isalpha() or after[0].islower():
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
