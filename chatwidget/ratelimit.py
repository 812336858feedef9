"""Fixed-window rate limits in the shared cache (Redis in production)."""

import logging
import time

from django.core.cache import cache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


def parse_rate(rate: str) -> tuple[int, int]:
    count, _, seconds = rate.partition("/")
    return int(count), int(seconds or 60)


def rate_limit_hit(*, key: str, rate: str) -> bool:
    """Count one event under `key`; True when the limit is exceeded."""
    limit, window = parse_rate(rate)
    bucket = f"rl:{key}:{int(time.time() // window)}"
    try:
        count = cache.incr(bucket)  # the common case: one round trip
    except ValueError:  # first event of this window
        if cache.add(bucket, 1, timeout=window + 1):
            count = 1
        else:  # another process created it meanwhile
            count = cache.incr(bucket)
    return count > limit


def rate_limit_hit_fail_open(*, key: str, rate: str) -> bool:
    """`rate_limit_hit` that counts nothing while the cache (Redis) is unreachable: a short
    outage must not stop every conversation."""
    try:
        return rate_limit_hit(key=key, rate=rate)
    except (ConnectionInterrupted, RedisError, OSError) as exc:
        log.warning("cache unavailable", extra={"at": "rate_limit", "error": type(exc).__name__})
        return False
