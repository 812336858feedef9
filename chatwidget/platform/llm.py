"""The language-model client: any OpenAI-compatible endpoint through `AsyncOpenAI`.

`stream_reply` yields `Delta` and `ToolCall` events, reading the raw event stream (see its
docstring). Retries on 429/5xx/connection errors are the SDK's own (exponential backoff with jitter, honouring Retry-After, `max_retries`).
A first-token timeout catches a model that accepts the request and then hangs. Without an
API key the service is in demo mode (chatwidget.assistant.demo).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
import weakref
from collections.abc import AsyncIterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

import orjson
from django.conf import settings

from chatwidget.platform import metrics

try:  # the openai SDK's HTTP library (httpx; from openai 3 on, its fork httpx2)
    import httpx2 as httpx
except ImportError:  # pragma: no cover - older SDKs
    import httpx

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)


@functools.cache
def openai_sdk() -> ModuleType:
    """The openai package, imported on first use: about 0.4 s of CPU (its pydantic types)
    that a process which never calls a model (a management command, beat, a worker that
    only purges or sends mail, the demo's supervisor) no longer pays at start."""
    import openai  # noqa: PLC0415 - the reason is this function

    return openai


class ModelUnavailable(Exception):
    """The model could not answer (after retries, or it timed out)."""


@dataclass(frozen=True)
class Delta:
    text: str


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict


@lru_cache(maxsize=8)
def _client(base_url: str | None, api_key: str) -> openai.AsyncOpenAI:
    sdk = openai_sdk()
    return sdk.AsyncOpenAI(
        api_key=api_key,
        base_url=base_url,
        max_retries=settings.LLM_MAX_RETRIES,
        timeout=sdk.Timeout(settings.LLM_TIMEOUT_SECONDS, connect=5.0),
    )


def get_client() -> openai.AsyncOpenAI:
    return _client(settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY or "demo")


class _LoopClients:
    """One event loop's streaming clients, by their settings, and what closes them."""

    def __init__(self) -> None:
        self.clients: dict[tuple, openai.AsyncOpenAI] = {}
        self.closer = _closed_with_loop(self.clients)


_STREAMING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopClients]
_STREAMING = weakref.WeakKeyDictionary()


async def stream_client() -> openai.AsyncOpenAI:
    """The client of streamed answers: the same SDK (endpoint, key, retries, timeouts) over
    aiohttp's transport, the SDK's own `DefaultAioHttpClient`. Reading a 100-word answer's
    events through httpx and anyio cost about 9.5 ms of CPU, through aiohttp's C parser 4
    (issue 30; tests/bench/stream_transport.py), every answer. Proxies from the environment apply as
    with httpx. An aiohttp session belongs to the event loop it was made in, so there is one
    client per loop: the ASGI server's, for its life; tests and tools run more loops, whose
    clients close as the loop shuts down (`_closed_with_loop`)."""
    sdk = openai_sdk()
    if not hasattr(sdk, "DefaultAioHttpClient"):  # pragma: no cover - an SDK without it
        return get_client()
    loop = asyncio.get_running_loop()
    kept = _STREAMING.get(loop)
    if kept is None:
        kept = _STREAMING[loop] = _LoopClients()
        await anext(kept.closer)  # armed: its `finally` runs when the loop shuts down
    key = (
        settings.OPENAI_BASE_URL,
        settings.OPENAI_API_KEY or "demo",
        settings.LLM_MAX_RETRIES,
        settings.LLM_TIMEOUT_SECONDS,
    )
    client = kept.clients.get(key)
    if client is None:
        timeout = sdk.Timeout(settings.LLM_TIMEOUT_SECONDS, connect=5.0)
        client = kept.clients[key] = sdk.AsyncOpenAI(
            api_key=key[1],
            base_url=key[0],
            max_retries=settings.LLM_MAX_RETRIES,
            timeout=timeout,
            http_client=sdk.DefaultAioHttpClient(timeout=timeout),
        )
    return client


async def _closed_with_loop(clients: dict):
    """Closes the loop's clients when the loop shuts down its async generators (asyncio.run,
    asgiref and pytest-asyncio do before closing it): an aiohttp session left open is
    reported as a leak when it is collected. The loop's entry goes too: its clients refer to
    the loop, so the weak key alone would never let go of it."""
    try:
        yield
    finally:
        _STREAMING.pop(asyncio.get_running_loop(), None)
        for client in list(clients.values()):
            await client.close()


# An answer started before its visitor's turn committed (chatwidget.widget.early, issue 30)
# holds the model's events here until the commit: the request and the model's thinking
# overlap the commit, and nothing the answer does with the events (frames, shop lookups,
# their writes and checks against the stored conversation) runs before it.
stream_gate: ContextVar[asyncio.Event | None] = ContextVar("stream_gate", default=None)


async def stream_gate_wait() -> None:
    gate = stream_gate.get()
    if gate is not None and not gate.is_set():
        await gate.wait()


async def stream_reply(
    *, messages: list[dict], model: str, tools: list[dict] | None = None
) -> AsyncIterator[Delta | ToolCall]:
    """Stream the model's answer. The SDK makes the request (endpoint, key, retries on
    429/5xx/connection errors, timeouts) with its plain `post`: `chat.completions.create`
    first walks every message of the context through its parameter transform (2-5 ms a call
    here), and ours are already in the API's shape. The body, server-sent events, is read
    raw and each chunk parsed with orjson: the SDK's pydantic object per chunk cost more CPU
    than everything else on the real-time path together.

    Timeouts: the first event must arrive within LLM_FIRST_TOKEN_TIMEOUT_SECONDS of the
    response headers (a model that accepts and then hangs); after that the transport's read
    timeout (LLM_TIMEOUT_SECONDS) bounds every gap, with no timer per chunk. Any failure -
    after retries, a timeout, a broken connection, an error event, a malformed chunk - is
    ModelUnavailable."""
    client = await stream_client()
    body = {"model": model, "messages": messages, "stream": True}
    if tools:
        body["tools"] = tools
    started = time.monotonic()
    try:
        response = await client.post(
            "/chat/completions", cast_to=httpx.Response, body=body, stream=True
        )
    except (openai_sdk().APIError, httpx.HTTPError) as exc:
        log.warning("model request failed", extra={"error": type(exc).__name__})
        metrics.MODEL_ERRORS.labels(type(exc).__name__).inc()
        raise ModelUnavailable(type(exc).__name__) from None
    calls: dict[int, dict] = {}
    try:
        chunks = sse_chunks(response.aiter_bytes())
        try:
            async with asyncio.timeout(settings.LLM_FIRST_TOKEN_TIMEOUT_SECONDS):
                first = await anext(chunks, None)  # no yield inside the timeout's scope
        except TimeoutError:
            raise TimeoutError("no first token") from None
        metrics.FIRST_TOKEN_SECONDS.observe(time.monotonic() - started)
        await stream_gate_wait()  # an early answer's events wait for its turn's commit
        if first is not None:
            for event in _events(first, calls):
                yield event
            async for chunk in chunks:
                for event in _events(chunk, calls):
                    yield event
    except (TimeoutError, openai_sdk().APIError, httpx.HTTPError, ModelStreamError) as exc:
        log.warning("model stream failed", extra={"error": type(exc).__name__})
        metrics.MODEL_ERRORS.labels(type(exc).__name__).inc()
        raise ModelUnavailable(type(exc).__name__) from None
    finally:
        await response.aclose()
    for slot in calls.values():
        try:
            args = orjson.loads(slot["arguments"] or "{}")
        except orjson.JSONDecodeError:
            args = {}
        yield ToolCall(slot["name"], args if isinstance(args, dict) else {})


class ModelStreamError(Exception):
    """The stream said it failed (an error event) or could not be read (malformed data)."""


async def sse_chunks(body: AsyncIterator[bytes]) -> AsyncIterator[dict]:
    """The JSON objects of a server-sent-events body, up to `[DONE]`; the rest of the body is
    read (and ignored) so the connection goes back to the pool."""
    buffer = b""
    done = False
    async for data in body:
        if done:
            continue
        blocks, buffer = _split(buffer + data, final=False)
        for chunk in _chunks(blocks):
            if chunk is None:
                done = True
                break
            yield chunk
    if not done:
        for chunk in _chunks(_split(buffer, final=True)[0]):
            if chunk is None:
                break
            yield chunk


def _split(buffer: bytes, *, final: bool) -> tuple[list[bytes], bytes]:
    """Complete event blocks, and the bytes left for the next read. SSE lines end in \\n,
    \\r\\n or \\r; a \\r at the end of a read may be the first half of a \\r\\n."""
    tail = b""
    if b"\r" in buffer:
        if buffer.endswith(b"\r") and not final:
            buffer, tail = buffer[:-1], b"\r"
        buffer = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    *blocks, rest = buffer.split(b"\n\n")
    return blocks, rest + tail


def _chunks(blocks: list[bytes]):
    """Each block's JSON object; None for `[DONE]`."""
    for block in blocks:
        if block.startswith(b"data: ") and b"\n" not in block:
            payload = block[6:]  # the usual shape: one line
        else:
            lines = [
                ln[5:].removeprefix(b" ") for ln in block.split(b"\n") if ln.startswith(b"data:")
            ]
            if not lines:
                continue  # a comment or a block without data
            payload = b"\n".join(lines)
        if payload == b"[DONE]":
            yield None
            return
        try:
            chunk = orjson.loads(payload)
        except orjson.JSONDecodeError:
            raise ModelStreamError("malformed chunk") from None
        if not isinstance(chunk, dict) or chunk.get("error"):
            raise ModelStreamError("error event")
        yield chunk


def _events(chunk: dict, calls: dict[int, dict]) -> list[Delta]:
    """The text of one chunk; tool-call fragments are collected in `calls` (by index)."""
    choices = chunk.get("choices")
    if not choices:
        return []
    delta = choices[0].get("delta") or {}
    for call in delta.get("tool_calls") or ():
        slot = calls.setdefault(call.get("index", 0), {"name": "", "arguments": ""})
        function = call.get("function") or {}
        if function.get("name"):
            slot["name"] = function["name"]
        if function.get("arguments"):
            slot["arguments"] += function["arguments"]
    text = delta.get("content")
    return [Delta(text)] if text else []


async def complete_json(*, messages: list[dict], model: str, schema: dict) -> tuple[dict, dict]:
    """One non-streamed call asking for structured output. Returns (data, usage)."""
    client = get_client()
    try:
        response = await client.chat.completions.create(
            model=model,
            messages=messages,
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "condensed_core", "schema": schema, "strict": True},
            },
        )
    except openai_sdk().APIError as exc:
        raise ModelUnavailable(type(exc).__name__) from None
    content = response.choices[0].message.content or "{}"
    usage = {
        "prompt": getattr(response.usage, "prompt_tokens", 0) or 0,
        "completion": getattr(response.usage, "completion_tokens", 0) or 0,
    }
    try:
        return json.loads(content), usage
    except json.JSONDecodeError:
        raise ModelUnavailable("invalid JSON from model") from None
