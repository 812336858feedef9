"""Error reports (Sentry) and traces (OpenTelemetry), both optional and both off by default.

The settings call `errors_setup()` (every process: web, worker, beat); the processes that
serve call `traces_setup()` where they start (asgi.py, the worker's pool processes), once the
settings are loaded. Each one starts only when its variable is set and its
packages are installed (the `observability` extra of pyproject.toml); a variable set without
the packages stops the start with a message naming the extra, instead of reporting nothing.

What leaves the server is the shape of a failure, never a visitor's words: an error report
carries the exception's type and stack (no local variables, no message: an exception's
message may quote user input, as the log filter in chatwidget/logging.py assumes too), the
request's method, route and a few technical headers (no body, cookies, query string, client
address or user), and breadcrumbs without their messages or data. Traces carry route names
and timings; the Django instrumentation records no headers, bodies or query strings unless
the standard OTEL_INSTRUMENTATION_HTTP_CAPTURE_* variables ask for them (deploy/README.md).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ImproperlyConfigured

log = logging.getLogger(__name__)

SCRUBBED = "[scrubbed]"
# request headers an error report keeps: technical, never personal (no cookies, no
# authorization, no forwarded-for, no referer with its query string)
_HEADERS_KEPT = {"content-type", "content-length", "user-agent", "host", "x-forwarded-proto"}
_ENVIRONMENT_KEYS_KEPT = {"SERVER_NAME", "SERVER_PORT"}


def _scrub_request(request: dict[str, Any]) -> dict[str, Any]:
    url = str(request.get("url") or "")
    return {
        "method": request.get("method"),
        "url": url.split("?", 1)[0],
        "headers": {
            k: v for k, v in (request.get("headers") or {}).items() if k.lower() in _HEADERS_KEPT
        },
        "env": {k: v for k, v in (request.get("env") or {}).items() if k in _ENVIRONMENT_KEYS_KEPT},
    }


def _scrub_exception(exception: dict[str, Any]) -> None:
    for value in exception.get("values") or []:
        if value.get("value"):
            value["value"] = SCRUBBED
        for frame in (value.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)


def scrub_event(event: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """Sentry's before_send and before_send_transaction: everything that may carry personal
    data goes, the shape stays. Pure (tested without a Sentry server)."""
    if "request" in event:
        event["request"] = _scrub_request(event["request"])
    event.pop("user", None)
    event.pop("extra", None)  # a log record's `extra` fields
    if "exception" in event:
        _scrub_exception(event["exception"])
    for thread in (event.get("threads") or {}).get("values") or []:
        for frame in (thread.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    if "logentry" in event:  # a logged error: its template stays, its arguments go
        event["logentry"] = {"message": (event["logentry"] or {}).get("message"), "params": []}
    if "message" in event and isinstance(event["message"], str):
        event["message"] = SCRUBBED
    crumbs = event.get("breadcrumbs")
    values = crumbs.get("values") if isinstance(crumbs, dict) else crumbs
    for crumb in values or []:
        if crumb.get("category") != "query":  # SQL is parameterised (no values)
            crumb.pop("message", None)
        crumb.pop("data", None)
    return event


def _sentry_setup(dsn: str, *, environment: str, release: str, traces_rate: float) -> None:
    try:
        import sentry_sdk  # noqa: PLC0415  (optional: the observability extra)
        from sentry_sdk.integrations.celery import CeleryIntegration  # noqa: PLC0415
        from sentry_sdk.integrations.django import DjangoIntegration  # noqa: PLC0415
    except ImportError as exc:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: install the 'observability' "
            "extra (pip install 'chatwidget[observability]', or EXTRAS=...,observability for "
            "the image)."
        ) from exc
    sentry_sdk.init(
        dsn=dsn,
        environment=environment or None,
        release=release or None,
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        traces_sample_rate=traces_rate,
        before_send=scrub_event,  # type: ignore[arg-type]
        before_send_transaction=scrub_event,  # type: ignore[arg-type]
        integrations=[DjangoIntegration(), CeleryIntegration()],
    )


_URL_ATTRIBUTES = {"http.url", "url.full", "http.target"}
_QUERY_ATTRIBUTES = {"url.query", "http.request.header.cookie", "http.request.header.referer"}


def _span_attributes_scrub(attributes: Any) -> dict[str, Any]:
    """A span's attributes without query strings (an admin search for an e-mail address is a
    query string) and without client addresses."""
    out = {}
    for key, value in dict(attributes or {}).items():
        if key in _QUERY_ATTRIBUTES or key in {"client.address", "http.client_ip", "net.peer.ip"}:
            continue
        if key in _URL_ATTRIBUTES and isinstance(value, str):
            value = value.split("?", 1)[0]
        out[key] = value
    return out


def _scrubbing_exporter(inner: Any) -> Any:
    """The OTLP exporter, handed spans whose attributes went through the scrub."""
    from opentelemetry.sdk.trace import ReadableSpan  # noqa: PLC0415
    from opentelemetry.sdk.trace.export import SpanExporter  # noqa: PLC0415

    class ScrubbingExporter(SpanExporter):
        def export(self, spans):  # type: ignore[no-untyped-def]
            return inner.export(
                [
                    ReadableSpan(
                        name=span.name,
                        context=span.context,
                        parent=span.parent,
                        resource=span.resource,
                        attributes=_span_attributes_scrub(span.attributes),
                        events=span.events,
                        links=span.links,
                        kind=span.kind,
                        status=span.status,
                        start_time=span.start_time,
                        end_time=span.end_time,
                        instrumentation_scope=span.instrumentation_scope,
                    )
                    for span in spans
                ]
            )

        def shutdown(self) -> None:
            inner.shutdown()

        def force_flush(self, timeout_millis: int = 30000) -> bool:
            return bool(inner.force_flush(timeout_millis))

    return ScrubbingExporter()


def _after_health(settings: Any) -> None:
    """The instrumentation puts its middleware first; it reads the Host header, which a health
    probe by address does not set right. Health is answered before it (and untraced)."""
    health = "chatwidget.health.HealthCheckMiddleware"
    middleware = list(settings.MIDDLEWARE)
    traced = [m for m in middleware if m.startswith("opentelemetry.")]
    if health not in middleware or not traced:
        return
    rest = [m for m in middleware if m not in traced]
    at = rest.index(health) + 1
    settings.MIDDLEWARE = [*rest[:at], *traced, *rest[at:]]


def traces_setup(*, service: str = "chatwidget") -> bool:
    """OpenTelemetry for this process, when OTEL_EXPORTER_OTLP_ENDPOINT is set: Django's
    requests and Celery's tasks as spans, sent by OTLP over HTTP. Called where the process
    starts (asgi.py; the worker's pool processes), after settings are loaded: the Django
    instrumentation adds its middleware to the settings."""
    from django.conf import settings  # noqa: PLC0415

    endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT
    if not endpoint:
        return False
    try:
        from opentelemetry import trace  # noqa: PLC0415  (optional: the observability extra)
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import (  # noqa: PLC0415
            OTLPSpanExporter,
        )
        from opentelemetry.instrumentation.celery import CeleryInstrumentor  # noqa: PLC0415
        from opentelemetry.instrumentation.django import DjangoInstrumentor  # noqa: PLC0415
        from opentelemetry.sdk.resources import Resource  # noqa: PLC0415
        from opentelemetry.sdk.trace import TracerProvider  # noqa: PLC0415
        from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: PLC0415
    except ImportError as exc:
        raise ImproperlyConfigured(
            "OTEL_EXPORTER_OTLP_ENDPOINT is set but the OpenTelemetry packages are not "
            "installed: install the 'observability' extra."
        ) from exc
    name = settings.OTEL_SERVICE_NAME or service
    provider = TracerProvider(resource=Resource.create({"service.name": name}))
    exporter = OTLPSpanExporter(endpoint=endpoint.rstrip("/") + "/v1/traces")  # + _HEADERS env
    provider.add_span_processor(BatchSpanProcessor(_scrubbing_exporter(exporter)))
    trace.set_tracer_provider(provider)
    DjangoInstrumentor().instrument(is_sql_commentor_enabled=False)
    _after_health(settings)
    CeleryInstrumentor().instrument()
    log.info("opentelemetry traces on", extra={"service": name})
    return True


def errors_setup(
    *, dsn: str, environment: str = "", release: str = "", traces_rate: float = 0.0
) -> bool:
    """Sentry for this process, when SENTRY_DSN is set (called by the settings, as Sentry's
    Django integration expects). Returns whether it started."""
    if not dsn:
        return False
    _sentry_setup(dsn, environment=environment, release=release, traces_rate=traces_rate)
    return True
