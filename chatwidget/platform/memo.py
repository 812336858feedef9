"""A per-process memo in front of what every turn reads from the shared cache (issue 30).

A turn's hop read three per-site values from Redis - whether the site has knowledge, its
knowledge version, its shop actions - each a round trip in which the database thread lets
go of the GIL and then waits to get it back from a busy event loop. Here each is kept in
the process for `LOCAL_MEMO_SECONDS` (1 s by default; 0 turns the memo off): a change made
in this process is seen at once (its writer calls `forget`), one made in another process
within that second. Only values whose second of lag is harmless belong here.
"""

import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from django.conf import settings

T = TypeVar("T")
MAX_KEYS = 4096  # sites per memo and process; past it the memo starts again empty

_MEMOS: list["ProcessMemo"] = []


class ProcessMemo(Generic[T]):
    def __init__(self) -> None:
        self._kept: dict[Hashable, tuple[float, T]] = {}
        _MEMOS.append(self)

    def get(self, key: Hashable, load: Callable[[], T]) -> T:
        """The value kept for `key`, or `load()`'s, kept from now on."""
        seconds = settings.LOCAL_MEMO_SECONDS
        if seconds <= 0:
            return load()
        now = time.monotonic()
        found = self._kept.get(key)
        if found is not None and found[0] > now:
            return found[1]
        value = load()
        if len(self._kept) >= MAX_KEYS:
            self._kept.clear()
        self._kept[key] = (now + seconds, value)
        return value

    def forget(self, key: Hashable) -> None:
        """This process changed the value: the next `get` loads it."""
        self._kept.pop(key, None)


def memos_clear() -> None:
    """Tests: every memo empty (the shared cache is cleared between tests too)."""
    for memo in _MEMOS:
        memo._kept.clear()
