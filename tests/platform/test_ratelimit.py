"""Both rate limits of a visitor message counted together: in one pipeline on Redis, one
count per key elsewhere; the same limits either way."""

import pytest
from django.core.cache import caches

from chatwidget.platform.ratelimit import rate_limit_hit, rate_limits_hit


@pytest.fixture(params=["locmem", "redis"])
def cache_backend(request, settings):
    if request.param == "redis":
        if not settings.TEST_REDIS_URL:
            pytest.skip("needs Redis (TEST_REDIS_URL)")
        settings.CACHES = {
            "default": {
                "BACKEND": "django_redis.cache.RedisCache",
                "LOCATION": settings.TEST_REDIS_URL,
                "KEY_PREFIX": "test-ratelimit",
            }
        }
    caches["default"].clear()
    yield request.param
    caches["default"].clear()


def test_every_key_is_counted_and_any_over_its_limit_limits(cache_backend):
    hits = [("addr:10.0.0.1", "3/60"), ("sess:7", "2/60")]
    assert [rate_limits_hit(hits=hits) for _ in range(4)] == [False, False, True, True]
    # both keys were counted every time, the address included while the session was limited
    assert rate_limit_hit(key="addr:10.0.0.1", rate="5/60") is False  # 5th event: at the limit
    assert rate_limit_hit(key="addr:10.0.0.1", rate="5/60") is True
    assert rate_limit_hit(key="sess:7", rate="5/60") is False  # 5th


def test_counts_are_shared_with_the_single_key_counter(cache_backend):
    assert rate_limit_hit(key="sess:9", rate="2/60") is False
    assert rate_limits_hit(hits=[("sess:9", "2/60")]) is False
    assert rate_limits_hit(hits=[("sess:9", "2/60")]) is True


def test_a_window_expires(cache_backend):
    if cache_backend != "redis":
        pytest.skip("the expiry is Redis's own")
    rate_limits_hit(hits=[("addr:x", "1/60")])
    client = caches["default"].client.get_client()
    keys = client.keys("*rl:addr:x:*")
    assert len(keys) == 1 and 0 < client.ttl(keys[0]) <= 61
