"""Deterministic extraction of identifiers and simple constraints from turn text.

Used twice by condensation: identifiers found here must survive in a verified core even if
the model drops them, and the extractive condenser (demo mode, model fallback) builds its
`objects` and `constraints` from them. Pure Python, no Django, no model.

Kinds:
- identifiers: ``article`` (KU-2291-M, "Art.-Nr. 4711"), ``order`` (55-1031, #100234567,
  "Bestellnummer 12345"), ``contract`` and ``customer`` numbers;
- values: ``date`` (05.10.2026, 2026-10-05, "5 October", "October 5"), ``quantity``
  ("3 Stück", "2 pcs"), ``size`` ("size L", "Größe 42", "EU 42", "38/40", "in XL") and
  ``colour`` (a fixed word list, English and German).

The regular expressions are compiled once and have no nested unbounded repetition.
Callers pass text whose contact and health spans are already replaced (see condense.py),
so a phone number is never mistaken for an order number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

ARTICLE = "article"
ORDER = "order"
CONTRACT = "contract"
CUSTOMER = "customer"
DATE = "date"
QUANTITY = "quantity"
SIZE = "size"
COLOUR = "colour"

#: Kinds that name an object (they go to `objects` in the core).
ID_KINDS: tuple[str, ...] = (ARTICLE, ORDER, CONTRACT, CUSTOMER)
#: Kinds that narrow the answer (they go to `constraints`).
VALUE_KINDS: tuple[str, ...] = (DATE, QUANTITY, SIZE, COLOUR)

_I = re.IGNORECASE
# A value after a keyword: starts alphanumeric, may hold dashes, slashes and dots inside.
_VALUE = r"#?(?P<v>[A-Za-z0-9](?:[A-Za-z0-9./-]{0,22}[A-Za-z0-9])?)"
_NO = r"(?:[- ]?(?:no|nr|number|nummer|num|id|#)\.?)?"
_SEP = r"\s{0,3}[:#]?\s{0,3}"

_KEYED: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        ARTICLE,
        re.compile(
            r"\b(?:art(?:icle|ikel)?\.?"
            + _NO
            + r"|artikelnummer|sku|item"
            + _NO
            + r"|model)"
            + _SEP
            + _VALUE,
            _I,
        ),
    ),
    (
        ORDER,
        re.compile(
            r"\b(?:order|bestellung|bestellnummer|auftrag(?:snummer)?|rechnung(?:snummer)?|invoice)"
            + _NO
            + _SEP
            + _VALUE,
            _I,
        ),
    ),
    (
        CONTRACT,
        re.compile(r"\b(?:contract|vertrag(?:snummer)?|policy|police)" + _NO + _SEP + _VALUE, _I),
    ),
    (
        CUSTOMER,
        re.compile(
            r"\b(?:customer|kunden)(?:[- ]?(?:no|nr|number|nummer|id|account|konto)\.?)"
            + _SEP
            + _VALUE,
            _I,
        ),
    ),
)
_ARTICLE_SHAPE = re.compile(r"(?<![\w-])[A-Z]{1,5}-\d{2,7}(?:-[A-Z0-9]{1,5})?(?![\w-])")
_ORDER_HASH = re.compile(r"(?<![\w#])#\d{5,12}(?!\w)")
_ORDER_SHAPE = re.compile(r"(?<![\w./-])\d{2,4}-\d{4,6}(?![\w-]|[./]\d)")

_MONTHS_EN = (
    "january|february|march|april|may|june|july|august|september|october|november"
    "|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_MONTHS_DE = (
    "januar|jänner|februar|märz|maerz|april|mai|juni|juli|august|september|oktober"
    "|november|dezember"
)
_DATES: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?<![\w.])\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})?(?![\w])"),
    re.compile(r"(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])"),
    re.compile(r"(?<![\w/])\d{1,2}/\d{1,2}/\d{4}(?![\w/])"),
)  # and "5 October", "October 5": _month_dates
_QUANTITY = re.compile(
    r"\b\d{1,4}\s?(?:x(?![\w])|×|stück\b|stk\b\.?|pcs\b\.?|pieces?\b|units?\b|paar\b|pairs?\b"
    r"|packs?\b|packungen?\b|rolls?\b|rollen\b|meters?\b|metres?\b|meter\b)",
    _I,
)
_SIZE_WORD = re.compile(
    r"\b(?:size|größe|groesse|gr\.)\s?(?:eu\s?)?"
    r"(?P<v>XXXS|XXS|XS|S|M|L|XL|XXL|XXXL|[2-6]XL|\d{2,3}(?:[.,]5)?(?:/\d{2,3})?)(?![\w])",
    _I,
)
_SIZE_EU = re.compile(r"\bEU\s?\d{2}(?:[.,]5)?(?![\w])")
_SIZE_PAIR = re.compile(r"(?<![\w/.])[3-5]\d/[3-5]\d(?![\w/.])")
_SIZE_IN = re.compile(r"\b(?:in|in size)\s(?P<v>XXS|XS|XL|XXL|XXXL|[2-6]XL|S|M|L)(?![\w'’])")

_COLOURS_EN = (
    "white",
    "black",
    "sky blue",
    "navy blue",
    "navy",
    "light blue",
    "dark blue",
    "blue",
    "mint green",
    "mint",
    "dark green",
    "olive",
    "green",
    "red",
    "burgundy",
    "grey",
    "gray",
    "beige",
    "brown",
    "pink",
    "yellow",
    "orange",
    "purple",
    "turquoise",
    "cream",
    "ivory",
    "silver",
    "gold",
)
_COLOURS_DE = (
    "weiß",
    "weiss",
    "schwarz",
    "hellblau",
    "dunkelblau",
    "blau",
    "mintgrün",
    "dunkelgrün",
    "grün",
    "gruen",
    "rot",
    "grau",
    "braun",
    "rosa",
    "gelb",
    "lila",
    "türkis",
    "creme",
    "silber",
)
_COLOUR_WORDS = _COLOURS_EN + _COLOURS_DE


def _colour_pattern(words: tuple[str, ...]) -> str:
    return r"\b(?:" + "|".join(re.escape(c) for c in words) + r")\b"


# Narrowing (issue 30): every pattern above but the size words and colours needs a digit, and
# a month or colour alternation can match only where one of its words is in the text. Those
# two alternations were tried at every word boundary, most of this module's time on an answer
# (0.2 ms of 0.23 on 300 characters). A text without digits skips what needs one; the month
# and colour patterns run with the words the text holds, in their order (an alternation tries
# its words in order, and one that is not in the text matches nowhere): the same matches.
_DIGIT = re.compile(r"\d")
_MONTH_WORDS = tuple(f"{_MONTHS_EN}|{_MONTHS_DE}".split("|"))


def _folded(text: str) -> str:
    """`text` as IGNORECASE compares it, for a substring test: case folding maps "ſ" to "s",
    the Kelvin sign to "k", "ẞ" and "ß" alike; IGNORECASE also takes the dotless "ı" and
    the dotted "İ" (folded to "i" and a combining dot) for "i"."""
    return text.casefold().replace("\u0131", "i").replace("i\u0307", "i")


_MONTHS_FOLDED = tuple((w, _folded(w)) for w in _MONTH_WORDS)
_COLOURS_FOLDED = tuple((w, _folded(w)) for w in _COLOUR_WORDS)


def _held(words: tuple[tuple[str, str], ...], folded: str) -> tuple[str, ...]:
    """The words (word, its folded form) whose folded form is in `folded`, in their order."""
    return tuple(word for word, form in words if form in folded)


@lru_cache(maxsize=256)
def _month_dates(months: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    month = "(?:" + "|".join(months) + ")"
    return (
        re.compile(r"\b\d{1,2}(?:st|nd|rd|th|\.)?\s(?:of\s)?" + month + r"\b(?:\s\d{4}\b)?", _I),
        re.compile(r"\b" + month + r"\s\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s\d{4}\b)?", _I),
    )


@lru_cache(maxsize=256)
def _colours(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(_colour_pattern(words), _I)


@dataclass(frozen=True)
class Found:
    kind: str
    value: str
    start: int
    end: int


def _has_digit(value: str) -> bool:
    return any(ch.isdigit() for ch in value)


def _clean(value: str) -> str:
    return value.strip().rstrip(".,;:")


def _overlaps(found: list[Found], start: int, end: int) -> bool:
    return any(f.start < end and start < f.end for f in found)


def identifiers_extract(text: str) -> list[Found]:
    """Identifiers and values in `text`, in order of appearance, without overlaps.

    Precedence: dates, then keyed identifiers ("order 12345"), then shaped identifiers
    (KU-2291-M, 55-1031, #100234567), then quantities, sizes and colours.
    """
    found: list[Found] = []

    def add(kind: str, value: str, start: int, end: int) -> None:
        value = _clean(value)
        if value and not _overlaps(found, start, end):
            found.append(Found(kind, value, start, end))

    digits = _DIGIT.search(text) is not None
    folded = _folded(text)
    if digits:
        months = _held(_MONTHS_FOLDED, folded)
        for pattern in _DATES + (_month_dates(months) if months else ()):
            for m in pattern.finditer(text):
                add(DATE, m.group(0), m.start(), m.end())
        for kind, pattern in _KEYED:
            for m in pattern.finditer(text):
                value = m.group("v")
                if _has_digit(value) and len(value) >= 3:
                    add(kind, value, m.start("v"), m.end("v"))
        for m in _ARTICLE_SHAPE.finditer(text):
            add(ARTICLE, m.group(0), m.start(), m.end())
        for m in _ORDER_HASH.finditer(text):
            add(ORDER, m.group(0), m.start(), m.end())
        for m in _ORDER_SHAPE.finditer(text):
            add(ORDER, m.group(0), m.start(), m.end())
        for m in _QUANTITY.finditer(text):
            add(QUANTITY, m.group(0), m.start(), m.end())
    for m in _SIZE_WORD.finditer(text):
        add(SIZE, m.group("v"), m.start("v"), m.end("v"))
    if digits:
        for pattern in (_SIZE_EU, _SIZE_PAIR):
            for m in pattern.finditer(text):
                add(SIZE, m.group(0), m.start(), m.end())
    for m in _SIZE_IN.finditer(text):
        add(SIZE, m.group("v"), m.start("v"), m.end("v"))
    colours = _held(_COLOURS_FOLDED, folded)
    if colours:
        for m in _colours(colours).finditer(text):
            add(COLOUR, m.group(0).lower(), m.start(), m.end())
    found.sort(key=lambda f: f.start)
    return found


def ids_extract(text: str) -> list[Found]:
    """Only the object identifiers (article, order, contract, customer numbers)."""
    return [f for f in identifiers_extract(text) if f.kind in ID_KINDS]


# Tokens that carry a number: what verification checks against the sources.
_NUMBERISH = re.compile(r"#?[A-Za-z0-9][A-Za-z0-9./_-]{0,40}")
_TURN_REF = re.compile(r"\b(?:turns?|zug|nachricht)\s?\d{1,7}(?:\s?[–-]\s?\d{1,7})?", _I)


def numberish_tokens(text: str) -> list[str]:
    """Every token of `text` that contains a digit ("KU-2291-M", "55-1031", "3", "05.10.2026"),
    with trailing punctuation removed. References to turns ("turn 5") are not counted."""
    text = _TURN_REF.sub(" ", text)
    tokens = []
    for m in _NUMBERISH.finditer(text):
        token = m.group(0).rstrip("./-_")
        if _has_digit(token):
            tokens.append(token)
    return tokens


def normalise(text: str) -> str:
    """Case-folded, whitespace-collapsed text for containment checks."""
    return " ".join(text.casefold().split())


def occurs(token: str, haystack: str) -> bool:
    """Whether `token` occurs in the normalised `haystack` as a whole token (not inside a
    longer number: "12" does not occur in "1234")."""
    needle = normalise(token).lstrip("#")
    if not needle:
        return True
    pattern = r"(?<![0-9a-z])#?" + re.escape(needle) + r"(?![0-9a-z]|[./-][0-9a-z])"
    return re.search(pattern, haystack) is not None
