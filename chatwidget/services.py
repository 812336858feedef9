"""Site set-up and the answer flow of one turn (context -> model -> stored answer)."""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from chatwidget import llm
from chatwidget.db import db_async
from chatwidget.events import apublish, conversation_group
from chatwidget.models import Site, validate_origin
from memory.models import Conversation, TurnRole

log = logging.getLogger(__name__)

Send = Callable[[dict], Awaitable[None]]


def site_create(*, name: str, origins: list[str]) -> Site:
    cleaned = []
    for origin in origins:
        parts = urlsplit(origin.strip())
        normal = f"{parts.scheme}://{parts.netloc}".lower()
        validate_origin(normal)
        cleaned.append(normal)
    site = Site(name=name, allowed_origins=cleaned)
    site.full_clean()
    site.save()
    from memory.retention import retention_policy_ensure

    retention_policy_ensure(site_id=site.pk)  # every site starts with the default periods
    return site


def embed_snippet(*, site: Site, base_url: str) -> str:
    return (
        f'<script src="{base_url.rstrip("/")}/static/widget/v1/loader.js" '
        f'data-site="{site.key}" async></script>'
    )


def _answering_key(conversation_id: int, request_seq: int) -> str:
    return f"answering:{conversation_id}:{request_seq}"


def _prepare(conversation_id: int, request_seq: int, retry: bool):
    """Everything before the model call in one thread hop: claim the request (one answer per
    visitor turn, across sockets and processes), reserve the answer's seq while the
    conversation is with the bot (one statement), then build the context. Returns
    (built, seq, language), or (None, None, None) when the bot must stay silent.

    `retry`: the visitor re-sent a message that was already stored (its ack was lost). It is
    answered only if no answer is on its way or stored yet."""
    from memory.context import context_build
    from memory.models import Turn
    from memory.services import answer_seq_reserve

    key = _answering_key(conversation_id, request_seq)
    if not cache.add(key, 1, timeout=int(settings.LLM_TIMEOUT_SECONDS * 3) + 60):
        return None, None, None  # another socket is answering this turn
    if retry and Turn.objects.filter(conversation_id=conversation_id, seq__gt=request_seq,
                                     role=TurnRole.ASSISTANT).exists():
        cache.delete(key)
        return None, None, None
    reserved = answer_seq_reserve(conversation_id=conversation_id)
    if reserved is None:
        cache.delete(key)
        return None, None, None
    seq, language = reserved
    return context_build(conversation_id=conversation_id, request_seq=request_seq), seq, language


def _state(conversation_id: int) -> str:
    return Conversation.objects.values_list("state", flat=True).get(pk=conversation_id)


def _finish(conversation_id: int, request_seq: int, seq: int, text: str) -> None:
    from memory.services import turn_append

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
    built, seq, language = await db_async(_prepare)(
        conversation_id, request_seq, retry)
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
        )
        for line in text.splitlines(keepends=True):
            parts.append(line)
            await send({"type": "delta", "seq": seq, "text": line})
            await asyncio.sleep(0)
    else:
        try:
            async for event in llm.stream_reply(
                messages=built.messages, model=built.model, tools=[llm.HANDOVER_TOOL]
            ):
                if isinstance(event, llm.Delta):
                    parts.append(event.text)
                    await send({"type": "delta", "seq": seq, "text": event.text})
                elif event.name == "request_handover":
                    handover_reason = str(event.arguments.get("reason", ""))[:500]
        except llm.ModelUnavailable:
            await db_async(_finish)(conversation_id, request_seq, seq, "")
            await send({
                "type": "error",
                "code": "model_unavailable",
                "message": _model_unavailable_text(language),
                "id": client_id,
            })
            return
    # The state may have changed while streaming (staff took over): still store what the
    # visitor has already seen, so the transcript matches the screen.
    await db_async(_finish)(conversation_id, request_seq, seq,
                                          "".join(parts).strip())
    log.info("answer stored", extra={"conversation": conversation_id, "seq": seq,
                                     "ms": int((timezone.now() - started).total_seconds() * 1000)})
    if handover_reason is not None:
        from handover.services import handover_request

        await db_async(handover_request)(
            conversation_id=conversation_id, trigger="model", reason=handover_reason
        )


def _model_unavailable_text(language: str) -> str:
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override(language):
        return gettext(
            "The assistant is not available right now. Your message is saved; "
            "please try again in a moment or ask for a person."
        )


async def publish_state(conversation_id: int, state: str) -> None:
    await apublish(conversation_group(conversation_id), {"type": "state", "state": state})
