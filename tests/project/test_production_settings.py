"""Production settings, health probes and the Content-Security-Policy.

The production settings module is imported in a fresh interpreter with a controlled
environment (as a server process starts), so the values under test are the ones a real
start-up would get, not the test settings already loaded here.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tests.celery_app import publishing_to

ROOT = Path(__file__).resolve().parents[2]
SECRET = "a-production-secret-key-of-enough-length-0123456789-abcdefghij"
REQUIRED = {
    "SECRET_KEY": SECRET,
    "ALLOWED_HOSTS": "chat.example.com",
    "DATABASE_URL": "postgres://chat:pw@db.internal:5432/chat",
    "REDIS_URL": "redis://redis.internal:6379/0",
}
_SETTING_VARS = {
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "CSRF_TRUSTED_ORIGINS",
    "PUBLIC_URL",
    "ALLOW_SQLITE",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "TEST_DATABASE_URL",
    "TEST_DB_NAME",
    "TEST_REDIS_URL",
}

PROBE = """
import json
from chatwidget.settings import production as s
layer = s.CHANNEL_LAYERS["default"]
print(json.dumps({
    "DEBUG": s.DEBUG,
    "HSTS": [s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS],
    "SSL_REDIRECT": s.SECURE_SSL_REDIRECT,
    "PROXY_HEADER": list(s.SECURE_PROXY_SSL_HEADER),
    "COOKIES_SECURE": [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.LANGUAGE_COOKIE_SECURE],
    "CSRF_TRUSTED_ORIGINS": s.CSRF_TRUSTED_ORIGINS,
    "ALLOWED_HOSTS": s.ALLOWED_HOSTS,
    "LAYER": layer["BACKEND"],
    "LAYER_ADDRESS": layer["CONFIG"]["hosts"][0]["address"],
    "CACHE": s.CACHES["default"]["BACKEND"],
    "CACHE_LOCATION": s.CACHES["default"]["LOCATION"],
    "BROKER": s.CELERY_BROKER_URL,
    "VISIBILITY": s.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout"),
    "PUBLISH_RETRIES": s.CELERY_TASK_PUBLISH_RETRY_POLICY["max_retries"],
    "DB_ENGINE": s.DATABASES["default"]["ENGINE"],
    "DB_CONNECT_TIMEOUT": s.DATABASES["default"]["OPTIONS"].get("connect_timeout"),
    "DB_HEALTH_CHECKS": s.DATABASES["default"]["CONN_HEALTH_CHECKS"],
    "STATIC": s.STORAGES["staticfiles"]["BACKEND"],
    "MIDDLEWARE_FIRST": s.MIDDLEWARE[0],
    "CONNECT_SRC": s.CONTENT_SECURITY_POLICY["DIRECTIVES"]["connect-src"],
    "SCRIPT_SRC": s.CONTENT_SECURITY_POLICY["DIRECTIVES"]["script-src"],
}))
"""


def _import_production(env: dict[str, str]) -> subprocess.CompletedProcess:
    dotenv = ROOT / ".env"
    if dotenv.exists() and any(
        line.split("=", 1)[0].strip() in _SETTING_VARS for line in dotenv.read_text().splitlines()
    ):
        pytest.skip(".env sets production variables; these tests need a clean environment")
    clean = {k: v for k, v in os.environ.items() if k not in _SETTING_VARS}
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS", "REDIS_URL"])
def test_production_refuses_to_start_without_a_required_variable(missing):
    env = {k: v for k, v in REQUIRED.items() if k != missing}
    result = _import_production(env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert missing in result.stderr.splitlines()[-1], result.stderr[-500:]


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"SECRET_KEY": "short"}, "SECRET_KEY"),
        ({"SECRET_KEY": "insecure-local-only-key-do-not-use-in-production"}, "SECRET_KEY"),
        ({"DATABASE_URL": "sqlite:////tmp/x.sqlite3"}, "DATABASE_URL"),
        # Web Push (issue 32): half a key pair, or keys without a subject
        ({"VAPID_PUBLIC_KEY": "BPublic"}, "VAPID_PRIVATE_KEY"),
        ({"VAPID_PUBLIC_KEY": "BPublic", "VAPID_PRIVATE_KEY": "private"}, "VAPID_SUBJECT"),
    ],
)
def test_production_refuses_unsafe_values(change, named):
    result = _import_production({**REQUIRED, **change})
    assert result.returncode != 0
    last = result.stderr.splitlines()[-1]
    assert "ImproperlyConfigured" in last and named in last, result.stderr[-500:]


def test_production_with_the_required_environment_is_secure_and_uses_redis():
    result = _import_production(REQUIRED)
    assert result.returncode == 0, result.stderr[-2000:]
    s = json.loads(result.stdout.strip().splitlines()[-1])
    assert s["DEBUG"] is False
    assert s["HSTS"] == [31536000, True]
    assert s["SSL_REDIRECT"] is True
    assert s["PROXY_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["COOKIES_SECURE"] == [True, True, True]
    assert s["ALLOWED_HOSTS"] == ["chat.example.com"]
    assert s["LAYER"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert s["LAYER_ADDRESS"] == REQUIRED["REDIS_URL"]
    assert s["CACHE"] == "django_redis.cache.RedisCache"
    assert s["CACHE_LOCATION"] == REQUIRED["REDIS_URL"]
    assert s["BROKER"] == REQUIRED["REDIS_URL"], "the broker defaults to REDIS_URL"
    assert s["VISIBILITY"] > 120, "above the task time limit: no double runs"
    assert s["PUBLISH_RETRIES"] <= 1, "a broker outage must not block the reply path"
    assert s["DB_ENGINE"] == "django.db.backends.postgresql"
    assert s["DB_CONNECT_TIMEOUT"] and s["DB_HEALTH_CHECKS"] is True
    assert s["STATIC"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert s["MIDDLEWARE_FIRST"] == "chatwidget.health.HealthCheckMiddleware"
    assert s["SCRIPT_SRC"] == ["'self'"]
    assert "ws:" not in s["CONNECT_SRC"] and "wss:" in s["CONNECT_SRC"]


def test_production_derives_csrf_origins_from_the_public_url():
    result = _import_production({**REQUIRED, "PUBLIC_URL": "https://chat.example.com"})
    assert result.returncode == 0, result.stderr[-2000:]
    s = json.loads(result.stdout.strip().splitlines()[-1])
    assert s["CSRF_TRUSTED_ORIGINS"] == ["https://chat.example.com"]


def test_production_passes_the_deploy_checks():
    env = {k: v for k, v in os.environ.items() if k not in _SETTING_VARS}
    env.update(REQUIRED, DJANGO_SETTINGS_MODULE="chatwidget.settings.production")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # HSTS preload stays the owner's decision (SECURE_HSTS_PRELOAD, default off).
    problems = [
        line
        for line in result.stderr.splitlines()
        if re.match(r"\?: \(\w+\.[WE]\d+\)", line) and "W021" not in line
    ]
    assert not problems, result.stderr[-2000:]


# --- the probes -------------------------------------------------------------------------------


@pytest.fixture
def probe():
    """A client as a kubelet or Docker is: it reaches the process by address."""
    return Client(HTTP_HOST="10.1.2.3:8000")


@pytest.mark.django_db
def test_probes_need_no_allowed_host_and_are_never_redirected(probe, settings):
    settings.SECURE_SSL_REDIRECT = True
    live = probe.get("/healthz")
    assert live.status_code == 200 and live.json() == {"status": "ok"}
    ready = probe.get("/readyz")
    assert ready.status_code == 200, ready.content
    assert ready.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok"},
    }
    assert ready["Cache-Control"] == "no-store"
    # every other URL still checks the host
    assert probe.get("/privacy/").status_code == 400


@pytest.mark.django_db
def test_other_urls_keep_the_https_redirect(settings):
    settings.SECURE_SSL_REDIRECT = True
    response = Client().get("/privacy/")
    assert response.status_code == 301 and response["Location"].startswith("https://")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.django_db
def test_readyz_stays_ready_when_the_cache_is_down(probe, settings):
    """Rate limits fail open; every pod shares the cache: no reason to leave the balancer."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1},
        }
    }
    response = probe.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json()["checks"] == {"database": "ok", "channel_layer": "ok"}


@pytest.mark.django_db
def test_readyz_names_the_channel_layer_when_redis_is_down(probe, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{_closed_port()}/0"]},
        }
    }
    response = probe.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["channel_layer"] != "ok" and body["checks"]["database"] == "ok"
    assert "127.0.0.1" not in response.content.decode(), "no addresses in the answer"


@pytest.mark.django_db
def test_readyz_stays_ready_when_the_broker_is_down(probe):
    """All pods share the broker: its outage must not take every pod out at once (issue 31).
    Condensation and e-mail degrade instead (test_broker_outage.py)."""
    with publishing_to(f"redis://127.0.0.1:{_closed_port()}/0"):
        response = probe.get("/readyz")
    assert response.status_code == 200, response.content
    assert "broker" not in response.json()["checks"]


@pytest.mark.django_db
def test_readyz_all_ok_on_a_real_redis(probe, settings):
    if not settings.TEST_REDIS_URL:
        pytest.skip("needs Redis (TEST_REDIS_URL) for the Redis-backed readiness checks")
    settings.CACHES = {
        "default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": settings.TEST_REDIS_URL}
    }
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [settings.TEST_REDIS_URL]},
        }
    }
    with publishing_to(settings.TEST_REDIS_URL):
        response = probe.get("/readyz")
    assert response.status_code == 200, response.content
    assert set(response.json()["checks"].values()) == {"ok"}


# --- Content-Security-Policy: our pages run under it -----------------------------------------

INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
SCRIPT_SRC = re.compile(r"<script\b[^>]*\bsrc=\"([^\"]+)\"", re.I)


def _assert_runs_under_csp(response) -> None:
    policy = response["Content-Security-Policy"]
    assert (
        "script-src 'self'" in policy
        and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    )
    html = response.content.decode()
    assert not INLINE_SCRIPT.search(html), "inline <script> is blocked by script-src 'self'"
    assert not INLINE_HANDLER.search(html), "inline event handlers are blocked too"
    for src in SCRIPT_SRC.findall(html):
        assert src.startswith("/"), f"script from another origin: {src}"


@pytest.mark.django_db
def test_privacy_page_and_admin_run_under_the_csp(site, admin_client):
    _assert_runs_under_csp(Client().get(f"/privacy/{site.key}/"))
    _assert_runs_under_csp(Client().get("/admin/login/"))
    for url in ("/admin/", "/admin/sites/site/", f"/admin/sites/site/{site.pk}/change/"):
        response = admin_client.get(url)
        assert response.status_code == 200, url
        _assert_runs_under_csp(response)


@pytest.mark.django_db
def test_handover_case_page_runs_under_the_csp(site, admin_client):
    from django.urls import NoReverseMatch, reverse

    from handover.services import handover_request
    from memory.services import conversation_start, turn_append

    conv, _token = conversation_start(site_id=site.pk)
    turn_append(conversation_id=conv.pk, role="visitor", text="I would like to ask a person")
    case = handover_request(conversation_id=conv.pk, trigger="visitor", reason="a person")
    try:
        url = reverse("admin:handover_case_change", args=[case.pk])
    except NoReverseMatch:
        pytest.skip("the handover case page is not installed")
    response = admin_client.get(url)
    assert response.status_code == 200
    _assert_runs_under_csp(response)
    assert any("handover/" in src for src in SCRIPT_SRC.findall(response.content.decode())), (
        "the case page's script comes from static/handover/, i.e. from 'self'"
    )


def test_no_template_carries_inline_script():
    """Every page we render (the handover case page included) loads its scripts from
    static files, never inline, so `script-src 'self'` holds everywhere."""
    templates = sorted((ROOT / "templates").rglob("*.html"))
    templates += sorted(ROOT.glob("*/templates/**/*.html"))
    assert templates
    for path in templates:
        if "demo_shop" in path.parts:
            continue  # served by the shop's own origin (manage.py demoshop), not under our CSP
        text = path.read_text()
        assert not INLINE_SCRIPT.search(text), f"{path}: inline <script>"
        assert not INLINE_HANDLER.search(text), f"{path}: inline event handler"
