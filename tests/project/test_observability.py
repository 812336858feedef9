"""Error reports and traces leave the server without personal data (issue 31).

Each check runs the real SDK in a child process (their set-up is global to a process) with
its server stood in by a recorder on 127.0.0.1: Sentry gets a request that fails with a card
number and an e-mail address in its body, query string, cookie and exception message, and
receives the exception's type and stack only; the OTLP collector gets a request's span
without its query string. `scrub_event` itself is checked on a full event."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from chatwidget.observability import SCRUBBED, scrub_event
from tests.conftest import ROOT

pytest.importorskip("sentry_sdk")
pytest.importorskip("opentelemetry.sdk")

EMAIL = "anna.weber@example.com"
CARD = "4242 4242 4242 4242"


class Recorder:
    """Takes every POST on 127.0.0.1 and keeps its (decompressed) body."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, bytes]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                return

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                encoding = (self.headers.get("Content-Encoding") or "").lower()
                if encoding == "gzip":
                    raw = gzip.decompress(raw)
                elif encoding == "deflate":
                    raw = zlib.decompress(raw)
                elif encoding == "br":
                    import brotli

                    raw = brotli.decompress(raw)
                recorder.bodies.append((self.path, raw))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        self.port = self.server.server_address[1]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def run_child(code: str, **env: str) -> subprocess.CompletedProcess:
    child_env = {k: v for k, v in os.environ.items() if not k.startswith(("SENTRY_", "OTEL_"))}
    child_env.update(env, DJANGO_SETTINGS_MODULE="chatwidget.settings.test")
    child_env.pop("TEST_DATABASE_URL", None)  # no database: SQLite in memory
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


FAILING_REQUEST = f"""
import django
django.setup()
from django.test import Client, override_settings
import sentry_sdk
with override_settings(ROOT_URLCONF="tests.project.observability_urls", ALLOWED_HOSTS=["*"]):
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION="Bearer staff-token")
    client.cookies["sessionid"] = "visitor-session-cookie"
    response = client.post("/fails/?email={EMAIL}", {{"message": "my card {CARD}"}})
    assert response.status_code == 500, response.status_code
sentry_sdk.flush(timeout=10)
"""


def test_a_failing_request_reaches_sentry_without_personal_data():
    recorder = Recorder()
    try:
        result = run_child(
            FAILING_REQUEST, SENTRY_DSN=f"http://publickey@127.0.0.1:{recorder.port}/1"
        )
        assert result.returncode == 0, result.stderr[-3000:]
    finally:
        recorder.close()
    assert recorder.bodies, "Sentry received the report"
    sent = b"".join(body for _, body in recorder.bodies).decode("utf-8", "replace")
    assert "ValueError" in sent and "fails" in sent, "the exception's type and stack go"
    for secret in (EMAIL, "4242", "my card", "visitor-session-cookie", "staff-token"):
        assert secret not in sent, secret


def test_a_request_span_reaches_the_collector_without_its_query_string():
    recorder = Recorder()
    code = f"""
import django
django.setup()
from chatwidget.observability import traces_setup
assert traces_setup()
from django.conf import settings
assert settings.MIDDLEWARE[0] == "chatwidget.health.HealthCheckMiddleware"
from django.test import Client, override_settings
with override_settings(ALLOWED_HOSTS=["testserver"]):
    assert Client().get("/no-such-page/?email={EMAIL}").status_code == 404
    assert Client().get("/healthz", HTTP_HOST="10.0.0.7:8000").status_code == 200
from opentelemetry import trace
assert trace.get_tracer_provider().force_flush(10000)
"""
    try:
        result = run_child(code, OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{recorder.port}")
        assert result.returncode == 0, result.stderr[-3000:]
    finally:
        recorder.close()
    paths = {path for path, _ in recorder.bodies}
    assert paths == {"/v1/traces"}, paths
    sent = b"".join(body for _, body in recorder.bodies)
    assert b"/no-such-page/" in sent and b"chatwidget" in sent, "the span and its service"
    assert EMAIL.encode() not in sent and b"email=" not in sent


def test_sentry_without_its_package_stops_the_start_with_a_message():
    code = """
import builtins
real = builtins.__import__
def no_sentry(name, *args, **kwargs):
    if name.startswith("sentry_sdk"):
        raise ImportError(name)
    return real(name, *args, **kwargs)
builtins.__import__ = no_sentry
import django
try:
    django.setup()
except Exception as exc:
    print(type(exc).__name__, exc)
"""
    result = run_child(code, SENTRY_DSN="http://publickey@127.0.0.1:9/1")
    assert "ImproperlyConfigured" in result.stdout and "observability" in result.stdout


def test_scrub_event_keeps_the_shape_and_drops_the_words():
    event = {
        "message": f"failed for {EMAIL}",
        "logentry": {"message": "import failed for %s", "params": [EMAIL]},
        "user": {"email": EMAIL, "ip_address": "203.0.113.9"},
        "extra": {"text": CARD},
        "request": {
            "method": "POST",
            "url": f"https://chat.example.com/admin/?q={EMAIL}",
            "query_string": f"q={EMAIL}",
            "data": {"message": CARD},
            "cookies": {"sessionid": "x"},
            "headers": {"Cookie": "sessionid=x", "User-Agent": "Firefox", "Referer": "r?q=1"},
            "env": {"REMOTE_ADDR": "203.0.113.9", "SERVER_NAME": "web"},
        },
        "exception": {
            "values": [
                {
                    "type": "ValueError",
                    "value": f"bad card {CARD}",
                    "stacktrace": {"frames": [{"function": "f", "vars": {"text": CARD}}]},
                }
            ]
        },
        "breadcrumbs": {
            "values": [
                {"category": "django", "message": f"hello {EMAIL}", "data": {"a": EMAIL}},
                {"category": "query", "message": "SELECT 1 WHERE id = %s", "data": {"p": 1}},
            ]
        },
    }
    out = scrub_event(json.loads(json.dumps(event)))
    text = json.dumps(out)
    for secret in (EMAIL, "4242", "203.0.113.9", "sessionid"):
        assert secret not in text, secret
    assert out["request"]["url"] == "https://chat.example.com/admin/"
    assert out["request"]["headers"] == {"User-Agent": "Firefox"}
    assert out["exception"]["values"][0]["type"] == "ValueError"
    assert out["exception"]["values"][0]["value"] == SCRUBBED
    assert out["logentry"] == {"message": "import failed for %s", "params": []}
    assert out["breadcrumbs"]["values"][1]["message"] == "SELECT 1 WHERE id = %s"
