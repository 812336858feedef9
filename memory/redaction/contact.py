"""Kept but marked: e-mail addresses, IBANs and phone numbers.

IBAN validation is python-stdnum's, phone numbers are libphonenumber's (phonenumbers): the
patterns here only find candidates. National numbers without "+" are parsed in the site's
region first (German by default), then in the neighbouring regions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import phonenumbers
from stdnum import ean as stdnum_ean
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
# An address typed without its top-level domain: "max@example" (a mailbox on a host name).
_EMAIL_BARE = gate(
    re.compile(
        r"(?<![\w.%+-])(?=[\w.%+-]{0,63}[^\W\d_])[\w.%+-]{1,64}@[^\W\d_](?:[\w-]{0,61}[^\W_])?"
        r"(?![\w@-])"
    ),
    ("@",),
)
# Spelled out to get past filters: "max (at) example (dot) com", "max[at]example.com",
# "max at example dot com", "max (ät) beispiel (punkt) de". The "at" in brackets, or a bare
# "at" followed by a spelled-out "dot" and a common top-level domain.
_AT_BRACKETED = r"\s*[(\[{<]\s*(?:at|ät|@)\s*[)\]}>]\s*"
_DOT_SPELLED = r"(?:\s*[(\[{<]\s*(?:dot|punkt)\s*[)\]}>]\s*|\s+(?:dot|punkt)\s+)"
_LABEL = r"[^\W_](?:[\w-]{0,61}[^\W_])?"
# with a bare "at" only a common top-level domain makes it an address ("dot by dot" is not)
_TLD_COMMON = r"(?:com|de|net|org|at|ch|eu|info|io|co\.uk|uk|fr|nl|it|es|pl|biz|me|shop)"
_EMAIL_SPELLED = gate(
    re.compile(
        r"(?<![\w.%+-])[\w.%+-]{1,64}(?:"
        + _AT_BRACKETED
        + _LABEL
        + r"(?:(?:"
        + _DOT_SPELLED
        + r"|\.)"
        + _LABEL
        + r"){0,8}"
        + r"|\s+(?:at|ät)\s+"
        + _LABEL
        + r"(?:"
        + _DOT_SPELLED
        + _LABEL
        + r"){0,7}"
        + _DOT_SPELLED
        + _TLD_COMMON
        + r")(?![\w-])",
        IGNORE,
    ),
    ("at", "ät", "@"),
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
    """E-mail addresses (a full-width "＠" is an "@" after normalisation), also without a
    top-level domain or spelled out ("max (at) example (dot) com")."""
    return [
        (m.start(), m.end(), EMAIL)
        for pattern in (_EMAIL, _EMAIL_BARE, _EMAIL_SPELLED)
        for m in finditer(pattern, text=text, lower=lower)
    ]


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
        if context is False:
            continue
        if context is None and raw[0] not in "+0(":
            if _mobile_unprefixed(raw, regions=regions):  # "171 2345678", "4917123456789"
                found.append((candidate.start(), candidate.end(), PHONE))
            continue
        if raw not in parsed:
            parsed[raw] = _phone_matches(raw, regions=regions) or _phone_shaped(
                raw, regions=regions, announced=bool(context)
            )
        for match_start, match_end in parsed[raw]:
            number = raw[match_start:match_end]
            start = candidate.start() + match_start
            if number[0] not in "+0(" and not _phone_context(text=text, start=start):
                continue
            found.append((start, candidate.start() + match_end, PHONE))
    return found


# "(555) 555-0199": the North American way of writing a number, whatever its digits.
_NANP_SHAPE = re.compile(r"\(\d{3}\) ?\d{3}[-. ]\d{4}")
# Country codes of the regions whose mobile numbers are read without "+" or "00".
_COUNTRY_CODES = {"DE": "49", "AT": "43", "CH": "41", "GB": "44"}
_MOBILE = phonenumbers.PhoneNumberType.MOBILE


def _number(raw: str, *, region: str | None) -> phonenumbers.PhoneNumber | None:
    try:
        return phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException:
        return None


def _is_mobile(raw: str, *, region: str | None) -> bool:
    number = _number(raw, region=region)
    return (
        number is not None
        and phonenumbers.is_valid_number(number)
        and phonenumbers.number_type(number) == _MOBILE
    )


def _mobile_unprefixed(raw: str, *, regions: Sequence[str]) -> bool:
    """A mobile number typed without its trunk "0" in groups ("171 2345678"), or with its
    country code but without "+" ("4917123456789", not a valid EAN). Mobile numbers only:
    a fixed-line number of some length is valid for almost any digits, a mobile number
    has its own prefixes (015x-017x in Germany)."""
    compact = digits(raw)
    if re.search(r"\d[ /\-]\d", raw) and raw[0] != "0":
        if any(_is_mobile("0" + raw, region=r) for r in regions if r in _COUNTRY_CODES):
            return True
    codes = {_COUNTRY_CODES[r] for r in regions if r in _COUNTRY_CODES}
    if len(compact) >= 11 and compact[:2] in codes and not stdnum_ean.is_valid(compact):
        return _is_mobile("+" + compact, region=None)
    return False


def _phone_shaped(
    raw: str, *, regions: Sequence[str], announced: bool
) -> tuple[tuple[int, int], ...]:
    """What libphonenumber calls invalid but is written as only a phone number is: "(555)
    555-0199" (a reserved or unassigned area code), "+1 555 555 0199" (a "+" and a possible
    length), or a number announced as a phone ("Tel 171 2345678") that is valid with the
    trunk "0" it lacks."""
    shape = _NANP_SHAPE.search(raw)
    if shape is not None:
        return ((shape.start(), shape.end()),)
    if raw.startswith("+"):
        number = _number(raw, region=None)
        if number is not None and phonenumbers.is_possible_number(number):
            return ((0, len(raw)),)
    if announced and raw[0] not in "+0(":
        trunked = [r for r in regions if r in _COUNTRY_CODES]
        if any(_is_valid_phone("0" + raw, region=r) for r in trunked) or _mobile_unprefixed(
            raw, regions=regions
        ):
            return ((0, len(raw)),)
    return ()


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
