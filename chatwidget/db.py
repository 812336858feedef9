"""How the real-time path reaches the database."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from channels.db import database_sync_to_async
from django.db import connection, transaction


def db_async(func: Callable) -> Callable:
    """`database_sync_to_async`, on a thread pool where the database takes concurrent
    writers (PostgreSQL): one conversation's queries do not queue behind every other's on
    Channels' single database thread. SQLite serialises writers anyway, so there the calls
    stay on that one thread (and in-memory test databases stay consistent)."""
    return database_sync_to_async(func, thread_sensitive=connection.vendor == "sqlite")


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
