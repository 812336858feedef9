"""Redis commands whose replies are read later (issue 30).

A turn's hop needs the visitor's rate limits a little later than their commands can go out:
the commands are sent at once and the replies read where they are needed, so the round trip
runs beside the hop's own work (the message's redaction) instead of before it. User:
`ratelimit.RateCount`. (The answer's lease was tried the same way, beside the context's
newest turns, and measured no faster: ARCHITECTURE.md.)
"""

from typing import Any

from django_redis.cache import RedisCache


class Later:
    """`commands` (tuples of a command's words) sent on one connection of the cache's own
    pool when the block is entered; `replies()` reads them, once. Sending or reading may
    raise redis-py's errors (RedisError, OSError); the caller decides what they mean. A
    block left before its replies were read (an exception) drops the connection: a socket
    with replies nobody will read never goes back to the pool."""

    def __init__(self, backend: RedisCache, commands: list[tuple]) -> None:
        self.backend = backend
        self.commands = commands
        self._pool: Any = None  # redis-py's ConnectionPool and Connection
        self._conn: Any = None
        self._replies: list | None = None

    def __enter__(self) -> "Later":
        self._pool = self.backend.client.get_client(write=True).connection_pool
        conn = self._pool.get_connection()
        try:
            conn.send_packed_command(conn.pack_commands(self.commands))
        except BaseException:
            conn.disconnect()
            self._pool.release(conn)
            raise
        self._conn = conn
        return self

    def replies(self) -> list:
        if self._replies is None:
            if self._conn is None:
                raise RuntimeError("the commands were not sent")
            try:
                replies = [self._conn.read_response() for _ in self.commands]
            except BaseException:
                self.close()
                raise
            self._pool.release(self._conn)
            self._conn = None
            self._replies = replies
        return self._replies

    def close(self) -> None:
        """Drop the connection if its replies are still unread."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.disconnect()
            self._pool.release(conn)

    def __exit__(self, *exc_info) -> None:
        self.close()
