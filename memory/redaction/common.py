"""Pieces the finders share: fillers, value shapes, cheap pre-checks, overlap resolution.

The regular expressions only find candidates and the words around them; they are compiled
once, at import, and written without nested unbounded repetition so that they run in linear
time. Every finder works on the normalised text (memory.redaction.normalise).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from memory.redaction.kinds import PLACEHOLDERS, PLACEHOLDERS_BY_LANGUAGE

IGNORE = re.IGNORECASE

Found = tuple[int, int, str]  # (start, end, kind) in the normalised text

#: Never match a placeholder we wrote ourselves, so redact() is idempotent.
NOT_PLACEHOLDER = "(?!" + "|".join(re.escape(p) for p in PLACEHOLDERS.values()) + ")"
PLACEHOLDER_ANY = re.compile(
    "|".join(
        re.escape(p)
        for table in PLACEHOLDERS_BY_LANGUAGE.values()
        for p in sorted(table.values(), key=len, reverse=True)
    )
)

#: What people put between digit groups: spaces, dots, slashes, dashes, underscores.
SEP = r"[ ./\-_]"


def digit_value(low: int, high: int) -> str:
    """A value of ``low``..``high`` digits, any one or two separators between two digits,
    not glued to a longer number or a word."""
    return (
        r"(?<![\w+])(?P<value>\d(?:" + SEP + r"{0,2}\d){" + f"{low - 1},{high - 1}" + r"})"
        r"(?!" + SEP + r"{0,2}\d)(?![^\W_])"
    )


#: Words that say a number is something else: an order, an article, a voucher.
ORDER_WORD = re.compile(
    r"(?:\b(?:orders?|order[ -]?(?:number|no)|bestell\w*|auftrag\w*|rechnung\w*|invoices?"
    r"|artikel\w*|articles?|items?|sku|art\.?-?nr|tracking\w*|sendung\w*|paket\w*"
    r"|kunden\w*|customer|ticket\w*|referen\w*|vorgang\w*|ean|gtin|isbn|upc|nr|no"
    r"|gutschein\w*|voucher|coupon)\b|#)[^\d\n]{0,20}$",
    IGNORE,
)

# Words that may sit between a keyword and its value: "PIN: 1234", "TAN ist 583920",
# "password is", "CVV (3 digits)"... Bounded, and every repetition consumes a token.
FILLER = (
    r"(?:[\s:=#\-(),]|\b(?:is|was|are|ist|war|sind|lautet|lautete|lauten|number|nummer|nr"
    r"|no|code|the|der|die|das|den|my|mein|meine|meiner|dein|deine|your|ihre|ihr|from|aus"
    r"|of|von|for|f\u00fcr|it'?s|sms|app|e-?mail|mail|text|authenticator|now|jetzt|still"
    r"|noch|immer|here|hier|please|bitte|on|auf|back|r\u00fcckseite|card|karte|just|nur"
    r"|digits?|ziffern|(?:three|four|drei|vier|[34])[- ]?(?:digits?|stellige?\w*|ziffern)"
    r"|got|received|says|shows|sagt|zeigt|an|hinten|behind|lists|displays"
    r"|bekommen|erhalten|habe|have|i|ich|einmal|one-time|kurz|quick)\b\.?)"
)
JOIN = FILLER + "{0,10}"

# Cheap pre-checks: a pattern runs only when the lower-cased text contains one of the
# substrings that every match of it contains, or where its anchor pattern matches (a test
# holds these to the patterns).
GATES: dict[re.Pattern[str], tuple[str, ...] | re.Pattern[str]] = {}


def gate(pattern: re.Pattern[str], check: tuple[str, ...] | re.Pattern[str]) -> re.Pattern[str]:
    """Register ``check`` as the pre-check of ``pattern``; returns the pattern."""
    GATES[pattern] = check
    return pattern


def finditer(pattern: re.Pattern[str], *, text: str, lower: str = "") -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, skipped when its pre-check says it cannot match."""
    check = GATES.get(pattern)
    if isinstance(check, re.Pattern):
        if not check.search(text):
            return iter(())
    elif check is not None and not any(keyword in lower for keyword in check):
        return iter(())
    return pattern.finditer(text)


def digits(value: str) -> str:
    """The ASCII digits of ``value``."""
    return "".join(ch for ch in value if "0" <= ch <= "9")


def merge_same_kind(found: list[Found]) -> list[Found]:
    """Union overlapping spans of one kind (a street and its postcode found separately)."""
    merged: list[Found] = []
    for start, end, kind in sorted(found):
        if merged and start <= merged[-1][1]:
            last_start, last_end, _ = merged[-1]
            merged[-1] = (last_start, max(last_end, end), kind)
        else:
            merged.append((start, end, kind))
    return merged


def resolve(found: Iterable[Found], *, precedence: Sequence[str]) -> list[Found]:
    """Non-overlapping spans: higher-precedence kinds first, then longer, then earlier."""
    rank = {kind: i for i, kind in enumerate(precedence)}
    ordered = sorted(found, key=lambda f: (rank[f[2]], -(f[1] - f[0]), f[0]))
    taken: list[Found] = []
    for start, end, kind in ordered:
        if all(end <= t_start or start >= t_end for t_start, t_end, _ in taken):
            taken.append((start, end, kind))
    return sorted(taken)
