"""The model client reads the raw event stream: same events, same failures, as the SDK's
objects gave; against the fake OpenAI-compatible server over real HTTP."""

import asyncio
import json

import pytest

from chatwidget.assistant.tools import HANDOVER_TOOL
from chatwidget.platform import llm
from tests.fakellm import Hang, Raw, Reply, Status, ToolCallReply

MESSAGES = [{"role": "user", "content": "Do you ship to Hamburg?"}]


async def collect(**kwargs) -> list:
    return [e async for e in llm.stream_reply(messages=MESSAGES, model="fake", **kwargs)]


def chunk(content: str) -> str:
    return json.dumps(
        {
            "id": "x",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {"content": content}}],
        }
    )


async def test_deltas_arrive_in_order_and_join_to_the_text(fake_llm):
    fake_llm.script.append(Reply("Yes, we ship to Hamburg in two days.", token_ms=1))
    events = await collect()
    assert all(isinstance(e, llm.Delta) for e in events)
    assert len(events) == 8  # one per word: every chunk becomes one delta
    assert "".join(e.text for e in events) == "Yes, we ship to Hamburg in two days."
    assert fake_llm.requests[-1]["stream"] is True
    assert fake_llm.requests[-1]["messages"] == MESSAGES


async def test_a_tool_call_is_assembled_from_its_fragments(fake_llm):
    fake_llm.script.append(
        ToolCallReply(arguments={"reason": "wants a person"}, text="One moment.")
    )
    events = await collect(tools=[HANDOVER_TOOL])
    assert events[0] == llm.Delta("One moment.")
    assert events[-1] == llm.ToolCall("request_handover", {"reason": "wants a person"})
    assert fake_llm.requests[-1]["tools"][0]["function"]["name"] == "request_handover"


async def test_unicode_split_across_chunks_survives(fake_llm):
    fake_llm.script.append(Raw([chunk("Grüße "), chunk("aus Köln 🌧"), chunk("")]))
    assert "".join(e.text for e in await collect()) == "Grüße aus Köln 🌧"


async def test_server_errors_are_retried_then_unavailable(fake_llm):
    fake_llm.script.extend([Status(500), Status(500)])
    with pytest.raises(llm.ModelUnavailable):
        await collect()
    assert len(fake_llm.requests) == 2  # the SDK's retry (LLM_MAX_RETRIES = 1) still runs


async def test_retry_after_429_then_the_answer(fake_llm):
    fake_llm.script.extend([Status(429, retry_after=0), Reply("second try")])
    assert "".join(e.text for e in await collect()) == "second try"


async def test_no_response_headers_times_out(fake_llm, settings):
    settings.LLM_TIMEOUT_SECONDS = 0.5
    llm._client.cache_clear()
    fake_llm.script.extend([Hang(30), Hang(30)])
    with pytest.raises(llm.ModelUnavailable):
        await collect()


async def test_no_first_token_within_its_timeout(fake_llm, settings):
    settings.LLM_FIRST_TOKEN_TIMEOUT_SECONDS = 0.3
    fake_llm.script.append(Reply("too late", first_token_ms=3000))
    with pytest.raises(llm.ModelUnavailable):
        await collect()


async def test_a_first_token_inside_its_timeout_is_fine(fake_llm, settings):
    settings.LLM_FIRST_TOKEN_TIMEOUT_SECONDS = 1.0
    fake_llm.script.append(Reply("just in time", first_token_ms=100))
    assert "".join(e.text for e in await collect()) == "just in time"


async def test_a_stream_that_stalls_after_the_first_token(fake_llm, settings):
    settings.LLM_TIMEOUT_SECONDS = 0.5
    llm._client.cache_clear()
    fake_llm.script.append(Reply("one two three", token_ms=3000))
    got = []
    with pytest.raises(llm.ModelUnavailable):
        async for event in llm.stream_reply(messages=MESSAGES, model="fake"):
            got.append(event)
    assert got == [llm.Delta("one ")]  # what arrived was passed on before the stall


@pytest.mark.parametrize(
    "events",
    [
        [chunk("fine so far "), "{not json"],
        [chunk("fine so far "), json.dumps({"error": {"message": "overloaded"}})],
    ],
)
async def test_a_malformed_chunk_or_an_error_event_is_unavailable(fake_llm, events):
    fake_llm.script.append(Raw(events))
    with pytest.raises(llm.ModelUnavailable):
        await collect()


async def body(parts: list[bytes]):
    for part in parts:
        yield part


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
async def test_event_stream_parsing_at_every_split(newline):
    """SSE allows three line endings, several `data:` lines, comments and other fields;
    the network may cut the bytes anywhere."""
    nl = newline
    raw = (
        b": keep-alive"
        + nl
        + nl
        + b"event: message"
        + nl
        + b"data: "
        + chunk("a").encode()
        + nl
        + nl
        + b"data:"
        + chunk("b").encode()
        + nl
        + b"id: 7"
        + nl
        + nl
        + b'data: {"choices": [{"delta":'
        + nl
        + b'data: {"content": "c"}}]}'
        + nl
        + nl
        + b"data: [DONE]"
        + nl
        + nl
        + b"data: "
        + chunk("after done").encode()
        + nl
        + nl
    )
    for cut in range(1, len(raw)):
        got = [c async for c in llm.sse_chunks(body([raw[:cut], raw[cut:]]))]
        texts = [c["choices"][0]["delta"]["content"] for c in got]
        assert texts == ["a", "b", "c"], cut


async def test_answers_stream_over_aiohttp_with_one_client_per_event_loop(fake_llm):
    """The streamed answer's transport is aiohttp's (a third of httpx's CPU per answer,
    issue 30); its session belongs to one event loop, and closes when that loop ends."""
    from openai._vendor.httpx_aiohttp.transport import AiohttpTransport

    fake_llm.script.append(Reply("here", token_ms=1))
    assert "".join(e.text for e in await collect()) == "here"
    client = await llm.stream_client()
    assert client is await llm.stream_client()
    assert isinstance(client._client._transport, AiohttpTransport)

    async def elsewhere():
        other = await llm.stream_client()
        got = [e async for e in llm.stream_reply(messages=MESSAGES, model="fake")]
        return other, got, asyncio.get_running_loop()

    fake_llm.script.append(Reply("from another loop", token_ms=1))
    other, got, gone = await asyncio.to_thread(asyncio.run, elsewhere())
    assert other is not client
    assert "".join(e.text for e in got) == "from another loop"
    assert other._client._transport.client.closed  # asyncio.run shut its loop down
    assert gone not in llm._STREAMING  # its entry went with it (it refers to the loop)
    assert not client._client._transport.client.closed


async def test_a_connection_cut_mid_stream_is_unavailable(settings):
    """The model's server dies after the first event: what arrived is passed on, then the
    answer fails as ModelUnavailable (aiohttp's payload error mapped by the SDK's transport)."""

    async def dying(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        await reader.read(65536)  # the request's body
        event = f"data: {chunk('first ')}\n\n".encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
            b"transfer-encoding: chunked\r\n\r\n" + f"{len(event):x}\r\n".encode() + event + b"\r\n"
        )
        await writer.drain()
        writer.transport.abort()  # no last chunk: the body is cut

    server = await asyncio.start_server(dying, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    settings.OPENAI_BASE_URL = f"http://127.0.0.1:{port}/v1"
    settings.LLM_MAX_RETRIES = 0
    got = []
    try:
        with pytest.raises(llm.ModelUnavailable):
            async for event in llm.stream_reply(messages=MESSAGES, model="fake"):
                got.append(event)
    finally:
        server.close()
    assert got == [llm.Delta("first ")]


async def test_an_outbound_proxy_from_the_environment_carries_the_answer(settings, monkeypatch):
    """A shop behind an egress proxy (HTTP_PROXY) keeps its answers after the move to
    aiohttp: the request goes to the proxy, in absolute form. The model's address is a
    loopback port nothing listens on, so nothing leaves 127.0.0.0/8 either way."""
    seen: list[bytes] = []

    async def proxy(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        seen.append(head.split(b"\r\n")[0])
        length = int(
            next(
                v
                for k, _, v in (ln.partition(b": ") for ln in head.split(b"\r\n"))
                if k.lower() == b"content-length"
            )
        )
        await reader.readexactly(length)
        events = f"data: {chunk('via the proxy')}\n\ndata: [DONE]\n\n".encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
            + f"content-length: {len(events)}\r\n\r\n".encode()
            + events
        )
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(proxy, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    settings.OPENAI_BASE_URL = "http://127.0.0.2:9/v1"
    settings.LLM_MAX_RETRIES = 0
    try:
        got = await collect()
    finally:
        server.close()
    assert "".join(e.text for e in got) == "via the proxy"
    assert seen == [b"POST http://127.0.0.2:9/v1/chat/completions HTTP/1.1"]
