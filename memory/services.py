"""Writes to conversation memory. Everything that is stored passes redaction first."""

import logging
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from chatwidget.events import conversation_group, publish_on_commit
from memory.models import Conversation, Turn, TurnRole
from memory.redaction import redact
from memory.selectors import token_hash, turn_public
from memory.tokens import count_tokens

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AppendResult:
    turn: Turn
    created: bool
    removed: dict[str, int]  # never-kept kinds removed from this text, for the visitor's hint


def conversation_start(*, site_id: int, language: str = "en") -> tuple[Conversation, str]:
    """A new conversation and its session token. Only the token's hash is stored."""
    token = secrets.token_urlsafe(32)  # 256 bits
    conv = Conversation.objects.create(
        site_id=site_id, token_hash=token_hash(token), language=language
    )
    return conv, token


def _merge_counts(target: dict, extra: dict) -> dict:
    merged = dict(target)
    for kind, count in extra.items():
        merged[kind] = merged.get(kind, 0) + count
    return merged


def turn_append(
    *,
    conversation_id: int,
    role: str,
    text: str,
    client_id: str | None = None,
    author_id: int | None = None,
    seq: int | None = None,
    publish: bool = True,
) -> AppendResult:
    """Redact, count tokens, and commit one turn. Idempotent per (conversation, client_id).

    `seq` may be a number reserved earlier with `seq_reserve` (streamed answers); otherwise
    the next one is taken. After commit the turn is published to the conversation's group and
    condensation is scheduled when turns have left the verbatim window.
    """
    result = redact(text)
    tokens = count_tokens(result.text)
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        if client_id:
            existing = Turn.objects.filter(conversation=conv, client_id=client_id).first()
            if existing is not None:
                return AppendResult(turn=existing, created=False, removed={})
        if seq is None:
            seq = conv.next_seq
        turn = Turn.objects.create(
            conversation=conv,
            seq=seq,
            role=role,
            text=result.text,
            spans=result.spans_json(),
            findings=result.findings,
            health=result.health,
            token_count=tokens,
            client_id=client_id,
            author_id=author_id,
        )
        conv.next_seq = max(conv.next_seq, seq + 1)
        conv.last_activity_at = timezone.now()
        update = ["next_seq", "last_activity_at"]
        if result.findings:
            conv.findings = _merge_counts(conv.findings, result.findings)
            update.append("findings")
        conv.save(update_fields=update)
        if publish:
            publish_on_commit(
                conversation_group(conv.pk), {"type": "message", **turn_public(turn)}
            )
        transaction.on_commit(lambda: _after_turn(conv.pk))
    log.info(
        "turn appended",
        extra={"conversation": conv.pk, "seq": seq, "role": role, "tokens": tokens,
               "findings": result.findings},
    )
    return AppendResult(turn=turn, created=True, removed=result.removed)


def _after_turn(conversation_id: int) -> None:
    from memory.condense import condense_schedule_if_due

    condense_schedule_if_due(conversation_id=conversation_id)


def seq_reserve(*, conversation_id: int) -> int:
    """Reserve the seq of an answer before it streams. If the answer fails, the number is
    skipped: seqs are strictly increasing per conversation, not gap-free."""
    with transaction.atomic():
        Conversation.objects.filter(pk=conversation_id).update(next_seq=F("next_seq") + 1)
        return Conversation.objects.values_list("next_seq", flat=True).get(pk=conversation_id) - 1


def visitor_message_receive(
    *, site_id: int, token: str | None, client_id: str, text: str, language: str = "en"
) -> tuple[AppendResult, Conversation, str | None, Turn | None]:
    """The visitor's message: start the conversation if needed, then commit the turn.

    Returns (result, conversation, new_token, hint). new_token is set only when a conversation
    was created here (the widget stores it in its cookie); hint is the system turn telling the
    visitor what was removed, if anything was."""
    from memory.selectors import conversation_get_by_token

    new_token = None
    conv = conversation_get_by_token(site_id=site_id, token=token) if token else None
    if conv is None:
        conv, new_token = conversation_start(site_id=site_id, language=language)
    result = turn_append(
        conversation_id=conv.pk, role=TurnRole.VISITOR, text=text, client_id=client_id
    )
    hint = None
    if result.created and result.removed:
        hint = turn_append(conversation_id=conv.pk, role=TurnRole.SYSTEM,
                           text=removed_hint(removed=result.removed, language=conv.language)).turn
    conv.refresh_from_db(fields=["state", "next_seq"])
    return result, conv, new_token, hint


def removed_hint(*, removed: dict[str, int], language: str) -> str:
    """Tell the visitor what was removed and where to go instead, in their language."""
    from django.utils import translation
    from django.utils.translation import gettext

    from memory.redaction import HINTS

    with translation.override(language):
        return " ".join(gettext(HINTS[kind]) for kind in removed if kind in HINTS)


def conversation_erase(*, conversation_id: int) -> dict[str, int]:
    """Erase a conversation now: turns, cores, traces and cached state. Every open tab is
    told (`forgotten`) and closes. Returns counts for the audit log."""
    from django.core.cache import cache

    from chatwidget.events import conversation_group, publish_on_commit

    with transaction.atomic():
        conv = Conversation.objects.select_for_update().filter(pk=conversation_id).first()
        if conv is None:
            return {}
        counts = {
            "turns": conv.turns.count(),
            "cores": conv.cores.count(),
            "traces": conv.traces.count(),
        }
        conv.delete()
        cache.delete_many([f"condense:lock:{conversation_id}", f"sess:{conversation_id}"])
        publish_on_commit(conversation_group(conversation_id), {"type": "forgotten"})
    log.info("conversation erased", extra={"conversation": conversation_id, **counts})
    return counts


def conversation_erase_by_visitor(*, conversation_id: int) -> dict[str, int]:
    return conversation_erase(conversation_id=conversation_id)
