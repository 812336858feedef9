"""Deltas to the socket, coalesced: the first at once, then at most one frame per interval.

A model streams a token every few milliseconds; a websocket frame costs the server about as
much CPU as parsing the chunk that carried it (Channels, Daphne, autobahn, Twisted), and
the eye cannot tell 10 ms from 40 ms. So the first piece goes out as soon as it arrives
(time to the first token unchanged) and later pieces are joined into one frame per
`WS_DELTA_INTERVAL_MS` (default 40): an answer of 100 tokens is about a dozen frames instead
of a hundred. The widget appends delta texts, so it renders the same text.

A timer flushes what is pending when the model pauses, so a slow stream is never held back
for longer than the interval.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

Send = Callable[[dict], Awaitable[None]]


class DeltaCoalescer:
    """`await add(text)` for each piece, `await close()` at the end (flushes the rest).
    `frame(text)` builds the delta frame; interval 0 sends every piece as it comes."""

    def __init__(self, *, send: Send, frame: Callable[[str], dict], interval: float) -> None:
        self._send = send
        self._frame = frame
        self._interval = interval
        self._pending: list[str] = []
        self._last = -float("inf")  # loop time of the last frame sent
        self._timer: asyncio.TimerHandle | None = None
        self._flushing: asyncio.Task | None = None
        self._loop = asyncio.get_running_loop()
        self.frames = 0

    async def add(self, text: str) -> None:
        if not text:
            return
        now = self._loop.time()
        if not self._pending and now - self._last >= self._interval:
            await self._emit(text, now)
            return
        self._pending.append(text)
        if self._timer is None:
            self._timer = self._loop.call_at(self._last + self._interval, self._on_timer)

    async def close(self) -> None:
        """Send what is pending (in order, after a timer's flush in progress)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._flushing is not None:
            await self._flushing
        if self._pending:
            await self._emit(self._take(), self._loop.time())

    def _on_timer(self) -> None:
        self._timer = None
        if self._pending:
            # the frame counts as sent now, so a piece arriving before the task runs waits
            # for the next interval instead of overtaking it
            text = self._take()
            self._last = self._loop.time()
            self.frames += 1
            self._flushing = self._loop.create_task(self._send(self._frame(text)))

    def _take(self) -> str:
        text = "".join(self._pending)
        self._pending.clear()
        return text

    async def _emit(self, text: str, now: float) -> None:
        self._last = now
        self.frames += 1
        await self._send(self._frame(text))
