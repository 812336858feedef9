"""Settings for running beyond one machine (chatwidget/settings/operations.py, issue 31): the
broker's visibility timeout outlives every task, lock and retry delay (checked at start);
PgBouncer's transaction mode; the upload storage chosen by STORAGE_S3_BUCKET."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from chatwidget.settings import operations

ROOT = Path(__file__).resolve().parents[2]


def limits(visibility: int | None, **over) -> dict:
    values = {
        "CELERY_BROKER_TRANSPORT_OPTIONS": {}
        if visibility is None
        else {"visibility_timeout": visibility},
        "CELERY_TASK_TIME_LIMIT": 120,
        "MEMORY_CONDENSE_LOCK_SECONDS": 150,
        "KNOWLEDGE_IMPORT_LOCK_SECONDS": 3660,
        "WEBHOOK_RETRY_MAX_SECONDS": 3600.0,
    }
    values.update(over)
    return values


def test_the_defaults_pass_and_the_embedded_broker_is_not_checked():
    operations.long_tasks_check(limits(7200))
    operations.long_tasks_check(limits(None))


@pytest.mark.parametrize(
    "visibility, over, named",
    [
        (600, {}, "WEBHOOK_RETRY_MAX_SECONDS"),  # the old default: a retry delay was redelivered
        (3000, {"WEBHOOK_RETRY_MAX_SECONDS": 60.0}, "KNOWLEDGE_IMPORT_LOCK_SECONDS"),
        (
            100,
            {
                "WEBHOOK_RETRY_MAX_SECONDS": 1.0,
                "KNOWLEDGE_IMPORT_LOCK_SECONDS": 60,
                "MEMORY_CONDENSE_LOCK_SECONDS": 90,
            },
            "CELERY_TASK_TIME_LIMIT",
        ),
    ],
)
def test_a_visibility_timeout_below_a_limit_stops_the_start(visibility, over, named):
    with pytest.raises(ImproperlyConfigured, match=named):
        operations.long_tasks_check(limits(visibility, **over))


def test_pgbouncer_transaction_mode(monkeypatch):
    databases = {"default": {"CONN_MAX_AGE": 60}}
    monkeypatch.setattr(operations, "DATABASE_POOLER", "pgbouncer")
    operations.pooler_apply(databases)
    assert databases["default"] == {"CONN_MAX_AGE": 0, "DISABLE_SERVER_SIDE_CURSORS": True}
    monkeypatch.setattr(operations, "DATABASE_POOLER", "pgpool")
    with pytest.raises(ImproperlyConfigured):
        operations.pooler_apply(databases)


def _production(**extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEST_", "DJANGO_", "CELERY"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.production",
            "SECRET_KEY": "k" * 50,
            "ALLOWED_HOSTS": "chat.example.com",
            "DATABASE_URL": "postgres://u:p@db.internal:5432/chatwidget",
            "REDIS_URL": "redis://redis.internal:6379/0",
            **extra,
        }
    )
    code = (
        "import json; from django.conf import settings as s; print(json.dumps("
        "[s.STORAGES['knowledge'], s.DATABASES['default'].get('DISABLE_SERVER_SIDE_CURSORS'),"
        " s.DATABASES['default']['CONN_MAX_AGE']]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_production_settings_with_a_bucket_and_pgbouncer():
    result = _production(
        STORAGE_S3_BUCKET="uploads",
        STORAGE_S3_ENDPOINT_URL="http://minio:9000",
        DATABASE_POOLER="pgbouncer",
    )
    assert result.returncode == 0, result.stderr[-2000:]
    storage, no_cursors, max_age = json.loads(result.stdout)
    assert storage["BACKEND"] == "storages.backends.s3.S3Storage"
    assert storage["OPTIONS"]["bucket_name"] == "uploads"
    assert storage["OPTIONS"]["endpoint_url"] == "http://minio:9000"
    assert storage["OPTIONS"]["default_acl"] == "private"
    assert (no_cursors, max_age) == (True, 0)


def test_production_refuses_a_visibility_timeout_below_the_import_limit():
    result = _production(CELERY_VISIBILITY_TIMEOUT="600")
    assert result.returncode != 0 and "CELERY_VISIBILITY_TIMEOUT" in result.stderr
