"""Kept but marked: e-mail addresses, IBANs and phone numbers.

IBAN validation is python-stdnum's, phone numbers are libphonenumber's (phonenumbers): the
patterns here only find candidates. National numbers without "+" are parsed in the site's
region first (German by default), then in the neighbouring regions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import phonenumbers
from stdnum import iban as stdnum_iban

from memory.redaction.common import IGNORE, ORDER_WORD, Found, digits, finditer, gate
from memory.redaction.kinds import EMAIL, IBAN, PHONE

_EMAIL = gate(
    re.compile(
        r"(?<![\w.%+-])[\w.%+-]{1,64}@(?:[^\W_](?:[\w-]{0,61}[^\W_])?\.){1,8}[^\W\d_]{2,24}"
        r"(?![\w-])"
    ),
    ("@",),
)

# Groups separated by a space, a dash or a dot: "DE89 3704 ...", "DE89-3704-...".
_IBAN_CANDIDATE = re.compile(r"(?<![^\W_])[A-Za-z]{2}\d{2}(?:[ .\-]?[A-Za-z0-9]){11,32}(?![^\W_])")
_IBAN_SEPARATOR = re.compile(r"[ .\-]")

_PHONE_CANDIDATE = re.compile(r"(?<![\w+])(?:\+|\(\+?)?\d[\d ().\/\-]{4,24}\d(?!\w)")
DEFAULT_REGION = "DE"
_PHONE_REGIONS: tuple[str, ...] = ("DE", "AT", "CH", "GB", "US")
_PHONE_WORD = re.compile(
    r"\b(?:tel(?:efon\w*|\.)?|telephone|phone\w*|call(?:\s+me)?|ruf\w*|anruf\w*|handy\w*"
    r"|mobil\w*|mobile|cell(?:phone)?|fax|whats\s?app|sms|text\s+me|erreichbar|reach\s+me"
    r"|festnetz\w*|landline|hotline|number|nummer)\b[^\d\n]{0,30}$",
    IGNORE,
)
_DATE = re.compile(r"\b\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b|\b\d{4}-\d{1,2}-\d{1,2}\b")


def find_emails(*, text: str, lower: str) -> list[Found]:
    """E-mail addresses (a full-width "＠" is an "@" after normalisation)."""
    return [(m.start(), m.end(), EMAIL) for m in finditer(_EMAIL, text=text, lower=lower)]


def find_ibans(*, text: str) -> list[Found]:
    """Valid IBANs, typed in groups with spaces, dashes or dots, or as one block."""
    found: list[Found] = []
    for match in _IBAN_CANDIDATE.finditer(text):
        start, end = match.span()
        # The candidate may run on into the next word: try the longest valid prefix that
        # ends at a group boundary.
        while end - start >= 15:
            if stdnum_iban.is_valid(text[start:end]):
                found.append((start, end, IBAN))
                break
            boundaries = [m.start() for m in _IBAN_SEPARATOR.finditer(text, start, end)]
            if not boundaries:
                break
            end = boundaries[-1]
    return found


def _phone_context(*, text: str, start: int) -> bool | None:
    """True: a phone word announces the number; False: an order word does; None: neither."""
    if _PHONE_WORD.search(text, max(0, start - 40), start):
        if ORDER_WORD.search(text, max(0, start - 25), start):
            return False
        return True
    if ORDER_WORD.search(text, max(0, start - 25), start):
        return False
    return None


def find_phones(*, text: str, region: str = DEFAULT_REGION) -> list[Found]:
    """Phone numbers that look dialled (+, 0, parenthesis) or are announced as such."""
    found: list[Found] = []
    regions = (region, *(r for r in _PHONE_REGIONS if r != region))
    # Memo for this call only: no personal data outlives redact() in module state.
    parsed: dict[str, tuple[tuple[int, int], ...]] = {}
    for candidate in _PHONE_CANDIDATE.finditer(text):
        raw = candidate.group()
        if len(digits(raw)) < 7 or _DATE.fullmatch(raw):
            continue
        # Order and article numbers neither look dialled nor are announced as phone numbers.
        # Checked before calling phonenumbers, which is the expensive part.
        context = _phone_context(text=text, start=candidate.start())
        if context is False or (context is None and raw[0] not in "+0("):
            continue
        if raw not in parsed:
            parsed[raw] = _phone_matches(raw, regions=regions)
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


def _phone_matches(raw: str, *, regions: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """Valid phone numbers inside a candidate, as offsets into it."""
    found: list[tuple[int, int]] = []
    if raw.startswith("+"):
        tried: Sequence[str] = regions[:1]  # parses the same in every region
    else:
        # parse() is several times cheaper than the matcher: try the matcher first in the
        # regions where the whole candidate is a valid number, in all of them otherwise.
        tried = [r for r in regions if _is_valid_phone(raw, region=r)] or regions
    for region in tried:
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
