"""Card numbers, their expiry dates and security codes: found by their nature.

A card number is a 13-19 digit Luhn-valid sequence with a card issuer prefix, whatever word
stands before it ("order 4111 1111 1111 1111" is still a card) and however it is typed:
groups of one to six digits with any separator, digit by digit, full-width (the text is
normalised first). A sequence the visitor calls a card is one even when mistyped. Luhn is
python-stdnum's.
"""

from __future__ import annotations

import re

from stdnum import ean, luhn

from memory.redaction.common import (
    IGNORE,
    JOIN,
    NOT_PLACEHOLDER,
    ORDER_WORD,
    Found,
    digit_value,
    finditer,
    gate,
)
from memory.redaction.kinds import CARD, CARD_EXPIRY, SECURITY_CODE

_GROUP = re.compile(r"\d+")
# Between two digit groups of one number: one to three separators, or a comma.
_GAP = re.compile(r"[ ./\-_]{1,3}|, ?")
_MAX_GROUP = 6  # Amex is typed 4-6-5; a group of seven digits is not how a card is typed.

# Issuer prefixes of the card schemes (Visa 4, Mastercard 51-55 and 2221-2720, Amex 34/37,
# Diners/JCB 30/35/36/38/39, Discover/UnionPay/Maestro 50/56-69).
_CARD_PREFIX = re.compile(r"[456]|3[045-9]|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)")
_CARD_WORD = (
    r"\b(?:(?:credit|debit|bank|gift)[ -]?cards?|cards?|card[ -]?(?:number|no)"
    r"|(?:kredit|debit|ec|giro|bank|geld|visa|master|geschenk)?-?karten?(?:nummer|nr)?"
    r"|visa|master[ -]?card|amex|american express|maestro|diners(?: club)?|discover"
    r"|jcb|unionpay|cc)\b"
)
_CARD_WORD_BEFORE = re.compile(_CARD_WORD + r"(?P<gap>[^\d!?\n]{0,30})$", IGNORE)
_CARD_WORD_AFTER = re.compile(r"[^\d!?\n.]{0,15}?" + _CARD_WORD, IGNORE)

_EXPIRY_DATE = r"(?P<value>(?:0?[1-9]|1[0-2]) ?[/.\-] ?(?:20)?\d{2})(?![\d/.\-]?\d)"
_EXPIRY_AFTER = re.compile(r"[^\d\n]{0,30}?(?<!\d)" + _EXPIRY_DATE)
_EXPIRY_WORD = re.compile(
    r"\b(?:expir\w*|exp|valid (?:thru|through|until|till|to)|g\u00fcltig (?:bis|until)"
    r"|ablauf\w*|l\u00e4uft ab|verfall\w*|mm ?/ ?[yj]{2})\b[^\d\n]{0,20}?(?<!\d)" + _EXPIRY_DATE,
    IGNORE,
)

SECURITY_WORD = (
    r"(?:\b(?:cvv2?|cvc2?|cvn|cav2|csc|cid|kartenpr\u00fcf\w*|pr\u00fcf(?:nummer|ziffer\w*"
    r"|zahl|code)|sicherheits-?(?:code|nummer|zahl|ziffer\w*)|security[ -](?:code|number"
    r"|digits)|card security code|card (?:verification|check) (?:code|value|number)"
    r"|card code|kartencode|sec[ .]?code|cvv-?nummer)\b"
    # "3-digit code", "der dreistellige Code", "die Nummer hinten"
    r"|\b(?:[34]|three|four|drei|vier)[- ]?(?:digit|stellige?[nr]?)\s+(?:code|number|nummer"
    r"|zahl|cvv|cvc)\b"
    r"|\b(?:code|nummer|zahl|ziffern?)\s+hinten\b"
    # "the three digits on the back", "die Ziffern auf der Rückseite"
    r"|\b(?:digits?|numbers?|code|zahl(?:en)?|ziffern?|nummer)\s+(?:on|at|from|auf|an|von)"
    r"\s+(?:the\s+|der\s+|my\s+|meiner\s+)?(?:back|reverse|rear|r\u00fcckseite|hinterseite"
    r"|signature (?:strip|panel)|unterschriftsfeld)\b(?:\s+(?:of|der)\s+(?:the\s+|my\s+"
    r"|meiner\s+)?(?:card|karte)\b)?)"
)
_SECURITY = gate(
    re.compile(SECURITY_WORD + JOIN + NOT_PLACEHOLDER + digit_value(3, 4), IGNORE),
    (
        "cvv",
        "cvc",
        "cvn",
        "cav2",
        "csc",
        "cid",
        "pr\u00fcf",
        "sicherheit",
        "security",
        "card",
        "karte",
        "back",
        "reverse",
        "rear",
        "r\u00fcckseite",
        "hinterseite",
        "signature",
        "unterschrift",
        "sec",
        "digit",
        "stellig",
        "hinten",
    ),
)


def _glued(text: str, start: int, end: int) -> bool:
    """True when the digit group is part of a word or follows "+" (an IBAN, a phone)."""
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    return (
        before == "+"
        or (before.isalnum() and not before.isdigit())
        or (after.isalnum() and not after.isdigit())
    )


def _runs(text: str) -> list[list[tuple[int, int]]]:
    """Digit groups joined by separators into runs; runs glued to a word are left out."""
    runs: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    glued = False
    for match in _GROUP.finditer(text):
        start, end = match.span()
        if current and not _GAP.fullmatch(text, current[-1][1], start):
            if not glued:
                runs.append(current)
            current, glued = [], False
        current.append((start, end))
        glued = glued or _glued(text, start, end)
    if current and not glued:
        runs.append(current)
    return runs


def is_card_number(number: str, *, groups: int) -> bool:
    if not (13 <= len(number) <= 19 and _CARD_PREFIX.match(number) and luhn.is_valid(number)):
        return False
    # An EAN-13 article number typed as one block is an article number, not a card.
    return not (groups == 1 and len(number) == 13 and ean.is_valid(number))


def _said_card(text: str, start: int, end: int) -> bool:
    before = _CARD_WORD_BEFORE.search(text, max(0, start - 60), start)
    if before and not ORDER_WORD.search(before.group("gap")):
        return True
    return bool(_CARD_WORD_AFTER.match(text, end, end + 40))


def find_cards(*, text: str) -> list[Found]:
    """Card numbers, and the expiry dates that go with them."""
    found: list[Found] = []
    for run in _runs(text):
        run_digits = [text[s:e] for s, e in run]
        windows = _card_windows(run, run_digits)
        said = _said_prefix(run, run_digits)
        if not windows and said is not None and _said_card(text, run[0][0], run[said][1]):
            # A mistyped number is still a card number when the visitor says it is one.
            windows = [(run[0][0], run[said][1], CARD)]
        found.extend(windows)
    if found:
        found.extend(_expiry_dates(text=text, cards=found))
    return found


def _said_prefix(run: list[tuple[int, int]], run_digits: list[str]) -> int | None:
    """Index of the last group of the longest leading part of 12-19 digits, if any."""
    total, last = 0, None
    for index, group in enumerate(run_digits):
        total += len(group)
        if total > 19:
            break
        if total >= 12:
            last = index
    return last


def _card_windows(run: list[tuple[int, int]], run_digits: list[str]) -> list[Found]:
    """Non-overlapping windows of whole groups that are card numbers: 16 digits first (most
    cards), then 15 (Amex), then the longest."""
    windows: list[tuple[int, int, int]] = []
    for i in range(len(run)):
        number = ""
        for j in range(i, len(run)):
            if j > i and (len(run_digits[j]) > _MAX_GROUP or len(run_digits[i]) > _MAX_GROUP):
                break
            number += run_digits[j]
            if len(number) > 19:
                break
            if is_card_number(number, groups=j - i + 1):
                windows.append((i, j, len(number)))
    taken: list[Found] = []
    for i, j, _ in sorted(windows, key=lambda w: (w[2] != 16, w[2] != 15, -w[2], w[0])):
        start, end = run[i][0], run[j][1]
        if all(end <= s or start >= e for s, e, _ in taken):
            taken.append((start, end, CARD))
    return taken


# "4111 1111 1111 1111 09/28 447": three or four digits right after a card and its expiry
_SECURITY_AFTER = re.compile(
    r"[ ,;/|]{1,3}(?:(?:cvv|cvc|cvn)\s*:?\s*)?(?P<value>\d{3,4})(?![\d/.])", IGNORE
)


def _expiry_dates(*, text: str, cards: list[Found]) -> list[Found]:
    found: list[Found] = []
    for _, end, _ in cards:
        match = _EXPIRY_AFTER.match(text, end, end + 50)
        if match:
            found.append((match.start("value"), match.end("value"), CARD_EXPIRY))
            code = _SECURITY_AFTER.match(text, match.end("value"))
            if code:
                found.append((code.start("value"), code.end("value"), SECURITY_CODE))
    found.extend(
        (m.start("value"), m.end("value"), CARD_EXPIRY) for m in _EXPIRY_WORD.finditer(text)
    )
    return found


def find_security_codes(*, text: str, lower: str) -> list[Found]:
    """Card security codes (CVV/CVC), announced by name or by where they are printed."""
    return [
        (m.start("value"), m.end("value"), SECURITY_CODE)
        for m in finditer(_SECURITY, text=text, lower=lower)
    ]
