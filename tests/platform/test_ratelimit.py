"""Both rate limits of a visitor message counted together: in one pipeline on Redis, one
count per key elsewhere; the same limits either way. `RateCount` sends the counts and reads
their answer later (the round trip beside the message's redaction)."""

import socket
import threading
import time

import pytest
from django.core.cache import caches

from chatwidget.platform.ratelimit import (
    RateCount,
    rate_limit_hit,
    rate_limits_hit,
    rate_limits_refund_fail_open,
)
from tests.conftest import redis_cache_use


@pytest.fixture(params=["locmem", "redis"])
def cache_backend(request, settings):
    if request.param == "redis":
        redis_cache_use(settings, "test-ratelimit")
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


def test_a_refund_takes_back_one_count_in_the_same_windows(cache_backend):
    hits = [("addr:10.0.0.2", "3/60"), ("sess:8", "2/60")]
    at = time.time()
    for _ in range(5):  # resends that cost nothing: counted, then taken back
        assert rate_limits_hit(hits=hits, at=at) is False
        rate_limits_refund_fail_open(hits=hits, at=at)
    assert [rate_limits_hit(hits=hits, at=at) for _ in range(3)] == [False, False, True]
    assert rate_limit_hit(key="addr:10.0.0.2", rate="3/60", at=at) is True, "4 counted"


def test_a_refund_in_a_window_that_is_gone_leaves_it_alone(cache_backend):
    past = time.time() - 3600
    rate_limits_refund_fail_open(hits=[("sess:6", "2/60")], at=past)  # no negative count
    assert [rate_limits_hit(hits=[("sess:6", "2/60")], at=past) for _ in range(3)] == [
        False,
        False,
        True,
    ]


def test_a_count_read_later_counts_as_the_pipeline_does(cache_backend):
    hits = [("addr:10.0.0.3", "3/60"), ("sess:5", "2/60")]
    answers = []
    for _ in range(4):
        with RateCount(hits=hits) as counted:
            answers.append(counted.limited())
            assert counted.limited() is answers[-1], "read once, answered again"
    assert answers == [False, False, True, True]
    assert rate_limits_hit(hits=[("sess:5", "5/60")]) is False, "4 counted, then the 5th"
    assert rate_limits_hit(hits=[("sess:5", "5/60")]) is True


def test_a_count_left_unread_stands_and_leaves_no_reply_on_a_pooled_socket(cache_backend):
    hits = [("sess:4", "2/60")]
    with pytest.raises(RuntimeError), RateCount(hits=hits):
        raise RuntimeError("the caller failed before reading")  # e.g. the redaction
    # the count was made; the next commands on the pool read their own replies, not it
    assert rate_limits_hit(hits=hits) is False
    assert rate_limits_hit(hits=hits) is True
    assert caches["default"].get("unrelated") is None
    caches["default"].set("unrelated", 7)
    assert caches["default"].get("unrelated") == 7


def test_a_count_fails_open_while_redis_is_away(settings, caplog):
    # a closed port on this machine: nothing listens, the connection is refused
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5},
        }
    }
    with RateCount(hits=[("sess:3", "1/60")]) as counted:
        assert counted.limited() is False
    assert "cache unavailable" in caplog.text


def test_a_count_whose_answer_never_comes_fails_open(settings, caplog):
    """A Redis that takes the counts and hangs (here a socket on this machine that reads
    and never answers): the read times out, the turn goes on unlimited, and the connection
    goes back to the pool closed, not with a reply still owed."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []

    def accept() -> None:
        conn, _ = server.accept()
        held.append(conn)
        while conn.recv(65536):
            pass

    threading.Thread(target=accept, daemon=True).start()
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{server.getsockname()[1]}/0",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.3},
        }
    }
    try:
        with RateCount(hits=[("sess:2", "1/60")]) as counted:
            assert counted.limited() is False, "fail open, as while Redis is away"
        pool = caches["default"].client.get_client(write=True).connection_pool
        assert all(c._sock is None for c in pool._available_connections), "none owing a reply"
        assert "cache unavailable" in caplog.text
    finally:
        for conn in held:
            conn.close()
        server.close()
