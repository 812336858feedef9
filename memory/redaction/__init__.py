"""Redaction at ingestion: what is never kept, and what is kept but marked.

Pure Python (no Django import), so it is fast and testable without a database.

``redact(text)`` runs on every visitor, assistant and staff turn before it is stored:

* Never kept: card numbers and their expiry dates, card security codes (CVV/CVC),
  passwords, PINs and one-time codes (TANs, 2FA, verification codes) are replaced in the
  text by a typed placeholder (:data:`PLACEHOLDERS`). Only the value is replaced; the word
  that announced it stays, so "mein Passwort ist Sommer2024!" becomes "mein Passwort ist
  [password removed]".
* Kept but marked: e-mail addresses, phone numbers, IBANs and postal addresses stay in the
  text; their spans (offsets into the redacted text) are returned so staff views can show
  them masked (:func:`mask`).
* Health details are flagged (span kind ``"health"``), never removed.

Detection runs on a normalised copy of the text (:mod:`memory.redaction.normalise`: NFKC,
zero-width characters dropped, Unicode digits and dashes folded, spoken digits read) and
every span is mapped back to the original, so a value typed in full-width digits, with
no-break spaces or digit by digit is found, and only its own characters are replaced.

Modules: ``kinds`` (kinds, placeholders, hints, result types), ``normalise``, ``payment``
(cards, expiry dates, security codes), ``credentials`` (PINs, one-time codes, passwords),
``contact`` (e-mail, IBAN, phone), ``address`` (addresses, health), ``masking``.
The result records kinds and counts, never values.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from memory.redaction.address import find_addresses, find_health
from memory.redaction.common import GATES, PLACEHOLDER_ANY, Found, resolve
from memory.redaction.contact import DEFAULT_REGION, find_emails, find_ibans, find_phones
from memory.redaction.credentials import (
    find_keyed,
    find_passwords,
    find_reply_code,
    reply_needs_previous,
)
from memory.redaction.families import CARD_DIGITS_F
from memory.redaction.kinds import (
    ADDRESS,
    CARD,
    CARD_EXPIRY,
    EMAIL,
    HEALTH,
    HINTS,
    IBAN,
    MARKED_KINDS,
    OTP,
    PASSWORD,
    PHONE,
    PIN,
    PLACEHOLDERS,
    PLACEHOLDERS_BY_LANGUAGE,
    PLACEHOLDERS_DE,
    REMOVED_KINDS,
    SECURITY_CODE,
    RedactionResult,
    Span,
)
from memory.redaction.masking import mask, placeholders_localise
from memory.redaction.nearby import find_near_words
from memory.redaction.normalise import Normalised, normalise
from memory.redaction.payment import find_cards, find_security_codes
from memory.redaction.sequence import card_split, find_in_context, leaves_open

__all__ = [
    "ADDRESS",
    "CARD",
    "CARD_EXPIRY",
    "EMAIL",
    "GATES",
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
    "SECURITY_CODE",
    "RedactionResult",
    "Span",
    "mask",
    "never_kept_found",
    "never_kept_scrub",
    "placeholders_localise",
    "previous_turn_needed",
    "redact",
]


_DIGIT = re.compile(r"[0-9]")


def _has_digit(text: str) -> bool:
    return _DIGIT.search(text) is not None


def _removed_spans(
    norm: Normalised,
    *,
    previous: str | None,
    open_families: frozenset[str] = frozenset(),
    extra: Sequence[Found] = (),
) -> list[Found]:
    """Never-kept values, as non-overlapping ranges of the ORIGINAL text: the phrase rules,
    the sentence rule (a credential word anywhere in the sentence) and, with
    ``open_families``, the conversation rule."""
    text = norm.text
    lower = text.lower()
    candidates = find_passwords(text=text, lower=lower)
    if _has_digit(text):
        candidates += find_cards(text=text)
        candidates += find_security_codes(text=text, lower=lower)
        candidates += find_keyed(text=text, lower=lower)
        if previous:
            candidates += find_reply_code(text=text, previous=normalise(previous).text)
    candidates += find_near_words(text=text)
    candidates += list(extra)
    # what the previous turns left open decides only where the message's own words do not
    candidates += [
        (start, end, kind)
        for start, end, kind in find_in_context(text=text, open_families=open_families)
        if all(end <= s or start >= e for s, e, _ in candidates)
    ]
    resolved = resolve(candidates, precedence=REMOVED_KINDS)
    return [(*norm.original(start, end), kind) for start, end, kind in resolved]


def previous_turn_needed(text: str) -> bool:
    """True when ``text`` is a bare number ("482 913") whose meaning depends on the message
    before it; the caller then passes that message to :func:`redact` as ``previous``.

    A separate check so that the common message costs no extra database read.
    """
    return _has_digit(text) and reply_needs_previous(normalise(text).text)


def never_kept_found(text: str) -> bool:
    """True when ``text`` holds a never-kept value (for values other code is about to add)."""
    return bool(_removed_spans(normalise(text), previous=None))


def never_kept_scrub(text: str, *, language: str = "en") -> str:
    """``text`` with every value the never-kept check finds today replaced by its
    placeholder: the second gate where stored text leaves its turn (the core, the profile,
    the case page, exports, e-mails), so a value the first gate missed when the turn was
    stored (an older rule, a phrasing it did not know) is not copied onward."""
    found = _removed_spans(normalise(text), previous=None)
    if not found:
        return text
    table = PLACEHOLDERS_BY_LANGUAGE.get(language, PLACEHOLDERS)
    parts, cursor = [], 0
    for start, end, kind in found:
        parts += [text[cursor:start], table[kind]]
        cursor = end
    return "".join(parts) + text[cursor:]


def redact(
    text: str,
    *,
    previous: str | None = None,
    region: str = DEFAULT_REGION,
    open_families: frozenset[str] = frozenset(),
    earlier: str | None = None,
) -> RedactionResult:
    """Replace never-kept values by placeholders and mark kept-but-sensitive ones.

    ``previous`` is the message before this one (to read a bare "482913" sent right after
    "please enter the code"); ``open_families`` is what the conversation's previous turns
    left open (memory.redaction.sequence.leaves_open, kept on the conversation);
    ``earlier`` is the visitor's previous message as stored, read when it ended with card
    digits (a card number over two messages: ``result.earlier`` then says what to remove
    from it too); ``region`` is the site's country for national phone numbers. Spans in the
    result are offsets into the returned (redacted) text.
    """
    norm = normalise(text)
    extra: list[Found] = []
    earlier_found: tuple[tuple[int, int, str], ...] = ()
    if earlier and CARD_DIGITS_F in open_families and _has_digit(norm.text):
        earlier_norm = normalise(earlier)
        here, there = card_split(earlier=earlier_norm.text, text=norm.text)
        extra += here
        earlier_found = tuple((*earlier_norm.original(s, e), k) for s, e, k in there)
    removed_found = _removed_spans(
        norm, previous=previous, open_families=open_families, extra=extra
    )
    parts: list[str] = []
    cursor = 0
    for start, end, kind in removed_found:
        parts.append(text[cursor:start])
        parts.append(PLACEHOLDERS[kind])
        cursor = end
    parts.append(text[cursor:])
    redacted = "".join(parts)

    norm = normalise(redacted)
    folded = norm.text
    lower = folded.lower()
    marked_found = find_emails(text=folded, lower=lower)
    marked_found += find_health(text=folded, lower=lower)
    if _has_digit(folded):
        marked_found += find_ibans(text=folded)
        marked_found += find_phones(text=folded, region=region)
        marked_found += find_addresses(text=folded)
    # Never match inside a placeholder we inserted.
    marked_found += [(m.start(), m.end(), "_placeholder") for m in PLACEHOLDER_ANY.finditer(folded)]
    resolved = resolve(marked_found, precedence=("_placeholder", *MARKED_KINDS))
    spans = tuple(
        Span(kind=kind, start=start, end=end)
        for start, end, kind in (
            (*norm.original(s, e), kind) for s, e, kind in resolved if kind != "_placeholder"
        )
    )

    removed = dict(Counter(kind for _, _, kind in removed_found))
    findings = dict(Counter(removed) + Counter(span.kind for span in spans))
    return RedactionResult(
        text=redacted,
        spans=spans,
        removed=removed,
        findings=findings,
        leaves_open=leaves_open(folded, removed=removed),
        earlier=earlier_found,
    )
