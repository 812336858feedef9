"""Liveness and readiness, answered before anything else in the middleware chain.

Probes (the kubelet, Docker's HEALTHCHECK, a load balancer) reach a process by its address
and send whatever Host header they have. `HealthCheckMiddleware` sits FIRST in MIDDLEWARE, so
`/healthz` and `/readyz` are answered before Django validates the host against ALLOWED_HOSTS
(which happens lazily, on `request.get_host()`, in later middleware and views) and before the
https redirect: probes need neither a configured Host header nor `X-Forwarded-Proto`.

- `/healthz` (liveness): the process answers. No dependency is asked, so a database outage
  never makes an orchestrator restart every web process.
- `/readyz` (readiness): what this process needs to serve a visitor: the database and the
  channel layer (Redis in production: every tab of a conversation, across processes), each by
  name. 200 when both answer, else 503. A failed check is reported by its exception's type
  only: no host names, no passwords from URLs, no message text.

Not in readiness (issue 31), because every pod shares them and one blip would take every pod
out of the load balancer at once, while the service still answers: the Celery broker
(condensation and e-mail wait or run inline: deploy/README.md, "When something goes away")
and the cache (rate limits fail open). `/metrics` reports both (`chatwidget_dependency_up`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from chatwidget.celery import app
from chatwidget.platform import cache_keys

log = logging.getLogger(__name__)

CHECK_TIMEOUT_SECONDS = 2.0
LIVENESS_PATH = "/healthz"
READINESS_PATH = "/readyz"


class CheckFailed(Exception):
    """A dependency answered, but not as it should (e.g. the cache lost what it was given)."""


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise CheckFailed


def _check_cache() -> None:
    key = cache_keys.readiness_probe(secrets.token_hex(8))
    cache.set(key, "1", 5)
    try:
        if cache.get(key) != "1":
            raise CheckFailed
    finally:
        cache.delete(key)


def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise CheckFailed

    async def ping() -> None:
        # A group send to a group nobody joined: one round trip to Redis, nothing stored.
        await asyncio.wait_for(
            layer.group_send("health.readyz", {"type": "health.ping"}), CHECK_TIMEOUT_SECONDS
        )

    async_to_sync(ping)()


def _check_broker() -> None:
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=0, timeout=CHECK_TIMEOUT_SECONDS)


# What readiness asks: this process's own ability to serve.
CHECKS: dict[str, Callable[[], None]] = {
    "database": _check_database,
    "channel_layer": _check_channel_layer,
}
# Shared by every process: reported by /metrics, never a reason to leave the load balancer.
SHARED_CHECKS: dict[str, Callable[[], None]] = {"cache": _check_cache, "broker": _check_broker}


def dependencies_check(checks: dict[str, Callable[[], None]] | None = None) -> dict[str, str]:
    """Ask each dependency once: {"database": "ok", "channel_layer": "ConnectionError"}."""
    results: dict[str, str] = {}
    for name, check in (CHECKS if checks is None else checks).items():
        try:
            check()
        except Exception as exc:  # noqa: BLE001 - any failure of a dependency is "not ready", by name
            results[name] = type(exc).__name__
            log.warning(
                "readiness check failed", extra={"dependency": name, "error": type(exc).__name__}
            )
        else:
            results[name] = "ok"
    return results


def liveness_response() -> HttpResponse:
    return _no_store(JsonResponse({"status": "ok"}))


def readiness_response() -> HttpResponse:
    checks = dependencies_check()
    ready = all(result == "ok" for result in checks.values())
    return _no_store(
        JsonResponse(
            {"status": "ok" if ready else "unavailable", "checks": checks},
            status=200 if ready else 503,
        )
    )


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    """Answers the probes; place it first in MIDDLEWARE (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD"):
            if request.path_info == LIVENESS_PATH:
                return liveness_response()
            if request.path_info == READINESS_PATH:
                return readiness_response()

        return self.get_response(request)


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness. In the middleware chain `HealthCheckMiddleware` answers
    first (no Host check); this view serves the URL where that middleware is not installed."""
    return liveness_response()


def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness: each dependency by name, 503 when one is down (above)."""
    return readiness_response()
