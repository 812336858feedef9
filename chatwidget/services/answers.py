"""The answer flow of one visitor turn: context -> model (or demo) -> stored answer."""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone, translation
from django.utils.translation import gettext

from chatwidget import llm
from chatwidget.db import db_async
from chatwidget.protocol import ErrorCode, Frame, delta_frame, error_frame
from handover.models import Case
from handover.services import handover_request
from memory.context import context_build
from memory.models import Turn, TurnRole
from memory.services import answer_seq_reserve, turn_append

log = logging.getLogger(__name__)

Send = Callable[[Frame], Awaitable[None]]


def _answering_key(conversation_id: int, request_seq: int) -> str:
    return f"answering:{conversation_id}:{request_seq}"


def _prepare(conversation_id: int, request_seq: int, retry: bool):
    """Everything before the model call in one thread hop: claim the request (one answer per
    visitor turn, across sockets and processes), reserve the answer's seq while the
    conversation is with the bot (one statement), then build the context. Returns
    (built, seq, language), or (None, None, None) when the bot must stay silent.

    `retry`: the visitor re-sent a message that was already stored (its ack was lost). It is
    answered only if no answer is on its way or stored yet."""
    key = _answering_key(conversation_id, request_seq)
    if not cache.add(key, 1, timeout=int(settings.LLM_TIMEOUT_SECONDS * 3) + 60):
        return None, None, None  # another socket is answering this turn
    if retry and Turn.objects.filter(conversation_id=conversation_id, seq__gt=request_seq,
                                     role=TurnRole.ASSISTANT).exists():
        cache.delete(key)
        return None, None, None
    # The authority on "may the bot answer?" at the moment it matters: the reservation runs
    # only while the state is `bot` (a take-over between the turn and here wins).
    reserved = answer_seq_reserve(conversation_id=conversation_id)
    if reserved is None:
        cache.delete(key)
        return None, None, None
    seq, language = reserved
    return context_build(conversation_id=conversation_id, request_seq=request_seq), seq, language


def _finish(conversation_id: int, request_seq: int, seq: int, text: str) -> None:
    try:
        if text:
            turn_append(conversation_id=conversation_id, role=TurnRole.ASSISTANT, text=text,
                        seq=seq)
    finally:
        cache.delete(_answering_key(conversation_id, request_seq))


async def answer_generate(*, conversation_id: int, request_seq: int, send: Send,
                          client_id: str | None, retry: bool = False) -> None:
    """Answer the visitor's turn `request_seq`: stream deltas to this socket, then store the
    answer and publish it to every tab. The bot stays silent unless the state is `bot`.

    The answer outlives the socket that asked: a visitor who changes pages mid-stream finds
    the complete answer on the next page (sends to a closed socket are dropped)."""
    built, seq, language = await db_async(_prepare)(conversation_id, request_seq, retry)
    if built is None:
        return
    parts: list[str] = []
    handover_reason: str | None = None
    started = timezone.now()
    if settings.DEMO_MODE:
        text = llm.demo_reply(
            sections=built.sections,
            verbatim_turns=len(built.trace.verbatim_seqs),
            covered_turns=built.trace.core_covers_through,
            core_version=built.trace.core_version,
            budget=built.trace.budget,
            reserve=built.trace.reserve,
            language=language,
            extra_lines=built.knowledge_lines,
        )
        for line in text.splitlines(keepends=True):
            parts.append(line)
            await send(delta_frame(seq=seq, text=line))
            await asyncio.sleep(0)
    else:
        try:
            async for event in llm.stream_reply(
                messages=built.messages, model=built.model, tools=[llm.HANDOVER_TOOL]
            ):
                if isinstance(event, llm.Delta):
                    parts.append(event.text)
                    await send(delta_frame(seq=seq, text=event.text))
                elif event.name == "request_handover":
                    handover_reason = str(event.arguments.get("reason", ""))[:500]
        except llm.ModelUnavailable:
            await db_async(_finish)(conversation_id, request_seq, seq, "")
            await send(error_frame(code=ErrorCode.MODEL_UNAVAILABLE,
                                   message=_model_unavailable_text(language),
                                   client_id=client_id))
            return
    # The state may have changed while streaming (staff took over): still store what the
    # visitor has already seen, so the transcript matches the screen.
    await db_async(_finish)(conversation_id, request_seq, seq, "".join(parts).strip())
    log.info("answer stored", extra={"conversation": conversation_id, "seq": seq,
                                     "ms": int((timezone.now() - started).total_seconds() * 1000)})
    if handover_reason is not None:
        await db_async(handover_request)(
            conversation_id=conversation_id, trigger=Case.Trigger.MODEL, reason=handover_reason
        )


def _model_unavailable_text(language: str) -> str:
    with translation.override(language):
        return gettext(
            "The assistant is not available right now. Your message is saved; "
            "please try again in a moment or ask for a person."
        )
