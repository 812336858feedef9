"""Fixed-window rate limits in the shared cache (Redis in production)."""

import time

from django.core.cache import cache


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
