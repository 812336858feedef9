"""Redaction at ingestion: what is never kept, and what is kept but marked.

Pure Python (no Django import), so it is fast and testable without a database.

``redact(text)`` runs on every visitor and assistant turn before it is stored:

* Never kept: card numbers, card security codes (CVV/CVC), passwords, PINs and one-time
  codes (TANs, 2FA, verification codes) are replaced in the text by a typed placeholder
  (:data:`PLACEHOLDERS`). Only the value is replaced; the word that announced it stays, so
  "mein Passwort ist Sommer2024!" becomes "mein Passwort ist [password removed]".
* Kept but marked: e-mail addresses, phone numbers, IBANs and postal addresses stay in the
  text; their spans (offsets into the redacted text) are returned so staff views can show
  them masked (:func:`mask`).
* Health details are flagged (span kind ``"health"``), never removed.

Checks that a well-kept library does are left to it: Luhn and IBAN validation to
python-stdnum, phone numbers to phonenumbers (libphonenumber). The regular expressions
below only find candidates and the words around them; they are compiled once, at import,
and written without nested unbounded repetition so that they run in linear time.

The result records kinds and counts, never values.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import phonenumbers
from stdnum import iban as stdnum_iban
from stdnum import luhn

__all__ = [
    "ADDRESS",
    "CARD",
    "EMAIL",
    "HEALTH",
    "HINTS",
    "IBAN",
    "MARKED_KINDS",
    "OTP",
    "PASSWORD",
    "PHONE",
    "PIN",
    "PLACEHOLDERS",
    "PLACEHOLDERS_BY_LANGUAGE",
    "PLACEHOLDERS_DE",
    "REMOVED_KINDS",
    "RedactionResult",
    "Span",
    "mask",
    "placeholders_localise",
    "redact",
]

# --------------------------------------------------------------------------------------
# Kinds, placeholders, hints
# --------------------------------------------------------------------------------------

CARD = "card"
SECURITY_CODE = "security_code"
PASSWORD = "password"
PIN = "pin"
OTP = "otp"

IBAN = "iban"
EMAIL = "email"
PHONE = "phone"
ADDRESS = "address"
HEALTH = "health"

#: Never-kept kinds, in order of precedence when two candidates overlap.
REMOVED_KINDS: tuple[str, ...] = (CARD, SECURITY_CODE, PIN, OTP, PASSWORD)
#: Kept-but-marked kinds, in order of precedence when two candidates overlap.
MARKED_KINDS: tuple[str, ...] = (IBAN, EMAIL, PHONE, ADDRESS, HEALTH)

#: kind -> the English placeholder that replaces the value in the stored text.
PLACEHOLDERS: dict[str, str] = {
    CARD: "[card number removed]",
    SECURITY_CODE: "[security code removed]",
    PASSWORD: "[password removed]",
    PIN: "[PIN removed]",
    OTP: "[one-time code removed]",
}

#: kind -> the German placeholder, for callers that localise what the visitor sees.
PLACEHOLDERS_DE: dict[str, str] = {
    CARD: "[Kartennummer entfernt]",
    SECURITY_CODE: "[Sicherheitscode entfernt]",
    PASSWORD: "[Passwort entfernt]",
    PIN: "[PIN entfernt]",
    OTP: "[Einmalcode entfernt]",
}

PLACEHOLDERS_BY_LANGUAGE: dict[str, dict[str, str]] = {"en": PLACEHOLDERS, "de": PLACEHOLDERS_DE}


def gettext_noop(message: str) -> str:
    """Marks a string for `makemessages` without importing Django; callers translate."""
    return message


#: kind -> a short hint for the visitor: why the value was removed, where to go instead.
#: Plain English msgids; callers translate with gettext (memory.services.removed_hint).
HINTS: dict[str, str] = {
    CARD: gettext_noop(
        "For your safety we removed the card number. Please never share card details in "
        "the chat; pay through the shop's checkout instead."
    ),
    SECURITY_CODE: gettext_noop(
        "For your safety we removed the security code. Nobody from the shop will ever ask "
        "for it; enter it only in the shop's checkout."
    ),
    PASSWORD: gettext_noop(
        "For your safety we removed the password. We never need it: if you cannot sign in, "
        'use "Forgot password" on the login page.'
    ),
    PIN: gettext_noop("For your safety we removed the PIN. Never share a PIN with anyone, including us."),
    OTP: gettext_noop(
        "For your safety we removed the code. One-time codes and TANs are only for you: "
        "never share them with anyone, including us."
    ),
}

_BULLET = "\u2022"

# --------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """A kept-but-marked value: ``text[start:end]`` of the redacted text."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class RedactionResult:
    """What :func:`redact` found. Holds kinds, counts and offsets, never the removed values."""

    text: str
    spans: tuple[Span, ...]
    removed: dict[str, int]
    findings: dict[str, int]

    @property
    def health(self) -> bool:
        """True when the text mentions a health detail (to keep it out of core and profile)."""
        return self.findings.get(HEALTH, 0) > 0

    def spans_json(self) -> list[list[str | int]]:
        """The spans as ``[[kind, start, end], ...]``, ready for a JSONField."""
        return [[span.kind, span.start, span.end] for span in self.spans]


# --------------------------------------------------------------------------------------
# Patterns (compiled once)
# --------------------------------------------------------------------------------------

_I = re.IGNORECASE

# Never match a placeholder we wrote ourselves, so redact() is idempotent.
_NOT_PLACEHOLDER = "(?!" + "|".join(re.escape(p) for p in PLACEHOLDERS.values()) + ")"

# Words that may sit between a keyword and its value: "PIN: 1234", "TAN ist 583920",
# "password is", "CVV (3 digits)"... Bounded, and every repetition consumes a token.
_FILLER = (
    r"(?:[\s:=#\-\u2013(),]|\b(?:is|was|are|ist|war|lautet|lautete|number|nummer|nr|no"
    r"|code|the|der|die|das|my|mein|meine|dein|deine|your|ihre|ihr|from|aus|of|von|for"
    r"|f\u00fcr|it'?s|sms|app|e-?mail|mail|text|authenticator)\b\.?)"
)
_JOIN = _FILLER + "{0,8}"

_CARD_CANDIDATE = re.compile(
    # 12-19 digits, single spaces or dashes between them; not part of a longer number,
    # not glued to a word (an IBAN's "DE89 ...") and not after "+" (a phone number).
    # (Starts with \d so that the regex engine can skip to digits quickly.)
    r"\d(?<![\w+]\d)(?<!\d[ -]\d)(?:[ -]?\d){11,18}(?![ -]?\d)(?!\w)"
)
# Issuer prefixes of the card schemes (Visa 4, Mastercard 51-55 and 2221-2720, Amex 34/37,
# Diners/JCB 30/35/36/38/39, Discover/UnionPay/Maestro 50/56-69).
_CARD_PREFIX = re.compile(r"[456]|3[045-9]|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)")
_CARD_WORD = (
    r"\b(?:(?:credit|debit|bank|gift)[ -]?cards?|cards?|card[ -]?(?:number|no)"
    r"|(?:kredit|debit|ec|giro|bank|geld|visa|master|geschenk)?-?karten?(?:nummer|nr)?"
    r"|visa|master[ -]?card|amex|american express|maestro|diners(?: club)?|discover"
    r"|jcb|unionpay|cc)\b"
)
_CARD_WORD_BEFORE = re.compile(_CARD_WORD + r"(?P<gap>[^\d!?\n]{0,30})$", _I)
_CARD_WORD_AFTER = re.compile(r"[^\d!?\n.]{0,15}?" + _CARD_WORD, _I)

_SECURITY_WORD = (
    r"\b(?:cvv2?|cvc2?|cvn|cav2|csc|kartenpr\u00fcf(?:nummer|ziffer|code)|pr\u00fcfnummer"
    r"|sicherheitscode|sicherheits-code|security[ -]code|card security code"
    r"|card verification (?:code|value|number))\b"
)
_SECURITY = re.compile(
    _SECURITY_WORD + _JOIN + _NOT_PLACEHOLDER + r"(?P<value>\d{3,4})(?![\d\w])", _I
)

_PIN_WORD = r"\b(?:pin(?:[- ]?(?:nummer|code|nr|number))?|geheimzahl)\b"
_PIN = re.compile(_PIN_WORD + _JOIN + r"(?P<value>\d{4,8})(?![\d\w])", _I)

_OTP_WORD = (
    r"\b(?:otp"
    r"|one[- ]time[- ](?:code|password|passcode|pin)|einmal-?(?:code|passwort|kennwort)"
    r"|2fa(?:[- ]code)?|two[- ]factor(?:[- ]authentication)?[- ]code"
    r"|zwei-?faktor-?code|verification[- ]code|verifi(?:zierungs|kations)-?code"
    r"|best\u00e4tigungs-?code|login[- ]code|anmelde-?code|auth(?:entication)?[- ]code"
    r"|authentifizierungs-?code|authenticator[- ]code|sms[- ]code|sicherheitscode"
    r"|security[- ]code|code (?:aus|from|in) (?:der|the|my|meiner|your)? ?"
    r"(?:sms|e-?mail|mail|text|app))\b"
)
_OTP = re.compile(
    _OTP_WORD + _JOIN + _NOT_PLACEHOLDER + r"(?P<value>\d{3}[ -]\d{3}|\d{4,8})(?![\d\w])", _I
)
# "TAN" is also a colour ("tan, 2024 model"): a TAN value has at least five digits.
_TAN_WORD = r"\b(?:m|sms|push|chip|photo|i)?-?tan(?:[- ]?(?:nummer|code|nr))?\b"
_TAN = re.compile(
    _TAN_WORD + _JOIN + _NOT_PLACEHOLDER + r"(?P<value>\d{3}[ -]\d{3}|\d{5,8})(?![\d\w])", _I
)

# "583920 ist meine TAN", "1234 is my PIN": value first, then the word.
_VALUE_FIRST = re.compile(
    r"(?<![\w+])(?P<value>\d{3,8})\s+(?:is|was|ist|war)\s+(?:my|mein|meine|the|die|der"
    r"|your|ihre|deine)\s+(?:(?P<pin>"
    + _PIN_WORD
    + r")|(?P<otp>"
    + _OTP_WORD
    + r"|"
    + _TAN_WORD
    + r")|(?P<sec>"
    + _SECURITY_WORD
    + r"))",
    _I,
)

_PASSWORD = re.compile(
    r"\b(?P<word>passwor[dt]s?|kennwort|pass-?phrase|passcode|pwd?)\b"
    r"(?P<join>(?:\s*[:=]|\s+(?:is|was|ist|war|lautet|lautete)\b\s*:?|'s\b)\s*)"
    + _NOT_PLACEHOLDER
    + r"(?P<value>\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'|\u201e[^\u201c\n]{1,100}\u201c|[^\s:=]\S{0,99})",
    _I,
)
# After "password is/ist ..." these words describe the password, they are not one.
_NOT_A_PASSWORD = frozenset(
    """
    wrong incorrect not invalid expired right correct case-sensitive required missing
    forgotten locked blocked reset changed gone secure safe strong weak empty valid
    accepted rejected unknown broken mandatory fine ok okay now also too very just still
    already being definitely probably apparently somehow suddenly no never always
    the a an my your his her our their this that it in at on for with and or but
    falsch nicht abgelaufen ungültig korrekt richtig zu erforderlich vergessen gesperrt
    zurückgesetzt geändert weg sicher stark schwach leer gültig akzeptiert unbekannt
    kaputt pflicht jetzt auch doch so sehr nur noch immer schon leider irgendwie plötzlich
    kein keine nie der die das ein eine mein meine dein deine ihr ihre unser bei im in
    für mit und oder aber ja nein
    stored saved encrypted hashed needed used sent shown visible only known private
    personal important different same long longer short shorter here there what how
    which where why when something anything nothing like because if should must can will
    has have had been set created given only
    gespeichert verschlüsselt benötigt verwendet gesendet angezeigt sichtbar bekannt
    privat persönlich wichtig anders gleich lang länger kurz kürzer hier da was wie
    welches wo warum wann etwas nichts weil ob wenn sollte muss kann wird hat habe
    gewesen gesetzt vergeben erstellt
    """.split()
)

_EMAIL = re.compile(
    r"(?<![\w.%+-])[\w.%+-]{1,64}@(?:[^\W_](?:[\w-]{0,61}[^\W_])?\.){1,8}[^\W\d_]{2,24}(?![\w-])"
)

_IBAN_CANDIDATE = re.compile(r"(?<![^\W_])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]){11,32}(?![^\W_])")

_PHONE_CANDIDATE = re.compile(r"(?<![\w+])(?:\+|\(\+?)?\d[\d ().\/\-\u2013]{4,24}\d(?!\w)")
_PHONE_REGIONS: tuple[str, ...] = ("DE", "AT", "CH", "GB", "US")
_PHONE_WORD = re.compile(
    r"\b(?:tel(?:efon\w*|\.)?|telephone|phone\w*|call(?:\s+me)?|ruf\w*|anruf\w*|handy\w*"
    r"|mobil\w*|mobile|cell(?:phone)?|fax|whats\s?app|sms|text\s+me|erreichbar|reach\s+me"
    r"|festnetz\w*|landline|hotline)\b[^\d\n]{0,30}$",
    _I,
)
_ORDER_WORD = re.compile(
    r"(?:\b(?:orders?|order[ -]?(?:number|no)|bestell\w*|auftrag\w*|rechnung\w*|invoices?"
    r"|artikel\w*|articles?|items?|sku|art\.?-?nr|tracking\w*|sendung\w*|paket\w*"
    r"|kunden\w*|customer|ticket\w*|referen\w*|vorgang\w*|ean|gtin|isbn|upc|nr|no)\b|#)[^\d\n]{0,20}$",
    _I,
)
_DATE = re.compile(r"\b\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b|\b\d{4}-\d{1,2}-\d{1,2}\b")

_DE_SUFFIX = r"(?:stra(?:\u00df|ss)e|str\.|weg|platz|allee|gasse|ring|damm)"
_DE_SUFFIX_WORD = r"(?:Stra(?:\u00df|ss)e|Str\.|Weg|Platz|Allee|Gasse|Ring|Damm)"
# A house number must not be a quantity: "Ehering 18 Karat", "Rückweg 3 Tage".
_NOT_A_QUANTITY = (
    r"(?!\s*(?i:karat|kt\b|mm\b|cm\b|m\b|g\b|gramm|kg\b|km\b|meter|euro|eur\b|\u20ac|%"
    r"|st\u00fcck|stk\b|x\b|mal\b|tage?n?\b|wochen?\b|monate?n?\b|jahre?n?\b|minuten?\b"
    r"|stunden?\b|uhr\b|days?\b|weeks?\b|months?\b|years?\b|hours?\b|minutes?\b|min\b"
    r"|h\b|gr\u00f6\u00dfe|size|pieces?|pcs\b))"
)
_DE_PLACE = (
    r"(?:,?\s*(?:(?:D|A|CH)-)?\d{4,5}\s+[A-Z\u00c4\u00d6\u00dc][\w\u00df-]+"
    r"(?:\s(?:am|an der|im|in der|ob der|bei)\s[A-Z\u00c4\u00d6\u00dc][\w\u00df-]+)?)?"
)
_DE_STREET = re.compile(
    r"(?<![\w-])(?:"
    # compound: Hauptstraße, Karl-Marx-Str., bahnhofstrasse, Lindenweg
    r"(?:(?:[^\W\d_]+-)+|[^\W\d_]{2,}?)(?i:" + _DE_SUFFIX + r")"
    # separate word: Berliner Straße, Alte Gasse (not "Der Ring")
    r"|(?!(?:Der|Die|Das|Den|Dem|Des|Ein|Eine|Einen|Mein|Meine|Dein|Deine|Ihr|Ihre|Unser"
    r"|Unsere|Welcher|Welche|Dieser|Diese|Jeder|Jede)\s)"
    r"[A-Z\u00c4\u00d6\u00dc][^\W\d_]+\s" + _DE_SUFFIX_WORD + r")"
    r"\s?\d{1,4}(?:\s?[a-zA-Z]\b)?(?:\s?[-/\u2013]\s?\d{1,4}[a-zA-Z]?)?(?![\d\w])"
    + _NOT_A_QUANTITY
    + _DE_PLACE
)

_US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV"
    "|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY"
)
_UK_POSTCODE = r"[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}"
_EN_STREET = re.compile(
    r"(?<![\w-])\d{1,5}[A-Za-z]?,?\s+(?:(?:\d{1,3}(?:st|nd|rd|th)|[A-Z][a-z'\u2019]+)\.?\s+){1,3}"
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place"
    r"|Terrace|Close|Crescent|Square|Parkway|Pkwy|Highway|Hwy|Loop|Circle|Cir|Trail|Mews)"
    r"\b\.?"
    r"(?:\s(?:N|S|E|W|NE|NW|SE|SW)\b)?"
    r"(?:,?\s(?:Apt|Suite|Unit|Flat)\.?\s?#?\w{1,6})?"
    r"(?:,\s?[A-Z][a-z]+(?:\s[A-Z][a-z]+){0,2})?"
    r"(?:,?\s(?:(?:" + _US_STATES + r")\s\d{5}(?:-\d{4})?|" + _UK_POSTCODE + r"))?(?![\w-])"
)
# These two start with letters and check what precedes them afterwards, so that the regex
# engine can skip ahead to the candidate letters quickly.
_US_STATE_ZIP = re.compile(r"(?:" + _US_STATES + r")(?<![\w-]..)\s\d{5}(?:-\d{4})?(?![\w-])")
_UK_POSTCODE_ALONE = re.compile(r"(?=[A-Z])(?<![\w-])" + _UK_POSTCODE + r"(?![\w-])")

# Anchors: an address pattern runs over the text only where its anchor occurs.
_DE_STREET_ANCHOR = re.compile(
    r"(?:stra(?:\u00df|ss)e|str\.|weg|platz|allee|gasse|ring|damm|Stra(?:\u00df|ss)e|Str\.|Weg"
    r"|Platz|Allee|Gasse|Ring|Damm|STRA(?:\u00df|SS)E|STR\.|WEG|PLATZ|ALLEE|GASSE|RING|DAMM)"
    r"\s?\d"
)
_EN_STREET_ANCHOR = re.compile(
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place"
    r"|Terrace|Close|Crescent|Square|Parkway|Pkwy|Highway|Hwy|Loop|Circle|Cir|Trail|Mews)\b"
)
# Jewellery, not a street: "Goldring 585", "Silberring 925" (hallmarks).
_HALLMARK = re.compile(r"ring\s?(?:333|375|585|750|900|916|925|999)\b", _I)

_HEALTH = re.compile(
    r"\b(?:diagnos(?:e|en|is|ed|tiziert)|diabet\w*|allerg(?![\w-]*(?:freundlich|friendly|frei"
    r"|free|arm))\w*|\w+allergie\w*|pregnan\w*|schwanger\w*|depressi(?:on|onen|v|ve|ver|ven)"
    r"|krankheit\w*|erkrank\w*|krank(?:e|er|en)?|medikament\w*|medications?|prescriptions?"
    r"|rezept(?:e|pflichtig\w*)?(?!\s+(?:f\u00fcr|for)\b)|krankenh(?:a|\u00e4)us\w*|hospital\w*"
    r"|asthma\w*|epilep\w*|insulin|chemo\w*|migr\u00e4ne|migraine|z\u00f6liakie|coeliac"
    r"|celiac|laktoseintoleran\w*|lactose[- ]intoleran\w*|arthritis|neurodermitis"
    r"|bluthochdruck|krebserkrank\w*|tumou?re?n?|wheelchair|rollstuhl\w*|schwerbehindert\w*"
    r"|disabilit(?:y|ies)|behinderung\w*)\b",
    _I,
)

_DIGIT = re.compile(r"\d")

# Cheap pre-checks: a pattern runs only when the lower-cased text contains one of the
# substrings that every match of it contains, or where its anchor pattern matches (a test
# holds these to the patterns).
_KEYWORDS_SECURITY = (
    "cvv",
    "cvc",
    "cvn",
    "cav2",
    "csc",
    "pr\u00fcf",
    "sicherheit",
    "security",
    "verification",
)
_KEYWORDS_PIN = ("pin", "geheimzahl")
_KEYWORDS_OTP = ("otp", "code", "one-time", "one time", "einmal", "2fa")
_KEYWORDS_TAN = ("tan",)
_GATES: dict[re.Pattern[str], tuple[str, ...] | re.Pattern[str]] = {
    _DE_STREET: _DE_STREET_ANCHOR,
    _EN_STREET: _EN_STREET_ANCHOR,
    _US_STATE_ZIP: re.compile(r"\d{5}"),
    _SECURITY: _KEYWORDS_SECURITY,
    _PIN: _KEYWORDS_PIN,
    _OTP: _KEYWORDS_OTP,
    _TAN: _KEYWORDS_TAN,
    _VALUE_FIRST: _KEYWORDS_SECURITY + _KEYWORDS_PIN + _KEYWORDS_OTP + _KEYWORDS_TAN,
    _PASSWORD: ("pass", "pw", "kennwort"),
    _EMAIL: ("@",),
    _HEALTH: (
        "diagnos",
        "diabet",
        "allerg",
        "pregnan",
        "schwanger",
        "depressi",
        "krank",
        "medikament",
        "medication",
        "prescription",
        "rezept",
        "hospital",
        "asthma",
        "epilep",
        "insulin",
        "chemo",
        "migr\u00e4ne",
        "migraine",
        "z\u00f6liakie",
        "coeliac",
        "celiac",
        "intoleran",
        "arthritis",
        "neurodermitis",
        "bluthochdruck",
        "tumo",
        "wheelchair",
        "rollstuhl",
        "behindert",
        "disabilit",
        "behinderung",
    ),
}


def _finditer(pattern: re.Pattern[str], *, text: str, lower: str = "") -> Iterator[re.Match[str]]:
    gate = _GATES.get(pattern)
    if isinstance(gate, re.Pattern):
        if not gate.search(text):
            return iter(())
    elif gate is not None and not any(keyword in lower for keyword in gate):
        return iter(())
    return pattern.finditer(text)


_PLACEHOLDER_KINDS: dict[str, str] = {p: kind for kind, p in PLACEHOLDERS.items()}
_PLACEHOLDER_ANY = re.compile("|".join(re.escape(p) for p in PLACEHOLDERS.values()))


# --------------------------------------------------------------------------------------
# Finders
# --------------------------------------------------------------------------------------

_Found = tuple[int, int, str]  # (start, end, kind)


def _digits(value: str) -> str:
    return "".join(ch for ch in value if ch.isdigit())


def _find_cards(*, text: str) -> list[_Found]:
    found: list[_Found] = []
    for match in _CARD_CANDIDATE.finditer(text):
        number = _digits(match.group())
        before = _CARD_WORD_BEFORE.search(text, max(0, match.start() - 60), match.start())
        said_card = bool(before and not _ORDER_WORD.search(before.group("gap"))) or bool(
            _CARD_WORD_AFTER.match(text, match.end(), match.end() + 40)
        )
        if said_card:
            # A mistyped number is still a card number when the visitor says it is one.
            found.append((match.start(), match.end(), CARD))
        elif (
            13 <= len(number) <= 19
            and _CARD_PREFIX.match(number)
            and luhn.is_valid(number)
            # "EAN 4006381333931", "Bestellnummer ...": labelled as something else.
            and not _ORDER_WORD.search(text, max(0, match.start() - 25), match.start())
        ):
            found.append((match.start(), match.end(), CARD))
    return found


def _find_keyed(*, text: str, lower: str) -> list[_Found]:
    found: list[_Found] = []
    for pattern, kind in ((_SECURITY, SECURITY_CODE), (_PIN, PIN), (_OTP, OTP), (_TAN, OTP)):
        for match in _finditer(pattern, text=text, lower=lower):
            found.append((match.start("value"), match.end("value"), kind))
    for match in _finditer(_VALUE_FIRST, text=text, lower=lower):
        kind = SECURITY_CODE if match.group("sec") else PIN if match.group("pin") else OTP
        found.append((match.start("value"), match.end("value"), kind))
    return found


def _find_passwords(*, text: str, lower: str) -> list[_Found]:
    found: list[_Found] = []
    for match in _finditer(_PASSWORD, text=text, lower=lower):
        join, value = match.group("join", "value")
        has_colon = ":" in join or "=" in join
        if not has_colon and (
            value.endswith("?") or value.strip(".,;!\"'").lower() in _NOT_A_PASSWORD
        ):
            continue
        found.append((match.start("value"), match.end("value"), PASSWORD))
    return found


def _find_ibans(*, text: str) -> list[_Found]:
    found: list[_Found] = []
    for match in _IBAN_CANDIDATE.finditer(text):
        start, end = match.span()
        # The candidate may run on into the next word: try the longest valid prefix that
        # ends at a group boundary.
        while end - start >= 15:
            if stdnum_iban.is_valid(text[start:end]):
                found.append((start, end, IBAN))
                break
            end = text.rfind(" ", start, end)
            if end < 0:
                break
    return found


def _find_emails(*, text: str, lower: str) -> list[_Found]:
    return [(m.start(), m.end(), EMAIL) for m in _finditer(_EMAIL, text=text, lower=lower)]


def _phone_context(*, text: str, start: int) -> bool | None:
    """True: a phone word announces the number; False: an order word does; None: neither."""
    window_start = max(0, start - 40)
    if _PHONE_WORD.search(text, window_start, start):
        return True
    if _ORDER_WORD.search(text, max(0, start - 25), start):
        return False
    return None


def _find_phones(*, text: str) -> list[_Found]:
    found: list[_Found] = []
    # Memo for this call only: no personal data outlives redact() in module state.
    parsed: dict[str, tuple[tuple[int, int], ...]] = {}
    for candidate in _PHONE_CANDIDATE.finditer(text):
        raw = candidate.group()
        if len(_digits(raw)) < 7 or _DATE.fullmatch(raw):
            continue
        # Only numbers that look dialled (+, 0, parenthesis) or are announced as phone
        # numbers; order and article numbers are neither. Checked before calling
        # phonenumbers, which is the expensive part.
        context = _phone_context(text=text, start=candidate.start())
        if context is False or (context is None and raw[0] not in "+0("):
            continue
        if raw not in parsed:
            parsed[raw] = _phone_matches(raw)
        for match_start, match_end in parsed[raw]:
            number = raw[match_start:match_end]
            start = candidate.start() + match_start
            if number[0] not in "+0(" and not _phone_context(text=text, start=start):
                continue
            found.append((start, candidate.start() + match_end, PHONE))
    return found


def _is_valid_phone(raw: str, *, region: str) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(raw, region))
    except phonenumbers.NumberParseException:
        return False


def _phone_matches(raw: str) -> tuple[tuple[int, int], ...]:
    """Valid phone numbers inside a candidate, as offsets into it."""
    found: list[tuple[int, int]] = []
    if raw.startswith("+"):
        regions: Sequence[str] = _PHONE_REGIONS[:1]  # parses the same in every region
    else:
        # parse() is several times cheaper than the matcher: try the matcher first in the
        # regions where the whole candidate is a valid number, in all of them otherwise.
        regions = [r for r in _PHONE_REGIONS if _is_valid_phone(raw, region=r)] or _PHONE_REGIONS
    for region in regions:
        whole = False
        for match in phonenumbers.PhoneNumberMatcher(
            raw, region, leniency=phonenumbers.Leniency.VALID
        ):
            if _DATE.search(match.raw_string):
                continue
            found.append((match.start, match.end))
            whole = whole or (match.start == 0 and match.end == len(raw))
        if whole:
            break
    return tuple(found)


def _find_addresses(*, text: str) -> list[_Found]:
    found: list[_Found] = []
    for pattern in (_DE_STREET, _EN_STREET, _US_STATE_ZIP, _UK_POSTCODE_ALONE):
        found.extend(
            (m.start(), m.end(), ADDRESS)
            for m in _finditer(pattern, text=text)
            if not (pattern is _DE_STREET and _HALLMARK.search(m.group()))
        )
    return _merge_same_kind(found)


def _find_health(*, text: str, lower: str) -> list[_Found]:
    return [(m.start(), m.end(), HEALTH) for m in _finditer(_HEALTH, text=text, lower=lower)]


def _merge_same_kind(found: list[_Found]) -> list[_Found]:
    """Union overlapping spans of one kind (a street and its postcode found separately)."""
    merged: list[_Found] = []
    for start, end, kind in sorted(found):
        if merged and start <= merged[-1][1]:
            last_start, last_end, _ = merged[-1]
            merged[-1] = (last_start, max(last_end, end), kind)
        else:
            merged.append((start, end, kind))
    return merged


def _resolve(found: Iterable[_Found], *, precedence: Sequence[str]) -> list[_Found]:
    """Non-overlapping spans: higher-precedence kinds first, then longer, then earlier."""
    rank = {kind: i for i, kind in enumerate(precedence)}
    ordered = sorted(found, key=lambda f: (rank[f[2]], -(f[1] - f[0]), f[0]))
    taken: list[_Found] = []
    for start, end, kind in ordered:
        if all(end <= t_start or start >= t_end for t_start, t_end, _ in taken):
            taken.append((start, end, kind))
    return sorted(taken)


# --------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------


def redact(text: str) -> RedactionResult:
    """Replace never-kept values by placeholders and mark kept-but-sensitive ones.

    Spans in the result are offsets into the returned (redacted) text.
    """
    # Every kind except passwords, e-mail addresses and health words contains a digit.
    lower = text.lower()
    has_digit = _DIGIT.search(text) is not None
    candidates = _find_passwords(text=text, lower=lower)
    if has_digit:
        candidates += _find_cards(text=text) + _find_keyed(text=text, lower=lower)
    removed_found = _resolve(candidates, precedence=REMOVED_KINDS)
    parts: list[str] = []
    cursor = 0
    for start, end, kind in removed_found:
        parts.append(text[cursor:start])
        parts.append(PLACEHOLDERS[kind])
        cursor = end
    parts.append(text[cursor:])
    redacted = "".join(parts)

    lower = redacted.lower()
    marked_found = _find_emails(text=redacted, lower=lower)
    marked_found += _find_health(text=redacted, lower=lower)
    if has_digit:
        marked_found += _find_ibans(text=redacted)
        marked_found += _find_phones(text=redacted)
        marked_found += _find_addresses(text=redacted)
    # Never match inside a placeholder we inserted.
    marked_found += [
        (m.start(), m.end(), "_placeholder") for m in _PLACEHOLDER_ANY.finditer(redacted)
    ]
    resolved = _resolve(marked_found, precedence=("_placeholder", *MARKED_KINDS))
    spans = tuple(
        Span(kind=kind, start=s, end=e) for s, e, kind in resolved if kind != "_placeholder"
    )

    removed = dict(Counter(kind for _, _, kind in removed_found))
    findings = dict(Counter(removed) + Counter(span.kind for span in spans))
    return RedactionResult(text=redacted, spans=spans, removed=removed, findings=findings)


def _mask_email(value: str) -> str:
    local, _, domain = value.partition("@")
    host, _, tld = domain.rpartition(".")
    if not local or not host:
        return _BULLET * 3
    return f"{local[0]}{_BULLET * 3}@{host[0]}{_BULLET * 3}.{tld}"


def _mask_phone(value: str) -> str:
    return f"{_BULLET * 4} {_BULLET * 2}{_digits(value)[-2:]}"


def _mask_iban(value: str) -> str:
    compact = stdnum_iban.compact(value)
    return f"{compact[:2]}{_BULLET * 2} {_BULLET * 4} {compact[-4:]}"


def _mask_whole(value: str) -> str:
    return _BULLET * 3


_MASKERS: dict[str, Callable[[str], str]] = {
    EMAIL: _mask_email,
    PHONE: _mask_phone,
    IBAN: _mask_iban,
    ADDRESS: lambda value: "[address]",
    HEALTH: lambda value: "[health detail]",
}


def mask(text: str, spans: Iterable[Span | Sequence[Any]]) -> str:
    """Return ``text`` with each span replaced by its masked form, for staff views.

    ``spans`` are :class:`Span` objects or ``[kind, start, end]`` lists (as stored in a
    JSONField). A span outside the text, or two overlapping spans, raise ``ValueError``:
    a staff view should fail loudly rather than show a value unmasked.
    """
    normalised: list[tuple[int, int, str]] = []
    for span in spans:
        kind, start, end = (
            (span.kind, span.start, span.end) if isinstance(span, Span) else tuple(span)
        )
        start, end = int(start), int(end)
        if not 0 <= start <= end <= len(text):
            raise ValueError(f"span {kind!r} {start}:{end} is outside the text")
        normalised.append((start, end, str(kind)))
    normalised.sort()
    parts: list[str] = []
    cursor = 0
    for start, end, kind in normalised:
        if start < cursor:
            raise ValueError(f"span {kind!r} {start}:{end} overlaps the previous span")
        masker = _MASKERS.get(kind, _mask_whole)
        parts.append(text[cursor:start])
        parts.append(masker(text[start:end]))
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts)


def placeholders_localise(text: str, *, language: str) -> str:
    """Swap the stored (English) placeholders for those of ``language`` ("en", "de")."""
    table = PLACEHOLDERS_BY_LANGUAGE.get(language.split("-")[0].lower(), PLACEHOLDERS)
    return _PLACEHOLDER_ANY.sub(lambda m: table[_PLACEHOLDER_KINDS[m.group()]], text)
