"""Cache keys that hold their owner's token (the answer lease): renewed or deleted only while
they are still the owner's. On Redis one round trip each (a script compares and acts, so no
other process can take the key between the check and the act); elsewhere a read, then the
act (the file and local-memory caches serve one machine, where that gap does not matter).

Taking a key is atomic everywhere: Redis's SET NX; the file cache (the embedded default, one
machine, several processes) under an OS lock, because its `add` is a check, then a write."""

import fcntl
import os
from contextlib import contextmanager

from django.core.cache import cache, caches
from django.core.cache.backends.filebased import FileBasedCache
from django_redis.cache import RedisCache

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) end
return 0
"""


def _redis():
    backend = caches["default"]
    return backend if isinstance(backend, RedisCache) else None


def owned_take(key: str, owner: str, seconds: float) -> bool:
    """Set `key` to `owner` for `seconds` unless it is set; True when this call set it. Two
    processes racing for one key: exactly one gets True (the file cache's own `add` let both
    of the demo worker's processes embed the same chunks)."""
    with _machine_lock():
        return bool(cache.add(key, owner, timeout=seconds))


@contextmanager
def _machine_lock():
    backend = caches["default"]
    if not isinstance(backend, FileBasedCache):
        yield  # Redis: SET NX is atomic; local memory: one process
        return
    os.makedirs(backend._dir, exist_ok=True)
    fd = os.open(os.path.join(backend._dir, ".owned.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def owned_release(key: str, owner: str) -> bool:
    """Delete `key` if it holds `owner`; True when it did."""
    backend = _redis()
    if backend is None:
        if cache.get(key) != owner:
            return False
        cache.delete(key)
        return True
    client = backend.client
    found = client.get_client(write=True).eval(
        _RELEASE, 1, client.make_key(key), client.encode(owner)
    )
    return bool(found)


def owned_renew(key: str, owner: str, seconds: int) -> bool:
    """Give `key` `seconds` more if it holds `owner`; False once it expired or is another's."""
    backend = _redis()
    if backend is None:
        if cache.get(key) != owner:
            return False
        return bool(cache.touch(key, seconds))
    client = backend.client
    found = client.get_client(write=True).eval(
        _RENEW, 1, client.make_key(key), client.encode(owner), int(seconds)
    )
    return bool(found)
