"""An answer made ready before the model call (issue 14, issue 30): the answer lease (one
answer per visitor turn, across sockets and processes), the seq reserved while the bot may
answer, and the context built.

Either in the visitor turn's own transaction (`answer_prepare`, called by
chatwidget.assistant.turns before the commit, so the model request starts while the turn
commits) or in a thread hop of its own (`answer_prepare_apart`: an answer that had to wait, a resend, a
recovery). `answer_prepared_release` lets go of a prepared answer whose turn rolled back.
"""

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.core.cache import cache

from chatwidget.assistant.context import BuiltContext, context_after_ack, context_build
from chatwidget.assistant.leases import lease_release
from chatwidget.assistant.sections import TurnRow
from chatwidget.platform import cache_keys
from chatwidget.platform.owned import owned_take
from memory.models import Turn, TurnRole
from memory.reservations import answer_seq_reserve

log = logging.getLogger(__name__)


class AnswerResult(StrEnum):
    STORED = "stored"  # streamed (to this socket) and stored
    BUSY = "busy"  # a live lease: another socket or process is answering this turn
    SILENT = "silent"  # answered already, or the bot may not answer (state, erased)
    FAILED = "failed"  # the model failed; the visitor got a model_unavailable error


def answer_prepare_apart(conversation_id: int, request_seq: int, retry: bool, owner: str):
    """Everything before the model call in one thread hop: take the lease on "this turn is
    being answered" (one answer per visitor turn, across sockets and processes), reserve the
    answer's seq while the conversation is with the bot (one statement), then build the
    context. Returns (built, seq, language), or (AnswerResult, None, None) when this socket
    does not answer.

    The lease lives ANSWER_LEASE_SECONDS and is renewed while the answer streams: a process
    that dies (SIGKILL, OOM) holds it for seconds, not minutes, and then any process may
    answer the turn (answer_recover).

    `retry`: the turn was stored before (a re-sent message whose ack was lost, or a recovery
    after a crash). It is answered only if no answer is stored yet."""
    key = cache_keys.answer_lease(conversation_id, request_seq)
    if not owned_take(key, owner, settings.ANSWER_LEASE_SECONDS):
        return AnswerResult.BUSY, None, None
    if (
        retry
        and Turn.objects.filter(
            conversation_id=conversation_id, seq__gt=request_seq, role=TurnRole.ASSISTANT
        ).exists()
    ):
        cache.delete(key)
        return AnswerResult.SILENT, None, None
    # The authority on "may the bot answer?" at the moment it matters: the reservation runs
    # only while the state is `bot` (a take-over between the turn and here wins).
    reserved = answer_seq_reserve(conversation_id=conversation_id)
    if reserved is None:
        cache.delete(key)
        return AnswerResult.SILENT, None, None
    seq, language = reserved
    built = context_build(
        conversation_id=conversation_id, request_seq=request_seq, trace_save=False
    )  # stored after the answer, in _finish
    return built, seq, language


@dataclass(frozen=True)
class PreparedAnswer:
    """An answer made ready in the visitor turn's own thread hop (`answer_prepare`): its
    lease taken, its seq reserved with the turn, its context built, or None when the build
    waits for after the ack (the query embedding: `context_after_ack`)."""

    built: BuiltContext | None
    seq: int
    language: str
    owner: str
    conversation: object = None  # the row the turn locked, for a build after the ack
    message: str = ""  # the visitor's stored text, embedded while the build reads


def answer_prepare(
    *,
    conversation,
    request_seq: int,
    seq: int,
    message: str = "",
    pending: TurnRow | None = None,
    hand_over: Callable[[PreparedAnswer], None] | None = None,
) -> PreparedAnswer | None:
    """Inside the visitor turn's transaction, its answer's seq reserved
    (memory.services.visitor_message_receive(reserve_answer=True, before_insert=...)): take
    the lease and build the context from the row the turn locked and the turn in hand
    (`pending`, not yet written; None: the turn it wrote). The socket starts the model
    request with it before the turn's statement and the commit (issue 30): no second hop,
    no statement for the reservation, no second read of the conversation. With embeddings
    (`context_after_ack`) only the lease is taken here: the build embeds the message, which
    must not delay the ack, so it runs in the answer task after the ack
    (`context_build_after_ack`, issue 26), the conversation passed along.

    `hand_over(prepared)`: called with the built answer before its lease is taken, so the
    model request goes out while the lease's round trip runs. A turn not yet committed is
    seen by no other socket: only a lease left by a process that died in the same seq's
    transaction can refuse it; None is then returned, and the caller calls off what it
    handed over (no delta goes out before the ack, which follows the commit).

    None when this socket must not answer (a recovering tab took the lease first) or the
    build failed: the answer task then takes the usual way (`answer_prepare_apart`), which
    answers, waits or reports the error as it always did."""
    owner = uuid.uuid4().hex
    key = cache_keys.answer_lease(conversation.pk, request_seq)
    after_ack = context_after_ack(conversation.site_id)
    lease_first = after_ack or hand_over is None
    if lease_first and not owned_take(key, owner, settings.ANSWER_LEASE_SECONDS):
        return None
    if after_ack:
        # the message's embedding started with the turn, once its text was final
        # (turns._embedding_start); the build after the ack finds it running or done
        return PreparedAnswer(None, seq, conversation.language, owner, conversation, message)
    try:
        built = context_build(
            conversation_id=conversation.pk,
            request_seq=request_seq,
            trace_save=False,
            conversation=conversation,
            pending=pending,
        )
    except Exception as exc:  # noqa: BLE001 - the usual way reports it (and retries the build)
        if lease_first:
            cache.delete(key)
        log.warning(
            "answer not prepared with the turn",
            extra={"conversation": conversation.pk, "error": type(exc).__name__},
        )
        return None
    prepared = PreparedAnswer(built=built, seq=seq, language=conversation.language, owner=owner)
    if hand_over is not None:
        hand_over(prepared)
        if not owned_take(key, owner, settings.ANSWER_LEASE_SECONDS):
            return None
    return prepared


def answer_prepared_release(conversation_id: int, request_seq: int, prepared: PreparedAnswer):
    """An answer made ready for a turn whose transaction then failed: its lease goes at once
    (the widget sends the message again, and its turn takes the same seq)."""
    try:
        lease_release(cache_keys.answer_lease(conversation_id, request_seq), prepared.owner)
    except Exception as exc:  # noqa: BLE001 - the cache away: the lease lapses in seconds
        log.info("answer lease not released", extra={"error": type(exc).__name__})
