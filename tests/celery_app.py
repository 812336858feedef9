"""The test process's Celery app (chatwidget.celery.app) pointed elsewhere for a while, and put
back exactly as it was."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

# What a test may change for a while and must give back: `tests/conftest.py` checks after
# every test that these read as before.
SETTINGS = ("broker_url", "broker_write_url", "task_default_queue", "task_always_eager")


def celery_settings() -> dict:
    """The raw values, not what `app.conf`'s properties compute from them: `broker_write_url`
    reads as `broker_url` while unset, and writing that computed value back pins it."""
    from chatwidget.celery import app

    return {key: app.conf.get(key) for key in SETTINGS}


@contextmanager
def publishing_to(url: str, **changes) -> Iterator[None]:
    """Tasks this process sends go to the broker at `url` (and `changes`, e.g.
    `task_default_queue`, apply) until the block ends; then the raw settings are put back and
    the connection and producer pools made for `url` are dropped.

    Putting back what the properties read (the old way) left `broker_write_url` pinned to the
    in-memory broker after the first test that used it: every later test in the process
    published there, and the continuation e-mail test's task never reached its worker (the
    leak the `isolated` marker used to work around)."""
    from chatwidget.celery import app

    before = celery_settings()

    def use(settings: dict) -> None:
        app.conf.update(settings)
        app._pool = None
        app.amqp._producer_pool = None

    use({"broker_url": url, "broker_write_url": url, **changes})
    try:
        yield
    finally:
        use(before)
