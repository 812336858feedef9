"""A visitor, in process: the widget's side of the websocket protocol (DESIGN.md), spoken to
the same ASGI application and consumer a real visitor reaches, with an Origin of the site.

Nothing here knows about the pipeline's internals: it sends frames, reads frames and times
them. That is the point of the go-live check: what a visitor experiences is what is checked.
"""

import asyncio
import json
import time
import uuid
from dataclasses import dataclass, field

from channels.testing import WebsocketCommunicator

from chatwidget.platform.frames import (
    ErrorCode,
    FrameType,
    handover_request_frame,
    hello_frame,
    visitor_message_frame,
)

# The client address the check's sockets present. Rate limits count per address, so the
# check never shares a bucket with real visitors.
CLIENT = ("golive-check", 0)
RATE_LIMIT_WAIT_S = 5.0
RATE_LIMIT_TRIES = 15


class ProtocolFailure(Exception):
    """The server answered in a way the protocol does not allow (or not at all)."""


@dataclass
class Exchange:
    """One visitor message and what came back."""

    text: str
    seq: int | None = None  # the visitor turn's seq (from the ack)
    answer: str | None = None
    answer_seq: int | None = None
    ttft_ms: int | None = None  # message sent -> first streamed part of the answer
    total_ms: int | None = None
    error: str | None = None  # an error code from the server, or "timeout"
    states: list[str] = field(default_factory=list)  # state frames seen meanwhile
    deltas: int = 0


class Visitor:
    """One browser tab. `open()` says hello; `say()` sends a message and waits for the
    complete answer; `close()` leaves the page."""

    def __init__(
        self, *, application, site_key: str, origin: str, answer_timeout_s: float = 90.0
    ) -> None:
        self.application = application
        self.site_key = site_key
        self.origin = origin
        self.answer_timeout_s = answer_timeout_s
        self.session: str | None = None
        self.comm: WebsocketCommunicator | None = None

    async def open(self, *, session: str | None = None, last_seq: int | None = None) -> dict:
        self.comm = WebsocketCommunicator(
            self.application,
            f"/ws/chat/{self.site_key}/",
            headers=[(b"origin", self.origin.encode())],
        )
        self.comm.scope["client"] = CLIENT
        connected, _ = await self.comm.connect(timeout=10)
        if not connected:
            raise ProtocolFailure("the websocket was refused")
        welcome = await self.hello(session=session or self.session, last_seq=last_seq)
        if welcome.get("session"):
            self.session = welcome["session"]
        return welcome

    async def hello(self, *, session: str | None, last_seq: int | None = None) -> dict:
        await self._send(hello_frame(session=session, last_seq=last_seq))
        frame = await self._recv(10)
        if frame.get("type") != FrameType.WELCOME:
            raise ProtocolFailure(
                f"expected welcome, got {frame.get('type')}: {frame.get('code', '')}"
            )
        return frame

    async def say(self, text: str, *, expect_answer: bool = True, quiet_s: float = 2.0) -> Exchange:
        """Send a message; wait for its ack and (with `expect_answer`) for the complete
        answer. Without, listen `quiet_s` seconds and record whatever arrives."""
        ex = Exchange(text=text)
        client_id = uuid.uuid4().hex[:16]
        started = time.monotonic()
        for _ in range(RATE_LIMIT_TRIES):
            started = time.monotonic()
            await self._send(visitor_message_frame(client_id=client_id, text=text))
            ack = await self._until_ack(client_id, ex)
            if ack is not None:
                break
            if ex.error != ErrorCode.RATE_LIMITED:
                return ex
            ex.error = None
            await asyncio.sleep(RATE_LIMIT_WAIT_S)  # as a visitor would: wait, then resend
        else:
            ex.error = "rate_limited"
            return ex
        ex.seq = ack["seq"]
        self.session = ack.get("session") or self.session
        deadline = started + (self.answer_timeout_s if expect_answer else quiet_s)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                handed_over = any(state != "bot" for state in ex.states)
                if expect_answer and not handed_over:
                    ex.error = ex.error or "timeout"
                return ex
            try:
                frame = await self._recv(remaining)
            except TimeoutError:
                continue
            kind = frame.get("type")
            now_ms = int((time.monotonic() - started) * 1000)
            if kind == FrameType.DELTA:
                ex.deltas += 1
                if ex.ttft_ms is None:
                    ex.ttft_ms = now_ms
            elif kind == FrameType.MESSAGE and frame.get("role") == "assistant":
                ex.answer, ex.answer_seq, ex.total_ms = frame["text"], frame["seq"], now_ms
                if ex.ttft_ms is None:
                    ex.ttft_ms = now_ms
                if expect_answer:
                    return ex
            elif kind == FrameType.STATE:
                ex.states.append(frame["state"])
                if frame["state"] != "bot" and expect_answer:
                    # a handover (the model's tool): an answer text may still follow
                    deadline = min(deadline, time.monotonic() + quiet_s)
            elif kind == FrameType.ERROR and frame.get("id") in (client_id, None):
                ex.error = frame.get("code", "error")
                if expect_answer:
                    return ex

    async def handover(self, reason: str, *, timeout_s: float = 30.0) -> str | None:
        """The visitor asks for a person; returns the state the server moved to."""
        await self._send(handover_request_frame(reason=reason))
        deadline = time.monotonic() + timeout_s
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                frame = await self._recv(remaining)
            except TimeoutError:
                break
            if frame.get("type") == FrameType.STATE:
                return frame["state"]
        return None

    async def close(self) -> None:
        if self.comm is not None:
            await self.comm.disconnect()
            self.comm = None

    async def _until_ack(self, client_id: str, ex: Exchange) -> dict | None:
        while True:
            frame = await self._recv(30)
            if frame.get("type") == FrameType.ACK and frame.get("id") == client_id:
                return frame
            if frame.get("type") == FrameType.ERROR and frame.get("id") == client_id:
                ex.error = frame.get("code", "error")
                return None

    async def _send(self, frame: dict) -> None:
        await self.comm.send_to(text_data=json.dumps(frame))

    async def _recv(self, wait_s: float) -> dict:
        """The next frame. Waits on the communicator's queue directly: its own
        `receive_from` cancels the application on a timeout, and a quiet wait must not end
        the visitor's socket."""
        try:
            message = await asyncio.wait_for(self.comm.output_queue.get(), wait_s)
        except TimeoutError:
            if self.comm.future.done():
                self.comm.future.result()  # the consumer failed: raise its error
            raise
        if message.get("type") != "websocket.send":
            raise ProtocolFailure(f"the socket closed ({message.get('code')})")
        return json.loads(message["text"])
