"""The answer flow of one visitor turn: context -> model (or demo) -> stored answer."""

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from chatwidget.assistant.context import (
    BuiltContext,
    context_build_after_ack,
    context_trace_save,
)
from chatwidget.assistant.leases import lease_keep, lease_release
from chatwidget.assistant.preparation import AnswerResult, PreparedAnswer, answer_prepare_apart
from chatwidget.assistant.replies import demo_stream, model_stream, model_unavailable_text
from chatwidget.platform import cache_keys, metrics
from chatwidget.platform.db import db_async, urgent_hops_done
from chatwidget.platform.frames import ErrorCode, Frame, cards_frame, error_frame
from chatwidget.platform.llm import stream_gate_wait
from chatwidget.shop.knowledge.cards import product_cards
from handover.models import Case
from handover.services import handover_request
from memory.models import TurnRole
from memory.selectors import turn_unanswered
from memory.services import turn_append

log = logging.getLogger(__name__)

Send = Callable[[Frame], Awaitable[None]]


# An answer's turn carries this client id: one stored answer per visitor turn, whichever
# process stores it (turn_append is idempotent per client id). Widget ids never start with "~"
# (chatwidget.widget.protocol refuses them).
ANSWER_ID_PREFIX = "~a:"


def answer_client_id(request_seq: int) -> str:
    return f"{ANSWER_ID_PREFIX}{request_seq}"


def _finish(
    conversation_id: int,
    request_seq: int,
    seq: int,
    text: str,
    owner: str,
    built: BuiltContext | None = None,
    keep_lease_on_error: bool = False,
    choices: list[str] | None = None,
) -> list[dict]:
    """After the answer, one thread hop: the context trace (before the turn, so it exists
    once the visitor sees the stored answer), the answer with its product cards (read from
    the site's knowledge, chatwidget.shop.knowledge.cards) and quick replies, the request's
    lease released. Returns the cards. `keep_lease_on_error`: a failed store keeps the
    lease (it is tried again)."""
    key = cache_keys.answer_lease(conversation_id, request_seq)
    cards: list[dict] = []
    try:
        if text:  # the trace and the answer in one transaction: one commit
            if built is not None:
                cards = product_cards(site_id=built.site_id, text=text)
            with transaction.atomic():
                if built is not None:
                    context_trace_save(built=built)
                turn_append(
                    conversation_id=conversation_id,
                    role=TurnRole.ASSISTANT,
                    text=text,
                    seq=seq,
                    client_id=answer_client_id(request_seq),
                    savepoint=False,
                    cards=cards,
                    choices=choices,
                )
        elif built is not None:
            context_trace_save(built=built)
    except BaseException:
        if not keep_lease_on_error:
            lease_release(key, owner)
        raise
    lease_release(key, owner)
    return cards


# Seconds between the tries to store a streamed answer while the database is away (a
# failover, a restart: seconds). The lease is kept and renewed meanwhile, so no other
# process answers the turn twice; after the last try the visitor gets `unavailable` with
# the message's id and may ask again.
STORE_RETRY_DELAYS = (0.5, 1.5, 3.0)


async def _finish_retrying(
    *args, built: BuiltContext | None, choices: list[str] | None = None
) -> list[dict]:
    """`_finish`, tried again after a database error (issue 25: a blip mid-stream must not
    lose the answer the visitor has just watched appear); the answer turn's client id makes a
    try that did commit but failed to report so harmless to repeat."""
    for delay in (*STORE_RETRY_DELAYS, None):
        await urgent_hops_done()
        try:
            return await db_async(_finish)(
                *args, built=built, keep_lease_on_error=delay is not None, choices=choices
            )
        except DatabaseError as exc:
            if delay is None:
                raise
            log.warning(
                "answer not stored yet", extra={"error": type(exc).__name__, "retry_in": delay}
            )
            await asyncio.sleep(delay)
    raise AssertionError("unreachable: the last try returns or raises")


class AnswerUnavailable(Exception):
    """The database failed while answering (the answer could not be read for or stored):
    the visitor's socket sends `unavailable` with `client_id`, the id of the message the
    widget may send again ("Ask again")."""

    def __init__(self, client_id: str | None) -> None:
        super().__init__(client_id)
        self.client_id = client_id


async def answer_generate(
    *,
    conversation_id: int,
    request_seq: int,
    send: Send,
    client_id: str | None,
    retry: bool = False,
    prepared: PreparedAnswer | None = None,
    address: str | None = None,
) -> AnswerResult:
    """Answer the visitor's turn `request_seq`: stream deltas to this socket, then store the
    answer and publish it to every tab. The bot stays silent unless the state is `bot`.

    The answer outlives the socket that asked: a visitor who changes pages mid-stream finds
    the complete answer on the next page (sends to a closed socket are dropped). Cancelled
    (the process stops), it hands the turn over: the lease is released at once, so the
    process the widget reconnects to answers it (answer_recover).

    `prepared`: made ready with the visitor's turn (`answer_prepare`): straight to the model.
    `address`: the visitor's client address, which shop lookups are limited by.
    A database error (after the store's retries) raises AnswerUnavailable(client_id)."""
    if prepared is not None:
        seq, language, owner, built = prepared.seq, prepared.language, prepared.owner, None
        try:  # embeddings on: the build (with the message's embedding) waited for the ack
            built = prepared.built or await db_async(context_build_after_ack)(
                conversation=prepared.conversation,
                request_seq=request_seq,
                message=prepared.message,
            )
        except DatabaseError as exc:
            lease_release(cache_keys.answer_lease(conversation_id, request_seq), owner)
            raise AnswerUnavailable(client_id) from exc
    else:
        owner = uuid.uuid4().hex
        try:
            built, seq, language = await db_async(answer_prepare_apart)(
                conversation_id, request_seq, retry, owner
            )
        except DatabaseError as exc:
            raise AnswerUnavailable(client_id) from exc
        if isinstance(built, AnswerResult):
            return built
    key = cache_keys.answer_lease(conversation_id, request_seq)
    keeper = asyncio.ensure_future(lease_keep(key, owner))
    try:
        return await _answer_stream(
            conversation_id=conversation_id,
            request_seq=request_seq,
            send=send,
            client_id=client_id,
            built=built,
            seq=seq,
            language=language,
            owner=owner,
            address=address,
        )
    except DatabaseError as exc:
        raise AnswerUnavailable(client_id) from exc
    except asyncio.CancelledError:
        try:
            lease_release(key, owner)  # one cache round trip: the hand-over
        except Exception as exc:  # noqa: BLE001 - the cache away: the lease lapses in seconds anyway
            log.info("answer lease not released", extra={"error": type(exc).__name__})
        raise
    finally:
        keeper.cancel()


async def _answer_stream(
    *,
    conversation_id: int,
    request_seq: int,
    send: Send,
    client_id: str | None,
    built,
    seq: int,
    language: str,
    owner: str,
    address: str | None,
) -> AnswerResult:
    started = timezone.now()
    if settings.DEMO_MODE:
        await stream_gate_wait()  # no model to wait for: an early answer waits for its commit
        streamed = await demo_stream(
            built=built,
            conversation_id=conversation_id,
            request_seq=request_seq,
            send=send,
            seq=seq,
            language=language,
            address=address,
        )
    else:
        streamed = await model_stream(
            built=built,
            conversation_id=conversation_id,
            request_seq=request_seq,
            send=send,
            seq=seq,
            language=language,
            address=address,
        )
    if streamed is None:  # the model failed: the visitor is told, the trace says so
        _trace_outcome(built, started, answered=False)
        await _finish_retrying(conversation_id, request_seq, seq, "", owner, built=built)
        await send(
            error_frame(
                code=ErrorCode.MODEL_UNAVAILABLE,
                message=model_unavailable_text(language),
                client_id=client_id,
            )
        )
        return AnswerResult.FAILED
    # The state may have changed while streaming (staff took over): still store what the
    # visitor has already seen, so the transcript matches the screen.
    _trace_outcome(built, started, answered=bool(streamed.parts))
    text = "".join(streamed.parts).strip()
    cards = await _finish_retrying(
        conversation_id, request_seq, seq, text, owner, built=built, choices=streamed.choices
    )
    if cards:  # this socket at once; every tab reads them on the stored turn's `message`
        await send(cards_frame(seq=seq, cards=cards))
    log.info(
        "answer stored",
        extra={
            "conversation": conversation_id,
            "request_seq": request_seq,
            "seq": seq,
            "ms": int((timezone.now() - started).total_seconds() * 1000),
        },
    )
    if streamed.handover_reason is not None:
        await db_async(handover_request)(
            conversation_id=conversation_id,
            trigger=Case.Trigger.VISITOR if streamed.visitor_asked else Case.Trigger.MODEL,
            reason=streamed.handover_reason,
        )
    return AnswerResult.STORED


def _trace_outcome(built: BuiltContext, started, *, answered: bool) -> None:
    """The answer's latency and outcome ride on its context trace (the owners' dashboard);
    stored by _finish in the same INSERT, so no extra query."""
    built.trace.latency_ms = int((timezone.now() - started).total_seconds() * 1000)
    built.trace.answered = answered
    metrics.ANSWERS.labels("answered" if answered else "failed").inc()


async def answer_recover(
    *,
    conversation_id: int,
    send: Send,
    lock: asyncio.Lock | None = None,
    address: str | None = None,
) -> AnswerResult:
    """Answer the conversation's newest visitor turn if it has no answer and nobody holds its
    lease: the process that acked it died or stopped mid-answer. Called when a widget says
    hello (a reconnect after a crash lands here). While another process's lease is live it
    waits (half a lease at a time) until that answer is stored or the lease lapses, bounded.

    `lock`: the socket's answer lock, so a recovered answer never interleaves with another
    answer on the same socket."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.LLM_TIMEOUT_SECONDS * 3
    while True:
        pending = await db_async(turn_unanswered)(
            conversation_id=conversation_id, max_age_s=settings.ANSWER_RECOVER_MAX_AGE_SECONDS
        )
        if pending is None:
            return AnswerResult.SILENT
        async with lock or contextlib.nullcontext():
            result = await answer_generate(
                conversation_id=conversation_id,
                request_seq=pending.seq,
                send=send,
                client_id=pending.client_id,
                retry=True,
                address=address,
            )
        if result is not AnswerResult.BUSY or loop.time() >= deadline:
            if result is AnswerResult.STORED:
                log.info(
                    "answer recovered",
                    extra={"conversation": conversation_id, "request_seq": pending.seq},
                )
            return result
        await asyncio.sleep(settings.ANSWER_LEASE_SECONDS / 2)
