"""`GET /metrics`: Prometheus text for this process (issue 31; deploy/README.md, "What to
watch").

Protected twice: off (404) unless METRICS_TOKEN is set, and then only with
`Authorization: Bearer <METRICS_TOKEN>`; the proxies in deploy/ refuse `/metrics` from
outside, so Prometheus scrapes each process by its address (a pod's IP, `127.0.0.1:800N`).
Answered by `MetricsMiddleware`, second in MIDDLEWARE (after the probes' middleware), before
the ALLOWED_HOSTS check and the https redirect: a scraper reaching a process by its address
needs no Host header.

Counted in this process (chatwidget/platform/metrics.py): answers, model errors, the first
token's latency. Read at scrape time from shared state, so any web process reports them:
open sockets (this process), the dependencies every process shares (broker, cache), the
task queue's depth, conversations whose condensation lags, the last retention purge and
beat's heartbeat. Each read is bounded (2 s) and a failed one leaves its figure out.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable, Iterator

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from kombu.exceptions import ChannelError
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from chatwidget import beat
from chatwidget.celery import app
from chatwidget.health import SHARED_CHECKS, dependencies_check
from chatwidget.widget.limits import SOCKETS
from memory.condense.scheduling import conversation_ids_lagging

log = logging.getLogger(__name__)

METRICS_PATH = "/metrics"
PURGE_CACHE_KEY = "purge:last_run"
TIMEOUT_SECONDS = 2.0


def purge_ran(now: float | None = None) -> None:
    """The retention purge finished a run (chatwidget/tasks.py)."""
    cache.set(PURGE_CACHE_KEY, time.time() if now is None else now, None)


def _queue_depth() -> int:
    queue = app.conf.task_default_queue or "celery"
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=0, timeout=TIMEOUT_SECONDS)
        try:
            return conn.default_channel.queue_declare(queue=queue, passive=True).message_count
        except ChannelError:  # no worker has declared it yet: nothing waits in it
            return 0


class SharedStateCollector(Collector):
    """Figures read when Prometheus asks, from what every process shares."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily(
            "chatwidget_open_sockets", "Visitor websockets open in this process.", SOCKETS.total
        )
        up = GaugeMetricFamily(
            "chatwidget_dependency_up",
            "1 when a dependency every process shares answers (broker, cache).",
            labels=["dependency"],
        )
        for name, result in dependencies_check(SHARED_CHECKS).items():
            up.add_metric([name], 1.0 if result == "ok" else 0.0)
        yield up
        yield from self._optional(
            "chatwidget_task_queue_depth", "Tasks waiting in the broker's queue.", _queue_depth
        )
        yield from self._optional(
            "chatwidget_condensation_lagging_conversations",
            "Recent conversations whose condensation is behind (capped at 1000).",
            lambda: len(conversation_ids_lagging(limit=1000)),
        )
        yield from self._optional(
            "chatwidget_purge_last_run_timestamp_seconds",
            "When the retention purge last finished a run (Unix time).",
            lambda: cache.get(PURGE_CACHE_KEY),
        )
        yield from self._optional(
            "chatwidget_beat_heartbeat_timestamp_seconds",
            "When beat last wrote its heartbeat (Unix time).",
            lambda: cache.get(beat.CACHE_KEY),
        )

    @staticmethod
    def _optional(name: str, documentation: str, read) -> Iterator[GaugeMetricFamily]:
        try:
            value = read()
        except Exception as exc:  # noqa: BLE001 - a failed read leaves the figure out
            log.warning("metric not read", extra={"metric": name, "error": type(exc).__name__})
            return
        if value is not None:
            yield GaugeMetricFamily(name, documentation, float(value))


_SHARED = CollectorRegistry(auto_describe=False)
_SHARED.register(SharedStateCollector())


def metrics_response(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    if not token:
        return HttpResponse(status=404)
    given = request.headers.get("Authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return HttpResponse(status=401, headers={"WWW-Authenticate": "Bearer"})
    body = generate_latest(REGISTRY) + generate_latest(_SHARED)
    response = HttpResponse(body, content_type="text/plain; version=0.0.4; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


class MetricsMiddleware:
    """Answers GET /metrics; place it right after HealthCheckMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and request.path_info == METRICS_PATH:
            return metrics_response(request)
        return self.get_response(request)
