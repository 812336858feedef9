"""Limits on what one client can hold in a web process (issue 15): open sockets per address,
per IPv6 /64 and per process, and frames per socket.

Counted in the process's memory, not in Redis: exact (a killed process takes its counts
along, nothing leaks), free of round trips, and what they protect is the process's own
memory and CPU. With N web processes behind the proxy a client may hold N times the
per-process numbers. Settings (defaults in chatwidget/settings/base.py):
WS_MAX_SOCKETS_PER_ADDRESS, WS_MAX_SOCKETS_PER_NET64, WS_MAX_SOCKETS_PER_PROCESS,
WS_FRAME_RATE.

Also the size of the frames that carry stored turns (welcome, history): WS_HISTORY_FRAME_BYTES.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from django.conf import settings

from chatwidget.platform.client_address import address_key
from chatwidget.platform.ratelimit import parse_rate

# Close codes (RFC 6455 leaves 4000-4999 to applications). The widget reconnects with backoff
# after any close but CLOSE_IDLE, after which it reconnects when the visitor acts.
CLOSE_IDLE = 4000  # no frame for WS_IDLE_TIMEOUT_SECONDS: resume on the next action
CLOSE_HELLO_TIMEOUT = 4408  # no hello within WS_HELLO_TIMEOUT_SECONDS
CLOSE_TOO_MANY = 4429  # this address (or its /64, or the process) holds too many sockets


class SocketCounter:
    """Open sockets of this process by address and by /64. `acquire` returns the keys to
    `release` later, or None when a limit is reached. Entries at zero are deleted, so the
    memory follows the sockets held, not the addresses ever seen."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.total = 0

    def acquire(self, address: str) -> tuple[str, ...] | None:
        if self.total >= settings.WS_MAX_SOCKETS_PER_PROCESS:
            return None
        keys: tuple[str, ...] = (f"a:{address}",)
        if self.counts[keys[0]] >= settings.WS_MAX_SOCKETS_PER_ADDRESS:
            return None
        net = address_key(address)
        if net != address:
            keys += (f"n:{net}",)
            if self.counts[keys[1]] >= settings.WS_MAX_SOCKETS_PER_NET64:
                return None
        for key in keys:
            self.counts[key] += 1
        self.total += 1
        return keys

    def release(self, keys: tuple[str, ...]) -> None:
        for key in keys:
            self.counts[key] -= 1
            if self.counts[key] <= 0:
                del self.counts[key]
        self.total -= 1


SOCKETS = SocketCounter()


class FrameBucket:
    """A token bucket for one socket's inbound frames: WS_FRAME_RATE ("count/seconds"),
    bursts up to `count`. Every frame type counts (hello, profile, consent, ...): a socket
    cannot turn frames into database transactions faster than this."""

    __slots__ = ("capacity", "refill", "tokens", "updated")

    def __init__(self, rate: str) -> None:
        count, seconds = parse_rate(rate)
        self.capacity = float(count)
        self.refill = count / seconds
        self.tokens = float(count)
        self.updated = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.refill)
        self.updated = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SocketGuard:
    """One socket's limits: its place in SOCKETS, the hello deadline, the idle deadline and
    its frame bucket. Timers are loop callbacks (no task per socket).

    `close`: the consumer's close coroutine function; `greeted`: whether hello was answered;
    `busy`: whether an answer is on its way (a socket waiting for one is not idle)."""

    def __init__(self, *, address: str, close, greeted, busy) -> None:
        self.address = address
        self._close = close
        self._greeted = greeted
        self._busy = busy
        self._keys: tuple[str, ...] | None = None
        self._hello_timer = self._idle_timer = None
        self._closing = None
        self.bucket = FrameBucket(settings.WS_FRAME_RATE)
        self.last = time.monotonic()

    def admit(self) -> bool:
        """Take a place for this socket; False when the address, its /64 or the process holds
        too many. Starts the hello and idle deadlines."""
        self._keys = SOCKETS.acquire(self.address)
        if self._keys is None:
            return False
        loop = asyncio.get_running_loop()
        self._hello_timer = loop.call_later(settings.WS_HELLO_TIMEOUT_SECONDS, self._hello_due)
        self._idle_timer = loop.call_later(settings.WS_IDLE_TIMEOUT_SECONDS, self._idle_due)
        return True

    def frame(self) -> bool:
        """An inbound frame: activity; False when it is over the socket's rate."""
        self.last = time.monotonic()
        return self.bucket.take()

    def touch(self) -> None:
        """Outbound activity (an event for this conversation): not idle."""
        self.last = time.monotonic()

    def release(self) -> None:
        for timer in (self._hello_timer, self._idle_timer):
            if timer is not None:
                timer.cancel()
        self._hello_timer = self._idle_timer = None
        if self._keys is not None:
            SOCKETS.release(self._keys)
            self._keys = None

    def _hello_due(self) -> None:
        if not self._greeted():
            self._shut(CLOSE_HELLO_TIMEOUT)

    def _idle_due(self) -> None:
        idle = settings.WS_IDLE_TIMEOUT_SECONDS
        left = self.last + idle - time.monotonic()
        if left > 0 or self._busy():
            self._idle_timer = asyncio.get_running_loop().call_later(max(left, 1.0), self._idle_due)
            return
        self._shut(CLOSE_IDLE)

    def _shut(self, code: int) -> None:
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self._close(code=code))


# The envelope of a welcome or history frame around its turns: type, session token (at most
# 200 characters), state, flags. The turns get the rest of the budget.
FRAME_ENVELOPE_BYTES = 1024
MAX_OUTBOUND_FRAME_BYTES = 1024 * 1024 - 4096  # Daphne's (autobahn's) 1 MiB, with room


def history_turns_budget() -> int:
    """Bytes of JSON for the turns of one welcome or history frame (issue 25): a conversation
    of any length reopens, the newest turns first and the rest a page at a time. The frame
    stays below 1 MiB, the message limit of Daphne's websocket (autobahn) and of common
    clients (Python websockets' max_size), whatever WS_HISTORY_FRAME_BYTES says."""
    frame = min(settings.WS_HISTORY_FRAME_BYTES, MAX_OUTBOUND_FRAME_BYTES)
    return max(frame - FRAME_ENVELOPE_BYTES, 4096)
