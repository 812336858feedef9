"""Masked views of kept values for staff, and localised placeholders for visitors."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from stdnum import iban as stdnum_iban

from memory.redaction.common import PLACEHOLDER_ANY, digits
from memory.redaction.kinds import (
    ADDRESS,
    EMAIL,
    HEALTH,
    IBAN,
    PHONE,
    PLACEHOLDERS,
    PLACEHOLDERS_BY_LANGUAGE,
    Span,
)

_BULLET = "\u2022"
_PLACEHOLDER_KINDS: dict[str, str] = {
    p: kind for table in PLACEHOLDERS_BY_LANGUAGE.values() for kind, p in table.items()
}


def _fold(value: str) -> str:
    """NFKC without format characters: "ｍａｘ＠example.com" masks like "max@example.com"."""
    return "".join(
        ch for ch in unicodedata.normalize("NFKC", value) if unicodedata.category(ch) != "Cf"
    )


def _mask_email(value: str) -> str:
    local, _, domain = _fold(value).partition("@")
    host, _, tld = domain.rpartition(".")
    if local and domain and not host:  # "max@example": no top-level domain
        return f"{local[0]}{_BULLET * 3}@{domain[0]}{_BULLET * 3}"
    if not local or not host:  # spelled out ("max (at) example (dot) com")
        return _BULLET * 3
    return f"{local[0]}{_BULLET * 3}@{host[0]}{_BULLET * 3}.{tld}"


def _mask_phone(value: str) -> str:
    return f"{_BULLET * 4} {_BULLET * 2}{digits(_fold(value))[-2:]}"


def _mask_iban(value: str) -> str:
    compact = stdnum_iban.compact(_fold(value))
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
    """Swap the stored (English) placeholders for those of ``language`` ("en", "de", "fr"...)."""
    table = PLACEHOLDERS_BY_LANGUAGE.get(language.split("-")[0].lower(), PLACEHOLDERS)
    return PLACEHOLDER_ANY.sub(lambda m: table[_PLACEHOLDER_KINDS[m.group()]], text)
