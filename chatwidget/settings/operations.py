"""Settings for running it beyond one machine (issue 31): where uploads live, how large they
may be, how long tasks may run and hold their locks, metrics and the beat heartbeat. Read
into base.py; every variable is in deploy/README.md ("Configuration")."""

from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

env = environ.Env()

# --- uploads: Django's storage API, readable by every process ---------------------------------
# One machine: a folder (default `.run/knowledge-uploads`). Several: object storage (S3 or any
# S3-compatible store, e.g. MinIO) through django-storages (`pip install chatwidget[s3]`), or a
# folder every process mounts. The web process saves, the worker reads, by the storage name.
KNOWLEDGE_UPLOAD_DIR = env("KNOWLEDGE_UPLOAD_DIR", default="")
STORAGE_S3_BUCKET = env("STORAGE_S3_BUCKET", default="")
KNOWLEDGE_STORAGE: dict[str, Any]
if STORAGE_S3_BUCKET:
    KNOWLEDGE_STORAGE = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": STORAGE_S3_BUCKET,
            "location": "knowledge-uploads",
            "endpoint_url": env("STORAGE_S3_ENDPOINT_URL", default="") or None,
            "region_name": env("STORAGE_S3_REGION", default="") or None,
            "access_key": env("STORAGE_S3_ACCESS_KEY_ID", default="") or None,
            "secret_key": env("STORAGE_S3_SECRET_ACCESS_KEY", default="") or None,
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
else:
    KNOWLEDGE_STORAGE = {"BACKEND": "chatwidget.platform.storage.UploadFolderStorage"}
# Visitors' photos and files (issue 33): the same backend, another folder or prefix.
VISITOR_UPLOAD_DIR = env("VISITOR_UPLOAD_DIR", default="")
VISITOR_UPLOADS_STORAGE: dict[str, Any]
if STORAGE_S3_BUCKET:
    VISITOR_UPLOADS_STORAGE = {
        **KNOWLEDGE_STORAGE,
        "OPTIONS": {**KNOWLEDGE_STORAGE["OPTIONS"], "location": "visitor-uploads"},
    }
else:
    VISITOR_UPLOADS_STORAGE = {"BACKEND": "chatwidget.platform.storage.VisitorUploadFolderStorage"}
# A visitor's upload: the request body's cap (nginx allows a little more, see deploy/), the
# pixels an image may have (more is a decompression bomb), uploads per session and window.
VISITOR_UPLOAD_MAX_PIXELS = env.int("VISITOR_UPLOAD_MAX_PIXELS", default=40_000_000)
VISITOR_UPLOAD_RATE = env("VISITOR_UPLOAD_RATE", default="10/600")
# The largest knowledge file an owner may upload. nginx (client_max_body_size of the admin's
# knowledge location, deploy/nginx/snippets/chatwidget-server.conf) and the ingress
# (proxy-body-size) allow 25 MB: the file plus the form; tests/deploy/test_upload_limits.py.
KNOWLEDGE_UPLOAD_MAX_BYTES = env.int("KNOWLEDGE_UPLOAD_MAX_BYTES", default=20 * 1024 * 1024)
# Uploads above this go to a temporary file (/tmp, a tmpfs in the containers), not memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# --- long tasks: each holds a lock, and the broker never hands it out again while it runs -----
# A knowledge import (memory.knowledge.import_source) may run this long (hard limit; the soft
# limit, 5 minutes earlier, ends it cleanly). Its per-source lock lives a minute longer, so a
# worker killed mid-import releases it by expiry, before the broker delivers the task again.
KNOWLEDGE_IMPORT_TIME_LIMIT_SECONDS = env.int("KNOWLEDGE_IMPORT_TIME_LIMIT_SECONDS", default=3600)
KNOWLEDGE_IMPORT_LOCK_SECONDS = KNOWLEDGE_IMPORT_TIME_LIMIT_SECONDS + 60

# --- metrics (chatwidget/metrics.py) -----------------------------------------------------------
# GET /metrics (Prometheus text). Empty: the endpoint answers 404 (off). Set: the scraper sends
# `Authorization: Bearer <token>`; the proxies in deploy/ also refuse /metrics from outside.
METRICS_TOKEN = env("METRICS_TOKEN", default="")
# Beat writes a timestamp this often (a periodic task run by a worker would tell nothing when
# the worker is down, so beat writes it itself: chatwidget/celery.py); its liveness probe
# (`python -m chatwidget.beat`) fails when the stamp is older than the stale limit.
BEAT_HEARTBEAT_SECONDS = env.int("BEAT_HEARTBEAT_SECONDS", default=30)
BEAT_HEARTBEAT_STALE_SECONDS = env.int("BEAT_HEARTBEAT_STALE_SECONDS", default=180)
CELERY_BEAT_SCHEDULER = "chatwidget.beat:HeartbeatScheduler"

# --- error reports and traces (chatwidget/observability.py; the `observability` extra) ---------
# Sentry: off while empty. Reports carry no personal data (scrubbed before they leave).
SENTRY_DSN = env("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env("SENTRY_ENVIRONMENT", default="")
SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)
# OpenTelemetry traces by OTLP over HTTP: off while empty; e.g. http://otel-collector:4318.
# The exporter also reads the standard OTEL_EXPORTER_OTLP_HEADERS (an authorization header).
OTEL_EXPORTER_OTLP_ENDPOINT = env("OTEL_EXPORTER_OTLP_ENDPOINT", default="")
OTEL_SERVICE_NAME = env("OTEL_SERVICE_NAME", default="chatwidget")

# --- PgBouncer in transaction mode (deploy/compose.yaml, deploy/k8s/pgbouncer.yaml) -----------
# A transaction pooler hands each transaction to any server connection: no server-side
# cursors (they outlive the transaction) and no persistent client connections.
DATABASE_POOLER = env("DATABASE_POOLER", default="")  # "pgbouncer" or empty


def long_tasks_check(settings: dict) -> None:
    """At settings load: a task redelivered by the broker must find its lock expired and the
    first run ended. Redis redelivers an unacknowledged task (and a countdown, e.g. a webhook
    retry) after the visibility timeout, so that must exceed every time limit, lock and delay."""
    visibility = (settings.get("CELERY_BROKER_TRANSPORT_OPTIONS") or {}).get("visibility_timeout")
    if visibility is None:  # not Redis: the embedded broker and memory:// never redeliver
        return
    longest = {
        "CELERY_TASK_TIME_LIMIT": settings["CELERY_TASK_TIME_LIMIT"],
        "MEMORY_CONDENSE_LOCK_SECONDS": settings["MEMORY_CONDENSE_LOCK_SECONDS"],
        "KNOWLEDGE_IMPORT_LOCK_SECONDS": settings["KNOWLEDGE_IMPORT_LOCK_SECONDS"],
        # a retry's countdown: the cap times the largest jitter (chatwidget/integrations/tasks.py)
        "WEBHOOK_RETRY_MAX_SECONDS": settings["WEBHOOK_RETRY_MAX_SECONDS"] * 1.25,
    }
    name, value = max(longest.items(), key=lambda item: item[1])
    if visibility <= value:
        raise ImproperlyConfigured(
            f"CELERY_VISIBILITY_TIMEOUT ({visibility} s) must be longer than {name} "
            f"({value:.0f} s), or the broker delivers a running or waiting task a second time."
        )


def pooler_apply(databases: dict) -> None:
    """The settings PgBouncer's transaction mode needs, when DATABASE_POOLER=pgbouncer."""
    if DATABASE_POOLER == "pgbouncer":
        databases["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
        databases["default"]["CONN_MAX_AGE"] = 0
    elif DATABASE_POOLER:
        raise ImproperlyConfigured("DATABASE_POOLER is either empty or 'pgbouncer'.")
