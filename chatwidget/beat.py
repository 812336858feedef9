"""Beat's heartbeat (issue 31): a hung beat silently stops the retention purge and the
condensation catch-up, and it serves no HTTP, so it writes a timestamp itself.

`HeartbeatScheduler` (CELERY_BEAT_SCHEDULER) is Celery's persistent scheduler that, on its
ticks, at least every BEAT_HEARTBEAT_SECONDS, writes the time to a file in the temporary
folder (for the liveness probe of its own container) and to the cache (for `/metrics` on any
web process). `python -m chatwidget.beat` is the probe: exit 1 when the file is older than
BEAT_HEARTBEAT_STALE_SECONDS or missing. It reads the environment only and sets up no Django:
a probe that runs every minute should be cheap.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from pathlib import Path

from celery.beat import PersistentScheduler
from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

CACHE_KEY = "beat:heartbeat"


def heartbeat_path() -> Path:
    return Path(tempfile.gettempdir()) / "chatwidget-beat-heartbeat"


def heartbeat_write(now: float | None = None) -> None:
    now = time.time() if now is None else now
    path = heartbeat_path()
    tmp = path.with_suffix(".tmp")
    tmp.write_text(f"{now:.3f}")
    tmp.replace(path)
    try:
        cache.set(CACHE_KEY, now, None)
    except Exception as exc:  # noqa: BLE001 - the cache down must not stop beat; the file counts
        log.warning("beat heartbeat not cached", extra={"error": type(exc).__name__})


class HeartbeatScheduler(PersistentScheduler):
    """Celery's default scheduler, plus the heartbeat; never sleeps longer than its interval."""

    _heartbeat_at = 0.0

    def tick(self, *args, **kwargs) -> float:
        interval = super().tick(*args, **kwargs)
        now = time.time()
        if now - self._heartbeat_at >= settings.BEAT_HEARTBEAT_SECONDS:
            heartbeat_write(now)
            self._heartbeat_at = now
        return min(interval, settings.BEAT_HEARTBEAT_SECONDS)


def heartbeat_age(now: float | None = None) -> float | None:
    """Seconds since beat's last heartbeat in this container, or None (never written)."""
    try:
        written = float(heartbeat_path().read_text())
    except (OSError, ValueError):
        return None
    return (time.time() if now is None else now) - written


def main() -> int:
    stale = float(os.environ.get("BEAT_HEARTBEAT_STALE_SECONDS") or 180)
    age = heartbeat_age()
    if age is None or age > stale:
        print(f"beat heartbeat stale: {age if age is None else round(age)} s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
