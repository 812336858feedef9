"""Never-kept values whose meaning comes from the messages before them.

A visitor corrects a code ("oops typo 481 992"), sends the rest of a card number in a
second message ("8575 5451"), answers "which code did you get?" with a bare number, or
sends the password they announced ("I'll send you my password" - "Haselnuss!Krokant").

What a turn leaves open for the next one is a short set of credential families
(`leaves_open`): the families it names, the families of what was removed from it, and
"card digits" when it ends with part of a card number. The conversation keeps it
(memory.services writes it with each turn), so no earlier turn is read again for it. The
next visitor message is read with it (`find_in_context`):

- a message that continues (short, a correction word, or naming the family again) gives
  its values of that family's shape that family's kind;
- after a message that ended with digits of a card number, the digits that follow are
  card digits; and when the digits of both messages together are a card number (Luhn and
  an issuer prefix), the earlier message is redacted too (`card_split`; the caller rewrites
  that turn).
"""

from __future__ import annotations

import re

from memory.redaction.common import Found
from memory.redaction.families import (
    ANNOUNCED_F,
    CARD_DIGITS_F,
    CARD_F,
    CHANNEL_F,
    CODE_F,
    CODE_TOKEN,
    DIGIT_RUN,
    FAMILY_OF_KIND,
    KIND,
    LOGIN_F,
    PASSWORD_F,
    PIN_F,
    SECRET_TOKEN,
    SECURITY_F,
    TOKEN,
    code_shaped,
    digit_count,
    families,
    qualified_number,
    secret_shaped,
)
from memory.redaction.kinds import CARD
from memory.redaction.nearby import _trim
from memory.redaction.payment import is_card_number

#: families in the order a value is given one (the most specific first)
ORDER = (CARD_DIGITS_F, SECURITY_F, PIN_F, CODE_F, CHANNEL_F, CARD_F, PASSWORD_F, LOGIN_F)
DIGITS: dict[str, tuple[int, int]] = {
    CARD_DIGITS_F: (3, 16),
    SECURITY_F: (3, 4),
    PIN_F: (4, 8),
    CODE_F: (4, 8),
    CHANNEL_F: (4, 8),
    CARD_F: (3, 16),
}
SHORT = 10  # words: a message this short continues the previous one
_CORRECTION = re.compile(
    r"\b(?:sorry|sry|oops|ups|typo|tippfehler|vertippt|nope|nein|nee?|quatsch|falsch|wrong"
    r"|wait|warte|actually|eigentlich|i mean|ich meine|korrektur|correction|new one|neue[rn]?"
    r"|the rest|der rest|rest|restlichen?|remaining|and then|und dann|too late|zu spät|again"
    r"|nochmal|noch mal|last|letzten?|first|ersten?|no)\b",
    re.IGNORECASE,
)
_TAIL_DIGITS = re.compile(r"(\d+(?:[ -]\d+){0,5})[\s.,;:!?-]*$")
_HEAD_DIGITS = re.compile(r"^\W{0,3}(?:[^\W\d_]+\W+){0,4}?(\d+(?:[ -]\d+){0,5})")


def leaves_open(text: str, *, removed: dict[str, int]) -> frozenset[str]:
    """What ``text`` (a stored turn, normalised) leaves open for the next message."""
    open_families = families(text)
    open_families |= {FAMILY_OF_KIND[kind] for kind in removed if kind in FAMILY_OF_KIND}
    if CARD in removed or _ends_with_card_digits(text):
        open_families.add(CARD_DIGITS_F)
    return frozenset(open_families)


def _ends_with_card_digits(text: str) -> bool:
    tail = _TAIL_DIGITS.search(text)
    if tail is None or qualified_number(text, tail.start(1), tail.end(1)):
        return False
    return 6 <= digit_count(tail.group(1)) <= 16 and not is_card_number(
        "".join(ch for ch in tail.group(1) if ch.isdigit()), groups=2
    )


def continues(text: str, open_families: frozenset[str]) -> bool:
    """A message that goes on with what the previous one left open."""
    words = len(TOKEN.findall(text))
    return words <= SHORT or bool(_CORRECTION.search(text)) or bool(families(text) & open_families)


def carries(text: str) -> bool:
    """A message that only interjects ("wait no", "sorry"): what was open stays open."""
    return len(TOKEN.findall(text)) <= 3 or bool(_CORRECTION.search(text))


def find_in_context(*, text: str, open_families: frozenset[str]) -> list[Found]:
    """Values of the open families' shapes in a message that continues."""
    if not open_families or not continues(text, open_families):
        return []
    found: list[Found] = []
    taken: set[tuple[int, int]] = set()
    for run in DIGIT_RUN.finditer(text):
        s, e = run.span()
        if qualified_number(text, s, e):
            continue
        count = digit_count(run.group())
        for family in ORDER:
            low, high = DIGITS.get(family, (0, -1))
            if family in open_families and low <= count <= high:
                found.append((s, e, KIND[family]))
                taken.add((s, e))
                break
    if open_families & {CODE_F, CHANNEL_F}:
        for code in CODE_TOKEN.finditer(text):
            s, e = code.span()
            if code_shaped(code.group()) and (s, e) not in taken:
                if not qualified_number(text, s, e):
                    found.append((s, e, KIND[CODE_F]))
    if open_families & {PASSWORD_F, LOGIN_F, ANNOUNCED_F}:
        for token in SECRET_TOKEN.finditer(text):
            s, e = _trim(text, *token.span())
            if e - s >= 4 and secret_shaped(text[s:e]) and not qualified_number(text, s, e):
                found.append((s, e, KIND[PASSWORD_F]))
    if ANNOUNCED_F in open_families and not found and "?" not in text:
        words = TOKEN.findall(text)
        if 1 <= len(words) <= 8:
            found.append((*_trim(text, 0, len(text.rstrip())), KIND[PASSWORD_F]))
    return found


def card_split(*, earlier: str, text: str) -> tuple[list[Found], list[Found]]:
    """A card number typed over two messages: (spans in ``text``, spans in ``earlier``) when
    the digits at the end of ``earlier`` and those at the start of ``text`` together are a
    card number. Both texts normalised."""
    tail = _TAIL_DIGITS.search(earlier)
    head = _HEAD_DIGITS.search(text)
    if tail is None or head is None:
        return [], []
    first = "".join(ch for ch in tail.group(1) if ch.isdigit())
    second = "".join(ch for ch in head.group(1) if ch.isdigit())
    for cut in range(len(first)):  # the card may start inside the earlier message's digits
        number = first[cut:] + second
        if len(number) < 13:
            break
        if is_card_number(number, groups=2):
            return (
                [(head.start(1), head.end(1), CARD)],
                [(tail.start(1), tail.end(1), CARD)],
            )
    return [], []
