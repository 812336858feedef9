"""Fixed-window rate limits in the shared cache (Redis in production)."""

import logging
import time

from django.core.cache import cache, caches
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

from chatwidget.platform import cache_keys
from chatwidget.platform.redis_later import Later

log = logging.getLogger(__name__)


def parse_rate(rate: str) -> tuple[int, int]:
    count, _, seconds = rate.partition("/")
    return int(count), int(seconds or 60)


def rate_limit_hit(*, key: str, rate: str, at: float | None = None) -> bool:
    """Count one event under `key`; True when the limit is exceeded. `at`: the event's time
    (time.time(); now when None)."""
    limit, window = parse_rate(rate)
    bucket = cache_keys.rate_bucket(key, int((time.time() if at is None else at) // window))
    try:
        count = cache.incr(bucket)  # the common case: one round trip
    except ValueError:  # first event of this window
        if cache.add(bucket, 1, timeout=window + 1):
            count = 1
        else:  # another process created it meanwhile
            count = cache.incr(bucket)
    return count > limit


def _redis_counts(
    backend: RedisCache, hits: list[tuple[str, str]], now: float
) -> tuple[list[tuple], list[int]]:
    """The commands that count one event under each (key, rate) on Redis (SET NX EX, then
    INCR, per key: the INCRs' replies are the counts) and each key's limit."""
    commands: list[tuple] = []
    limits = []
    for key, rate in hits:
        limit, window = parse_rate(rate)
        bucket = backend.client.make_key(cache_keys.rate_bucket(key, int(now // window)))
        commands += [("SET", bucket, 0, "EX", window + 1, "NX"), ("INCR", bucket)]
        limits.append(limit)
    return commands, limits


def _over(replies: list, limits: list[int]) -> bool:
    return any(int(count) > limit for count, limit in zip(replies[1::2], limits, strict=True))


def rate_limits_hit(*, hits: list[tuple[str, str]], at: float | None = None) -> bool:
    """Count one event under each (key, rate); True when any limit is exceeded. On Redis
    every count goes in one round trip (a pipeline); on other caches one `rate_limit_hit`
    per key. Every key is counted, limited or not."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return any([rate_limit_hit(key=key, rate=rate, at=at) for key, rate in hits])  # every key
    commands, limits = _redis_counts(backend, hits, time.time() if at is None else at)
    pipe = backend.client.get_client(write=True).pipeline(transaction=False)
    for command in commands:
        pipe.execute_command(*command)
    return _over(pipe.execute(), limits)


class RateCount:
    """`rate_limits_hit_fail_open` in two halves: entering the block counts (on Redis the
    commands go out without waiting for their replies, `redis_later.Later`), `limited()`
    reads the answer. The round trip runs beside whatever the caller does in between: a
    visitor's message is redacted meanwhile (chatwidget.assistant.turns), so the limits no
    longer add a round trip before the model request (issue 30). Elsewhere the count is
    made on entering. The counts stand whether or not their answer is read."""

    def __init__(self, *, hits: list[tuple[str, str]], at: float | None = None) -> None:
        self.hits = hits
        self.at = time.time() if at is None else at
        self._limits: list[int] = []
        self._later: Later | None = None
        self._limited: bool | None = None

    def __enter__(self) -> "RateCount":
        backend = caches["default"]
        if not isinstance(backend, RedisCache):
            self._limited = rate_limits_hit_fail_open(hits=self.hits, at=self.at)
            return self
        commands, self._limits = _redis_counts(backend, self.hits, self.at)
        try:
            self._later = Later(backend, commands).__enter__()
        except (ConnectionInterrupted, RedisError, OSError) as exc:
            self._failed(exc)
        return self

    def limited(self) -> bool:
        """True when any limit is exceeded; False while the cache is away (fail open)."""
        if self._limited is None and self._later is not None:
            try:
                self._limited = _over(self._later.replies(), self._limits)
            except (RedisError, OSError) as exc:
                self._failed(exc)
        return bool(self._limited)

    def __exit__(self, *exc_info) -> None:
        if self._later is not None:
            self._later.close()

    def _failed(self, exc: Exception) -> None:
        log.warning("cache unavailable", extra={"at": "rate_limit", "error": type(exc).__name__})
        self._limited = False


def rate_limits_hit_fail_open(*, hits: list[tuple[str, str]], at: float | None = None) -> bool:
    """`rate_limits_hit` that counts nothing while the cache (Redis) is unreachable."""
    try:
        return rate_limits_hit(hits=hits, at=at)
    except (ConnectionInterrupted, RedisError, OSError) as exc:
        log.warning("cache unavailable", extra={"at": "rate_limit", "error": type(exc).__name__})
        return False


def rate_limit_hit_fail_open(*, key: str, rate: str) -> bool:
    """`rate_limit_hit` that counts nothing while the cache (Redis) is unreachable: a short
    outage must not stop every conversation."""
    try:
        return rate_limit_hit(key=key, rate=rate)
    except (ConnectionInterrupted, RedisError, OSError) as exc:
        log.warning("cache unavailable", extra={"at": "rate_limit", "error": type(exc).__name__})
        return False


def rate_limits_refund_fail_open(*, hits: list[tuple[str, str]], at: float) -> None:
    """Take back one event counted by `rate_limits_hit(hits=hits, at=at)`: it turned out to
    cost nothing (a resend of a message already stored, or one the database refused, so the
    widget sends it again). The same windows as the count, so a refund never lowers the next
    window's; a window already gone is left alone (DECR only where the key exists)."""
    try:
        for key, rate in hits:
            _limit, window = parse_rate(rate)
            try:
                cache.decr(cache_keys.rate_bucket(key, int(at // window)))
            except ValueError:  # the window expired meanwhile: nothing to take back
                continue
    except (ConnectionInterrupted, RedisError, OSError) as exc:
        log.warning("cache unavailable", extra={"at": "rate_refund", "error": type(exc).__name__})
