"""How the real-time path reaches the database."""

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

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
