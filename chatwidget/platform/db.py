"""How the real-time path reaches the database."""

import asyncio
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection, transaction

_pool: ThreadPoolExecutor | None = None


def _db_pool() -> ThreadPoolExecutor:
    """The threads that run database work: DB_THREADS of them per process, each holding one
    connection (CONN_MAX_AGE), so the process never opens more connections than that and a
    burst queues here rather than at PostgreSQL's connection limit."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix="db")
    return _pool


def db_async(func: Callable) -> Callable:
    """`database_sync_to_async`, on a bounded thread pool where the database takes concurrent
    writers (PostgreSQL): one conversation's queries do not queue behind every other's on
    Channels' single database thread. SQLite serialises writers anyway, so there the calls
    stay on that one thread (and in-memory test databases stay consistent). Only database
    work goes here: every call is a thread hop."""
    if connection.vendor == "sqlite":
        return database_sync_to_async(func, thread_sensitive=True)
    return database_sync_to_async(func, thread_sensitive=False, executor=_db_pool())


@contextmanager
def relaxed_durability() -> Iterator[None]:
    """A transaction whose COMMIT does not wait for the write-ahead log to reach the disk
    (PostgreSQL `synchronous_commit = off`, this transaction only). For rows a crash may
    lose without harm - context traces, analytics counts - never for turns: a visitor's
    message is durable before its ack. Saves an fsync (milliseconds) per statement.
    Inside an outer transaction it changes nothing (that transaction decides)."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


# --- first-token work before bookkeeping (issue 30) ----------------------------------------------
# A visitor's turn hop (the turn, its context, the model request) is what the visitor waits
# for; an answer's store after its stream is not. Both hold the GIL while they run, so a
# store that runs beside a turn hop lengthens it. Stores wait while turn hops are in flight,
# at most STORE_YIELD_MAX seconds (a stream of turns never starves them).
STORE_YIELD_MAX = 0.05


class _Urgent:
    def __init__(self) -> None:
        self.count = 0
        self.idle = asyncio.Event()
        self.idle.set()


_URGENT: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Urgent] = weakref.WeakKeyDictionary()


def _urgent() -> _Urgent:
    loop = asyncio.get_running_loop()
    state = _URGENT.get(loop)
    if state is None:
        state = _URGENT[loop] = _Urgent()
    return state


@asynccontextmanager
async def urgent_hop() -> AsyncIterator[None]:
    """Around a hop the visitor waits for."""
    state = _urgent()
    state.count += 1
    state.idle.clear()
    try:
        yield
    finally:
        state.count -= 1
        if state.count == 0:
            state.idle.set()


async def urgent_hops_done() -> None:
    """Before a hop nobody waits for: the urgent ones in flight finish first."""
    state = _urgent()
    if state.count:
        try:
            async with asyncio.timeout(STORE_YIELD_MAX):
                await state.idle.wait()
        except TimeoutError:
            pass
