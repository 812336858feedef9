"""Owned cache keys (the answer lease): renewed and deleted only while they hold their
owner's token, on the local cache and on Redis (one round trip: a script)."""

import uuid

import pytest
from django.core.cache import cache, caches

from chatwidget.platform.owned import owned_release, owned_renew
from tests.conftest import redis_cache_use


@pytest.fixture(params=["locmem", "redis"])
def backend(request, settings):
    if request.param == "redis":
        redis_cache_use(settings, f"test-owned-{uuid.uuid4().hex}")
    return request.param


def test_only_the_owner_releases(backend):
    assert cache.add("lease:1", "me", timeout=30)
    assert owned_release("lease:1", "someone else") is False
    assert cache.get("lease:1") == "me"
    assert owned_release("lease:1", "me") is True
    assert cache.get("lease:1") is None
    assert owned_release("lease:1", "me") is False  # gone: nothing to release


def test_only_the_owner_renews(backend):
    assert cache.add("lease:2", "me", timeout=2)
    assert owned_renew("lease:2", "someone else", 60) is False
    assert owned_renew("lease:2", "me", 60) is True
    if backend == "redis":
        client = caches["default"].client
        ttl = client.get_client().ttl(client.make_key("lease:2"))
        assert 55 <= ttl <= 60
    cache.delete("lease:2")
    assert owned_renew("lease:2", "me", 60) is False  # expired or taken: not ours any more


def test_on_redis_one_round_trip_each(backend, monkeypatch):
    if backend != "redis":
        pytest.skip("Redis only")
    assert cache.add("lease:3", "me", timeout=30)
    calls = []
    redis_client = caches["default"].client.get_client(write=True)
    original = type(redis_client).execute_command

    def counted(self, *args, **kwargs):
        calls.append(args[0])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(type(redis_client), "execute_command", counted)
    assert owned_renew("lease:3", "me", 30) is True
    assert owned_release("lease:3", "me") is True
    assert calls == ["EVAL", "EVAL"]


def test_on_the_file_cache_one_of_many_racing_takers_gets_the_key(settings, tmp_path, monkeypatch):
    """The embedded default's cache is a folder that several processes share (the demo's
    worker has two): its own `add` checks, then writes, and both of the worker's processes
    once took the embedding lock and embedded the same chunks. The check is slowed here so
    that every taker passes it before any writes, as a race can."""
    import threading
    import time

    from django.core.cache.backends.filebased import FileBasedCache

    from chatwidget.platform.owned import owned_take

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    }
    checked = FileBasedCache.has_key

    def slow_check(self, *args, **kwargs):
        found = checked(self, *args, **kwargs)
        time.sleep(0.05)
        return found

    monkeypatch.setattr(FileBasedCache, "has_key", slow_check)
    start = threading.Barrier(6)
    won: list[str] = []

    def take(owner: str) -> None:
        start.wait()
        if owned_take("lock:embed", owner, 60):
            won.append(owner)

    threads = [threading.Thread(target=take, args=(f"run-{i}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1
    assert cache.get("lock:embed") == won[0]
