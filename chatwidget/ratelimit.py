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
    cache.add(bucket, 0, timeout=window + 1)
    try:
        count = cache.incr(bucket)
    except ValueError:  # expired between add and incr
        cache.set(bucket, 1, timeout=window + 1)
        count = 1
    return count > limit
