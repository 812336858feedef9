"""Never-kept values near a credential word anywhere in their sentence.

The phrase rules (credentials.py, payment.py) read the words between a keyword and its
value. Visitors also write the value first ("Tottenham1882 thats my password"), put other
words in between ("the PIN on the back of the gift card is 5102", "I received 802117 by
sms") or describe the channel instead of naming the code ("your site texted me G-771203").
Here only two things count: a word of a credential family (memory.redaction.families) in
the same sentence, and a value of that family's shape in it:

- password and login words: a password-like token (letters with digits or symbols); after a
  password word and "is"/":"/"=", also a plain word ("my pass word is bluecheese"); a
  passphrase word takes the rest of its clause;
- PIN words: four to eight digits; code and TAN words (and a channel: SMS, "the 6
  digits"): four to eight digits or a code of letters and digits; security-code words
  ("CVV", "on the back"): three or four digits; card words: six or more digits (part of a
  card number);
- never a number said to be something else (an order, an article, a voucher), an amount, a
  date, or a year after "in"/"seit".
"""

from __future__ import annotations

import re

from memory.redaction.common import Found
from memory.redaction.credentials import DESCRIPTIVE_ENDING, NOT_A_PASSWORD
from memory.redaction.families import (
    ANSWER_F,
    CARD_F,
    CHANNEL_F,
    CODE_F,
    CODE_TOKEN,
    DIGIT_RUN,
    KIND,
    LOGIN_F,
    PASSWORD_F,
    PIN_F,
    SECRET_TOKEN,
    SECURITY_F,
    Mention,
    code_shaped,
    digit_count,
    mentions,
    qualified_number,
    secret_shaped,
)

_SENTENCE = re.compile(r"[^.!?\n;]+(?:[.!?;](?=\S)[^.!?\n;]*)*")
#: how far (characters) a value may stand from its word within a sentence
REACH = 90
#: digits a value of each family has (low, high)
DIGITS: dict[str, tuple[int, int]] = {
    PIN_F: (4, 8),
    CODE_F: (4, 8),
    CHANNEL_F: (4, 8),
    SECURITY_F: (3, 4),
    CARD_F: (6, 19),
}
_JOIN_AFTER = re.compile(
    r"\s*(?:(?:answer|antwort)\s+)?(?::|=|->|→|\bis\b|\bist\b|\bwar\b|\bwas\b|\blautet\b"
    r"|\blautete\b)\s*"
    r"(?:(?:now|jetzt|nun|still|noch|glaub(?:e)?\s+ich|i\s+think|just|einfach)\s+){0,2}",
    re.IGNORECASE,
)
_PLAIN_WORD = re.compile(r"[^\W\d_][\w!#$%&*+?@^~-]{2,40}")
_PHRASE_WORDS = re.compile(r"pass\s?phrase|passs?atz|pass\s+satz", re.IGNORECASE)
_CLAUSE = re.compile(r"[^,.;!?\n]{4,80}")


_WORDS_IN = re.compile(r"[^\W_]+")


def sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans: split at . ! ? ; and line ends (a dot inside a word stays). A
    sentence of three words at most ("Passwort?", "Hamburg2019!") belongs with the next."""
    spans: list[tuple[int, int]] = []
    pending: int | None = None
    for match in _SENTENCE.finditer(text):
        start, end = match.span()
        if pending is not None:
            start, pending = pending, None
        if len(_WORDS_IN.findall(text, match.start(), end)) <= 3:
            pending = start
            continue
        spans.append((start, end))
    if pending is not None:
        spans.append((pending, len(text)))
    return spans


def find_near_words(*, text: str) -> list[Found]:
    """Values of a family's shape in a sentence that holds a word of that family."""
    all_mentions = mentions(text)
    if not all_mentions:
        return []
    found: list[Found] = []
    for start, end in sentences(text):
        here = [m for m in all_mentions if start <= m.start < end]
        if here:
            found.extend(_in_sentence(text, start, end, here))
    return found


def _label_floor(mention_list: list[Mention], start: int) -> int:
    """The end of the credential word nearest before ``start`` (0 when none): a label that
    says "this is something else" counts only after it."""
    return max((m.end for m in mention_list if m.end <= start), default=0)


def _near(mention_list: list[Mention], family: set[str], start: int, end: int) -> bool:
    return any(
        m.family in family and (abs(m.start - end) <= REACH or abs(start - m.end) <= REACH)
        for m in mention_list
    )


def _in_sentence(text: str, start: int, end: int, here: list[Mention]) -> list[Found]:
    found: list[Found] = []
    fams = {m.family for m in here}
    words = {(m.start, m.end) for m in here}
    digit_families = [f for f in (SECURITY_F, PIN_F, CODE_F, CHANNEL_F, CARD_F) if f in fams]
    for run in DIGIT_RUN.finditer(text, start, end):
        s, e = run.span()
        if qualified_number(text, s, e, after=_label_floor(here, s)):
            continue
        count = digit_count(run.group())
        for family in digit_families:
            low, high = DIGITS[family]
            if low <= count <= high and _near(here, {family}, s, e):
                found.append((s, e, KIND[family]))
                break
    if fams & {CODE_F, CHANNEL_F}:
        for code in CODE_TOKEN.finditer(text, start, end):
            s, e = code.span()
            if (s, e) not in words and code_shaped(code.group()):
                floor = _label_floor(here, s)
                if _near(here, {CODE_F, CHANNEL_F}, s, e) and not qualified_number(
                    text, s, e, after=floor
                ):
                    found.append((s, e, KIND[CODE_F]))
    if fams & {PASSWORD_F, LOGIN_F, ANSWER_F}:
        found.extend(_passwords(text, start, end, here, words))
    return found


def _passwords(
    text: str, start: int, end: int, here: list[Mention], words: set[tuple[int, int]]
) -> list[Found]:
    found: list[Found] = []
    secret_words = {PASSWORD_F, LOGIN_F}
    for token in SECRET_TOKEN.finditer(text, start, end):
        s, e = _trim(text, *token.span())
        if e - s < 4 or (s, e) in words or any(ms <= s < me for ms, me in words):
            continue
        if secret_shaped(text[s:e]) and _near(here, secret_words, s, e):
            if not qualified_number(text, s, e, after=_label_floor(here, s)):
                found.append((s, e, KIND[PASSWORD_F]))
    for mention in here:
        if mention.family not in (PASSWORD_F, ANSWER_F):
            continue
        if mention.family == ANSWER_F:  # the answer stands after the last join
            joins = list(_JOIN_AFTER.finditer(text, mention.end, end))
            joins = [j for j in joins if j.end() > j.start()]
            join = joins[-1] if joins else None
        else:
            join = _JOIN_AFTER.match(text, mention.end, end)
        phrase = _PHRASE_WORDS.fullmatch(text[mention.start : mention.end])
        if phrase:  # a passphrase: the rest of its clause, with or without "is"
            clause = _CLAUSE.match(text, join.end() if join else mention.end, end)
            if clause and clause.group().strip():
                found.append((*_trim(text, *_strip(text, *clause.span())), KIND[PASSWORD_F]))
            continue
        if not join or join.end() == mention.end:
            continue
        word = _PLAIN_WORD.match(text, join.end(), end)
        if word:
            s, e = _trim(text, *word.span())
            value = text[s:e].lower()
            if value not in NOT_A_PASSWORD and not DESCRIPTIVE_ENDING.match(value):
                found.append((s, e, KIND[PASSWORD_F]))
    return found


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """The token without the punctuation that ends a sentence or a quote around it."""
    while end > start and text[end - 1] in ".,;:!?)\"'“”»":
        if text[end - 1] in "!?" and end - start > 5 and text[end - 2].isalnum():
            # a password may end with "!" or "?" ("Wanderlust_77!"): keep one
            if text[end - 1] == "!" and (end == len(text) or text[end] in " \n"):
                break
        end -= 1
    while start < end and text[start] in "(\"'„“«":
        start += 1
    return start, end
