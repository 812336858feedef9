"""The answer's text as it reaches the socket: in demo mode the lines saying what the model
would have been sent; otherwise the model's stream (with the shop lookups it makes),
coalesced into delta frames. Storing it is chatwidget.assistant.answers'."""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from chatwidget.assistant.demo import demo_reply
from chatwidget.assistant.streaming import DeltaCoalescer
from chatwidget.assistant.tools_loop import demo_lookup_lines, reply_events
from chatwidget.platform import llm
from chatwidget.platform.frames import Frame, delta_frame

Send = Callable[[Frame], Awaitable[None]]


@dataclass
class Streamed:
    parts: list[str]
    handover_reason: str | None = None  # the model asked for a person


async def demo_stream(
    *,
    built,
    conversation_id: int,
    request_seq: int,
    send: Send,
    seq: int,
    language: str,
    address: str | None = None,
) -> Streamed:
    """Demo mode: what the model would have been sent, line by line."""
    lookup = await demo_lookup_lines(
        built=built,
        conversation_id=conversation_id,
        request_seq=request_seq,
        language=language,
        address=address,
    )
    text = demo_reply(
        sections=built.sections,
        verbatim_turns=len(built.trace.verbatim_seqs),
        covered_turns=built.trace.core_covers_through,
        core_version=built.trace.core_version,
        budget=built.trace.budget,
        reserve=built.trace.reserve,
        language=language,
        extra_lines=[*lookup, *built.knowledge_lines],
    )
    streamed = Streamed(parts=[])
    for line in text.splitlines(keepends=True):
        streamed.parts.append(line)
        await send(delta_frame(seq=seq, text=line))
        await asyncio.sleep(0)
    return streamed


async def model_stream(
    *,
    built,
    conversation_id: int,
    request_seq: int,
    send: Send,
    seq: int,
    language: str,
    address: str | None = None,
) -> Streamed | None:
    """The model's answer (and the shop actions it calls), the first delta at once, then at
    most one frame per WS_DELTA_INTERVAL_MS. None: the model failed (what arrived before
    the failure was sent, as before coalescing). `address`: the visitor's client address
    (shop lookups are limited by it)."""
    out = DeltaCoalescer(
        send=send,
        frame=lambda text: delta_frame(seq=seq, text=text),
        interval=settings.WS_DELTA_INTERVAL_MS / 1000,
    )
    streamed = Streamed(parts=[])
    try:
        async for event in reply_events(
            built=built,
            conversation_id=conversation_id,
            request_seq=request_seq,
            language=language,
            address=address,
        ):
            if isinstance(event, llm.Delta):
                streamed.parts.append(event.text)
                await out.add(event.text)
            elif event.name == "request_handover":
                streamed.handover_reason = str(event.arguments.get("reason", ""))[:500]
    except llm.ModelUnavailable:
        await out.close()
        return None
    await out.close()
    return streamed


def model_unavailable_text(language: str) -> str:
    with translation.override(language):
        return gettext(
            "The assistant is not available right now. Your message is saved; "
            "please try again in a moment or ask for a person."
        )
