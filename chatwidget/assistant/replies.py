"""The answer's text as it reaches the socket: in demo mode an answer put together from what
the pipeline found (chatwidget.assistant.demo); otherwise the model's stream (with the shop lookups it makes),
coalesced into delta frames. Storing it is chatwidget.assistant.answers'."""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from chatwidget.assistant.demo import DemoFound, demo_answer, person_asked
from chatwidget.assistant.streaming import DeltaCoalescer
from chatwidget.assistant.tools import choices_clean
from chatwidget.assistant.tools_loop import demo_lookup_lines, reply_events, request_text
from chatwidget.platform import llm
from chatwidget.platform.db import db_async
from chatwidget.platform.frames import Frame, delta_frame

Send = Callable[[Frame], Awaitable[None]]


@dataclass
class Streamed:
    parts: list[str]
    handover_reason: str | None = None  # the model asked for a person
    visitor_asked: bool = False  # demo mode: the visitor asked for a person in words
    choices: list[str] = field(default_factory=list)  # quick replies (offer_choices), checked


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
    """Demo mode: the answer the pipeline's findings give, paragraph by paragraph."""
    message = await db_async(request_text)(conversation_id, request_seq)
    handover = person_asked(message)
    found = built.demo or DemoFound()
    if not handover:
        found.lookup = await demo_lookup_lines(
            built=built,
            conversation_id=conversation_id,
            request_seq=request_seq,
            language=language,
            address=address,
        )
    text = demo_answer(
        message=message,
        found=found,
        handover=handover,
        total=built.trace.total_tokens,
        budget=built.trace.budget,
        language=language,
    )
    streamed = Streamed(parts=[], visitor_asked=handover)
    if handover:
        streamed.handover_reason = ""
    for part in text.splitlines(keepends=True):
        streamed.parts.append(part)
        await send(delta_frame(seq=seq, text=part))
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
            elif event.name == "offer_choices":
                streamed.choices = choices_clean(event.arguments)
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
