"""How async code (consumers, the answer flow) reaches the ORM."""

from collections.abc import Callable

from channels.db import database_sync_to_async
from django.db import connection


def db_async(func: Callable) -> Callable:
    """`database_sync_to_async`, on a thread pool where the database takes concurrent
    writers (PostgreSQL): one conversation's queries do not queue behind every other's on
    Channels' single database thread. SQLite serialises writers anyway, so there the calls
    stay on that one thread (and in-memory test databases stay consistent)."""
    return database_sync_to_async(func, thread_sensitive=connection.vendor == "sqlite")
