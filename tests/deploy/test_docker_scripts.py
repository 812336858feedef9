"""The two helper scripts the image uses: requirements from pyproject.toml (builder stage)
and the HEALTHCHECK client. Both are standard-library scripts; they run here as they would
in the image."""

from __future__ import annotations

import http.server
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "deploy" / "docker"


def _requirements(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            str(SCRIPTS / "requirements_from_pyproject.py"),
            str(ROOT / "pyproject.toml"),
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )


def _names(lines: list[str]) -> set[str]:
    import re

    return {re.split(r"[\s\[<>=!~;]", line, maxsplit=1)[0].lower() for line in lines}


def test_requirements_are_the_runtime_dependencies_plus_postgres():
    result = _requirements("--extras", "postgres")
    assert result.returncode == 0, result.stderr
    names = _names(result.stdout.splitlines())
    for needed in (
        "django",
        "channels",
        "daphne",
        "channels-redis",
        "celery",
        "tiktoken",
        "openai",
        "whitenoise",
        "polib",
        "psycopg",
    ):
        assert needed in names, needed
    # test tooling and the project itself stay out of the image
    assert not names & {"pytest", "playwright", "ruff", "chatwidget"}


def test_requirements_refuse_an_unknown_extra():
    result = _requirements("--extras", "no-such-group")
    assert result.returncode != 0
    assert "no-such-group" in result.stderr


class _Health(http.server.BaseHTTPRequestHandler):
    status = 200
    seen: list[dict] = []

    def do_GET(self):
        type(self).seen.append(
            {"path": self.path, **{k.lower(): v for k, v in self.headers.items()}}
        )
        self.send_response(type(self).status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def health_server():
    _Health.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _healthcheck(port: int) -> subprocess.CompletedProcess:
    # No ALLOWED_HOSTS: /healthz is answered before Django's host check (chatwidget/health.py)
    return subprocess.run(
        [sys.executable, str(SCRIPTS / "healthcheck.py")],
        env={"HEALTHCHECK_PORT": str(port), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_healthcheck_passes_on_200(health_server):
    _Health.status = 200
    result = _healthcheck(health_server.server_address[1])
    assert result.returncode == 0, result.stderr
    (seen,) = _Health.seen
    assert seen["path"] == "/healthz"


def test_healthcheck_fails_on_an_error_status(health_server):
    _Health.status = 503
    result = _healthcheck(health_server.server_address[1])
    assert result.returncode == 1
    assert "503" in result.stderr


def test_healthcheck_fails_when_nothing_listens():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = _healthcheck(port)
    assert result.returncode == 1
    assert "unreachable" in result.stderr
