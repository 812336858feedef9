"""Fixed-window rate limits in the shared cache (Redis in production)."""

import logging
import time

from django.core.cache import cache, caches
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

from chatwidget.platform import cache_keys

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


def rate_limits_hit(*, hits: list[tuple[str, str]], at: float | None = None) -> bool:
    """Count one event under each (key, rate); True when any limit is exceeded. On Redis
    every count goes in one round trip (a pipeline: SET NX EX, then INCR, per key); on other
    caches one `rate_limit_hit` per key. Every key is counted, limited or not."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return any([rate_limit_hit(key=key, rate=rate, at=at) for key, rate in hits])  # every key
    now = time.time() if at is None else at
    pipe = backend.client.get_client(write=True).pipeline(transaction=False)
    limits = []
    for key, rate in hits:
        limit, window = parse_rate(rate)
        bucket = backend.client.make_key(cache_keys.rate_bucket(key, int(now // window)))
        pipe.set(bucket, 0, ex=window + 1, nx=True)
        pipe.incr(bucket)
        limits.append(limit)
    counts = pipe.execute()[1::2]
    return any(count > limit for count, limit in zip(counts, limits, strict=True))


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
