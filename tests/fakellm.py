"""A fake OpenAI-compatible chat-completions server on 127.0.0.1 (asyncio, stdlib only).

The one thing faked in the test suite is the language model, and only here, as an HTTP
server, so the real `openai` client path (streaming, retries, timeouts) runs.

    server = FakeLLM().start()          # in a background thread; server.base_url -> ".../v1"
    server.script.append(Reply("Hello"))  # next answers, in order; else `default`
    server.requests                      # every request body received (parsed JSON)

Run standalone for benchmarks: `python -m tests.fakellm --port 9100 --first-token-ms 300`
(`--no-record` keeps no request bodies, so memory stays flat under load).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Reply:
    text: str = "OK."
    first_token_ms: float = 0.0
    token_ms: float = 0.0
    chunk_words: int = 1


@dataclass
class Status:
    code: int = 500
    retry_after: float | None = None


@dataclass
class Hang:
    seconds: float = 3600.0


@dataclass
class ToolCallReply:
    name: str = "request_handover"
    arguments: dict = field(default_factory=dict)
    text: str = ""


@dataclass
class JsonReply:
    data: dict = field(default_factory=dict)


@dataclass
class Raw:
    """A 200 event stream of these `data:` payloads, sent verbatim (a malformed chunk, an
    error event), optionally after a pause."""

    events: list[str] = field(default_factory=list)
    first_token_ms: float = 0.0


Behaviour = Reply | Status | Hang | ToolCallReply | JsonReply | Raw


def _last_user_text(body: dict) -> str:
    for message in reversed(body.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content)
    return ""


def fake_embedding(text: str, dims: int = 64) -> list[float]:
    """A deterministic bag-of-words vector: texts sharing words are similar, as with a real
    embedding model, so fused rankings can be tested without one."""
    vector = [0.0] * dims
    for word in text.lower().split():
        word = "".join(ch for ch in word if ch.isalnum())
        if word:
            vector[zlib.crc32(word.encode()) % dims] += 1.0
    return vector


def fake_embeddings(body: dict) -> dict:
    """The `/v1/embeddings` answer (OpenAI's shape) for `body["input"]`."""
    inputs = body.get("input") or []
    inputs = [inputs] if isinstance(inputs, str) else inputs
    return {
        "object": "list",
        "model": body.get("model", "fake"),
        "data": [
            {"object": "embedding", "index": i, "embedding": fake_embedding(str(t))}
            for i, t in enumerate(inputs)
        ],
        "usage": {"prompt_tokens": 0, "total_tokens": 0},
    }


class FakeLLM:
    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        default: Callable[[dict], Behaviour] | None = None,
        record: bool = True,
    ) -> None:
        self.host = host
        self.record = record
        self.port = port
        self.script: list[Behaviour] = []
        self.requests: list[dict] = []
        self.default = default or (lambda body: Reply(f"You said: {_last_user_text(body)}"))
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._ready = threading.Event()
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def next_behaviour(self, body: dict) -> Behaviour:
        with self._lock:
            if self.record:
                self.requests.append(body)
            if self.script:
                return self.script.pop(0)
        return self.default(body)

    # --- the server ------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request_line = await reader.readline()
                if not request_line:
                    return
                headers = {}
                while True:
                    line = await reader.readline()
                    if line in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = line.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0"))
                raw = await reader.readexactly(length) if length else b""
                method, path, _ = request_line.decode("latin-1").split(" ", 2)
                if method == "POST" and path.rstrip("/").endswith("/embeddings"):
                    await self._send(writer, 200, fake_embeddings(json.loads(raw or b"{}")))
                    continue
                if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
                    await self._send(writer, 404, {"error": {"message": "not found"}})
                    continue
                body = json.loads(raw or b"{}")
                behaviour = self.next_behaviour(body)
                keep = await self._respond(writer, body, behaviour)
                if not keep:
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            try:
                writer.close()
            except Exception:
                pass

    async def _send(self, writer, status: int, data: dict, extra: dict | None = None) -> None:
        payload = json.dumps(data).encode()
        head = [
            f"HTTP/1.1 {status} X",
            "Content-Type: application/json",
            f"Content-Length: {len(payload)}",
        ]
        for k, v in (extra or {}).items():
            head.append(f"{k}: {v}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        await writer.drain()

    async def _respond(self, writer, body: dict, behaviour: Behaviour) -> bool:
        model = body.get("model", "fake")
        if isinstance(behaviour, Status):
            extra = (
                {"Retry-After": str(behaviour.retry_after)}
                if behaviour.retry_after is not None
                else {}
            )
            await self._send(
                writer,
                behaviour.code,
                {"error": {"message": "fake error", "type": "server_error"}},
                extra,
            )
            return True
        if isinstance(behaviour, Hang):
            await asyncio.sleep(behaviour.seconds)
            return False
        if not body.get("stream"):
            if isinstance(behaviour, JsonReply):
                content = json.dumps(behaviour.data)
            else:
                content = getattr(behaviour, "text", "")
            await self._send(
                writer,
                200,
                {
                    "id": "fake",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": content},
                        }
                    ],
                    "usage": {
                        "prompt_tokens": sum(
                            len(str(m.get("content", "")).split()) for m in body.get("messages", [])
                        ),
                        "completion_tokens": len(content.split()),
                        "total_tokens": 0,
                    },
                },
            )
            return True
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            b"Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n"
        )

        async def event(data: dict | str) -> None:
            text = data if isinstance(data, str) else json.dumps(data)
            chunk = f"data: {text}\n\n".encode()
            writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            await writer.drain()

        def chunk(delta: dict, finish: str | None = None) -> dict:
            return {
                "id": "fake",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }

        if isinstance(behaviour, Raw):
            await asyncio.sleep(behaviour.first_token_ms / 1000)
            for data in behaviour.events:
                await event(data)
        elif isinstance(behaviour, ToolCallReply):
            if behaviour.text:
                await event(chunk({"role": "assistant", "content": behaviour.text}))
            await event(
                chunk(
                    {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": behaviour.name, "arguments": ""},
                            }
                        ]
                    }
                )
            )
            await event(
                chunk(
                    {
                        "tool_calls": [
                            {"index": 0, "function": {"arguments": json.dumps(behaviour.arguments)}}
                        ]
                    }
                )
            )
            await event(chunk({}, "tool_calls"))
        else:
            reply = behaviour if isinstance(behaviour, Reply) else Reply(str(behaviour))
            if reply.first_token_ms:
                await asyncio.sleep(reply.first_token_ms / 1000)
            words = reply.text.split(" ")
            for i in range(0, len(words), reply.chunk_words):
                piece = " ".join(words[i : i + reply.chunk_words])
                if i + reply.chunk_words < len(words):
                    piece += " "
                await event(
                    chunk({"role": "assistant", "content": piece} if i == 0 else {"content": piece})
                )
                if reply.token_ms:
                    await asyncio.sleep(reply.token_ms / 1000)
            await event(chunk({}, "stop"))
        await event("[DONE]")
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        return True

    # --- running -----------------------------------------------------------------------------

    async def serve(self) -> None:
        self._server = await asyncio.start_server(self._handle, self.host, self.port, backlog=2048)
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        async with self._server:
            await self._server.serve_forever()

    def start(self) -> FakeLLM:
        def run() -> None:
            self._loop = asyncio.new_event_loop()
            self._done = threading.Event()
            try:
                self._loop.run_until_complete(self.serve())
            except asyncio.CancelledError:
                pass
            finally:  # let cancelled connection handlers finish before the loop goes
                pending = asyncio.all_tasks(self._loop)
                if pending:
                    self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
                self._loop.close()
                self._done.set()

        from tests.proccount import note

        note("fake-model")
        threading.Thread(target=run, daemon=True, name="fakellm").start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        """Close the server and cancel open connections (a hanging reply included)."""
        if not (self._loop and self._server) or self._loop.is_closed():
            return

        def shutdown() -> None:
            for task in asyncio.all_tasks(self._loop):
                task.cancel()

        try:
            self._loop.call_soon_threadsafe(shutdown)
        except RuntimeError:  # closed meanwhile
            return
        self._done.wait(10)


def schema_name(body: dict) -> str:
    """The name of the structured output a non-streamed call asks for ("" if none)."""
    return ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")


class GoLiveShop:
    """A shop model for the go-live check (issue 19), a function of the request body.

    - answers (streamed): a tiny reader of the context it was sent that answers the check's
      questions from it; `careless=True` asks back instead, asks for the card again and
      never hands over (a model that fails every rubric);
    - condensation (`condensed_core`): memory's deterministic condenser, through `mutate`
      when a test wants a model that drops something; `condense_status` fails the call;
    - grading (`golive_verdict`): pass unless the answer asks back or asks "again", quoting
      the answer's first sentence; `grader="liar"` quotes what the answer never said,
      `grader="broken"` replies with no JSON.
    """

    ARTICLE = r"\b[A-Z]{2,5}-\d{3,7}(?:-[A-Z0-9]{1,3})?\b"

    def __init__(
        self,
        *,
        careless: bool = False,
        grader: str = "honest",
        mutate: Callable[[dict], dict] | None = None,
        condense_status: int | None = None,
    ) -> None:
        self.careless, self.grader, self.mutate = careless, grader, mutate
        self.condense_status = condense_status

    def __call__(self, body: dict) -> Behaviour:
        kind = schema_name(body)
        if kind == "golive_verdict":
            return self.grade(json.loads(body["messages"][-1]["content"]))
        if not body.get("stream"):
            if self.condense_status:
                return Status(self.condense_status)
            from memory.core.extractive import core_extract

            payload = json.loads(body["messages"][-1]["content"])
            core = core_extract(previous=payload["previous_core"], turns=payload["turns"])
            return JsonReply(self.mutate(core) if self.mutate else core)
        return self.answer(body)

    def grade(self, payload: dict) -> Behaviour:
        answer = payload["answer"]
        if self.grader == "broken":
            return Reply("I think it passes.")
        quote = answer.split(". ")[0]
        if self.grader == "liar":
            quote = "an answer that was never given"
        bad = answer.rstrip().endswith("?") or "again" in answer.lower()
        return JsonReply(
            {
                "verdict": "fail" if bad else "pass",
                "evidence": quote,
                "reason": "It asks back." if bad else "It meets the criterion.",
            }
        )

    def answer(self, body: dict) -> Behaviour:
        messages = body["messages"]
        asked = messages[-1]["content"]
        question = asked.lower()
        context = "\n".join(m["content"] for m in messages[:-1])
        ids = list(dict.fromkeys(re.findall(self.ARTICLE, context)))
        if "person" in question:
            if self.careless:
                return Reply("I can help you with everything myself.")
            return ToolCallReply(arguments={"reason": "The visitor asked for a person."})
        if "card number" in question:
            return Reply(
                "Please type your card number again."
                if self.careless
                else "Thank you. Card details cannot be taken here; please use the checkout."
            )
        if "return order" in question:  # the shop completes it (a settled request)
            number = "".join(re.findall(r"\d{2}-\d{4}", asked)[:1])
            return Reply(f"The return label for order {number} has been sent by e-mail.")
        graded = ("second one", "xl", "remind me", "bright enough", "arrive")
        if self.careless and any(key in question for key in graded):
            return Reply("Which one do you mean?")
        if "second one" in question:
            return Reply(
                f"You mean {ids[1]}. Good choice." if len(ids) > 1 else "Which list do you mean?"
            )
        if "xl" in question:
            return Reply(
                "Yes, LS-1002 comes in XL too."
                if "LS-1002" in context
                else "Which product do you mean?"
            )
        if "remind me" in question:
            sizes = re.findall(r"size:? ([A-Z]{1,3})\b", context)
            return Reply(
                f"You asked for {ids[0]} in size {sizes[0] if sizes else '?'}."
                if ids
                else "I cannot tell."
            )
        if "bright enough" in question:
            return Reply(
                "For the office, not the small flat as first said: yes, DL-400-W is bright enough."
                if "office" in context
                else "For the small flat it is bright enough."
            )
        if "arrive" in question:
            return Reply("The kurta KU-2291-M arrives in two to three working days.")
        return Reply("Thank you, noted. Delivery takes two to three working days.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=9100)
    parser.add_argument("--first-token-ms", type=float, default=300)
    parser.add_argument("--token-ms", type=float, default=10)
    parser.add_argument("--words", type=int, default=30)
    parser.add_argument(
        "--no-record", action="store_true", help="do not keep request bodies (long benchmark runs)"
    )
    args = parser.parse_args()
    text = " ".join(["word"] * args.words)
    server = FakeLLM(
        port=args.port,
        record=not args.no_record,
        default=lambda body: Reply(
            text, first_token_ms=args.first_token_ms, token_ms=args.token_ms
        ),
    )
    print(f"fake LLM on {server.base_url}", flush=True)
    asyncio.run(server.serve())


if __name__ == "__main__":
    main()
