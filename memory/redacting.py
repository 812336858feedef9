"""Redaction of a new turn against what the conversation already holds: the message read
with what earlier turns left open (a code asked for, card digits begun), an earlier visitor
turn rewritten when the new one completes a card number in it, and what stays open for the
next message. The services call these under the conversation's row lock."""

from __future__ import annotations

import logging
from collections import Counter

from django.utils import translation
from django.utils.translation import gettext

from memory.models import Conversation, Turn, TurnRole
from memory.redaction import (
    HINTS,
    PLACEHOLDERS,
    RedactionResult,
    previous_turn_needed,
    redact,
)
from memory.redaction.families import CARD_DIGITS_F
from memory.redaction.sequence import carries
from memory.tokens import count_tokens

log = logging.getLogger(__name__)


def merge_counts(target: dict, extra: dict) -> dict:
    merged = dict(target)
    for kind, count in extra.items():
        merged[kind] = merged.get(kind, 0) + count
    return merged


def redacted_new(conversation_id: int | None, text: str) -> tuple[RedactionResult, int]:
    """Redaction and the token count, before any row is locked. A bare "482913" is a
    one-time code when the message before asked for one: only then is the previous turn read,
    so the common message costs no extra query."""
    previous = None
    if conversation_id is not None and previous_turn_needed(text):
        previous = (
            Turn.objects.filter(conversation_id=conversation_id)
            .order_by("-seq")
            .values_list("text", flat=True)
            .first()
        )
    result = redact(text, previous=previous)
    return result, count_tokens(result.text)


def redacted_in_context(conv: Conversation, text: str) -> tuple[RedactionResult, int]:
    """The visitor's message read with what the conversation's previous turns left open
    (under the row lock, only when something is open). When they end with card digits, the
    visitor's previous message is read, and rewritten if the two together hold a card
    number (its digits are removed there too)."""
    open_families = frozenset(conv.redaction_open.split(","))
    earlier = None
    if CARD_DIGITS_F in open_families:
        earlier = (
            Turn.objects.filter(conversation_id=conv.pk, role=TurnRole.VISITOR)
            .order_by("-seq")
            .only("pk", "text", "findings")
            .first()
        )
    result = redact(
        text, open_families=open_families, earlier=earlier.text if earlier is not None else None
    )
    if result.earlier and earlier is not None:
        turn_rewrite(earlier, removals=result.earlier)
    return result, count_tokens(result.text)


def turn_rewrite(turn: Turn, *, removals: tuple[tuple[int, int, str], ...]) -> None:
    """Remove never-kept values a later message revealed from a stored turn."""
    parts, cursor = [], 0
    for start, end, kind in sorted(removals):
        parts += [turn.text[cursor:start], PLACEHOLDERS[kind]]
        cursor = end
    again = redact("".join(parts) + turn.text[cursor:])
    Turn.objects.filter(pk=turn.pk).update(
        text=again.text,
        spans=again.spans_json(),
        findings=merge_counts(turn.findings or {}, dict(Counter(k for _, _, k in removals))),
        token_count=count_tokens(again.text),
    )
    log.info("earlier turn redacted", extra={"conversation": turn.conversation_id})


def open_after(before: str, now: frozenset[str], *, visitor: bool, text: str) -> str:
    """What is open for the visitor's next message: a visitor turn replaces it with what it
    leaves open, unless it only goes on with the previous one ("wait no"); an answer
    (assistant, staff, system) adds what it names ("Please do not send your PIN") to what
    the visitor's turn left open."""
    earlier = set(filter(None, before.split(",")))
    if visitor:
        # card digits go on only into the very next message
        earlier.discard(CARD_DIGITS_F)
        if not carries(text):
            earlier = set()
    return ",".join(sorted(earlier | set(now)))[:120]


def removed_hint(*, removed: dict[str, int], language: str) -> str:
    """Tell the visitor what was removed and where to go instead, in their language."""
    with translation.override(language):
        return " ".join(gettext(HINTS[kind]) for kind in removed if kind in HINTS)


def redaction_moved(conv: Conversation, role: str, redacted: RedactionResult) -> list[str]:
    """What the turn leaves open (a code asked for, card digits begun) and the findings'
    counts, on the conversation; the names of the fields that changed."""
    changed = []
    if role != TurnRole.TOOL:
        left = open_after(
            conv.redaction_open,
            redacted.leaves_open,
            visitor=role == TurnRole.VISITOR,
            text=redacted.text,
        )
        if left != conv.redaction_open:
            conv.redaction_open = left
            changed.append("redaction_open")
    if redacted.findings:
        conv.findings = merge_counts(conv.findings, redacted.findings)
        changed.append("findings")
    return changed
