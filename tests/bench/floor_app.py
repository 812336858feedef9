"""The floor: the least a server on this stack can do per visitor message.

A bare Channels consumer under the same Daphne as the product, talking the widget protocol
the load client needs: `hello` -> `welcome`; `message` -> `ack`, then the model's answer
(the same fake model, through the same openai SDK for the request) streamed straight to the
socket, its deltas coalesced like the product's (the first at once, then at most one frame
per `FLOOR_DELTA_INTERVAL_MS`, default 40, the product's `WS_DELTA_INTERVAL_MS`: a floor that
sent a frame per chunk would do several times the product's frame work and flatter it), and
the complete `message`. No database, no channel layer, no
cache, no rate limits, no context: whatever the product costs above this is ours.

The stream is read raw (server-sent events split by hand, each chunk parsed with orjson),
the cheapest way the SDK allows; the product's `chatwidget.platform.llm` does the same since issue 14,
but the floor keeps its own copy so that changes to the product never move the floor. The
SDK's HTTP transport is its default, httpx (the floor of issue 30); `FLOOR_HTTP=aiohttp`
gives the floor the transport the product streams over since (`llm.stream_client`), to see
how much of the product's gap that transport closed and how much is the product's own.

    DJANGO_SETTINGS_MODULE= OPENAI_BASE_URL=http://127.0.0.1:9100/v1 \
        python -m daphne -b 127.0.0.1 -p 8002 tests.bench.floor_app:application
"""

from __future__ import annotations

import asyncio
import json
import os
from datetime import UTC, datetime

import django
import openai
import orjson
from django.conf import settings

if not settings.configured:
    settings.configure(CHANNEL_LAYERS={}, INSTALLED_APPS=["channels"], USE_TZ=True)
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import re_path

INTERVAL = float(os.environ.get("FLOOR_DELTA_INTERVAL_MS", "40")) / 1000.0

_client = openai.AsyncOpenAI(
    api_key=os.environ.get("OPENAI_API_KEY", "floor"),
    base_url=os.environ.get("OPENAI_BASE_URL"),
    max_retries=2,
    timeout=openai.Timeout(30.0, connect=5.0),
    http_client=(
        openai.DefaultAioHttpClient(timeout=openai.Timeout(30.0, connect=5.0))
        if os.environ.get("FLOOR_HTTP") == "aiohttp"
        else None
    ),
)


async def model_stream(messages: list[dict]):
    """Yield the content pieces of the model's streamed answer (raw SSE, orjson)."""
    async with _client.chat.completions.with_streaming_response.create(
        model="floor", messages=messages, stream=True
    ) as response:
        buffer = b""
        async for data in response.http_response.aiter_bytes():
            buffer += data
            *events, buffer = buffer.split(b"\n\n")
            for event in events:
                if not event.startswith(b"data: "):
                    continue
                payload = event[6:]
                if payload == b"[DONE]":
                    return
                choices = orjson.loads(payload).get("choices")
                if choices:
                    text = choices[0].get("delta", {}).get("content")
                    if text:
                        yield text


class FloorConsumer(AsyncWebsocketConsumer):
    seq = 0

    async def receive(self, text_data=None, bytes_data=None) -> None:
        frame = json.loads(text_data or "{}")
        kind = frame.get("type")
        if kind == "hello":
            await self._send(
                {"type": "welcome", "session": None, "resumed": False, "state": "bot", "turns": []}
            )
        elif kind == "message":
            self.seq += 2
            seq = self.seq
            await self._send(
                {"type": "ack", "id": frame.get("id"), "seq": seq - 1, "session": "floor"}
            )
            parts: list[str] = []
            pending: list[str] = []
            last = -INTERVAL
            loop = asyncio.get_running_loop()
            async for text in model_stream([{"role": "user", "content": frame.get("text")}]):
                parts.append(text)
                pending.append(text)
                now = loop.time()
                if now - last >= INTERVAL:  # the first at once, then one frame per interval
                    last = now
                    await self._send({"type": "delta", "seq": seq, "text": "".join(pending)})
                    pending.clear()
            if pending:
                await self._send({"type": "delta", "seq": seq, "text": "".join(pending)})
            await self._send(
                {
                    "type": "message",
                    "seq": seq,
                    "role": "assistant",
                    "text": "".join(parts),
                    "at": datetime.now(UTC).isoformat(),
                }
            )

    async def _send(self, frame: dict) -> None:
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))


application = ProtocolTypeRouter(
    {"websocket": URLRouter([re_path(r"^ws/chat/(?P<site_key>[^/]+)/$", FloorConsumer.as_asgi())])}
)
