"""Webhooks with a real Celery worker (issue 18): an event's delivery goes through a real
Redis broker to a worker process, which POSTs it, signed, to a receiver on 127.0.0.1; the
receiver fails twice, the worker retries with backoff (a test base of 0.2 s) and the third
attempt is delivered. The receiver verifies every signature.

Needs PostgreSQL (TEST_DATABASE_URL, shared with the worker) and the redis-server binary;
skips with a message otherwise."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from celery import Celery
from django.db import connection

from chatwidget.integrations.delivery import (
    DELIVERY_HEADER,
    SIGNATURE_HEADER,
    webhook_signature_verify,
)
from chatwidget.integrations.emit import WEBHOOK_DELIVER_TASK, webhook_emit, webhook_hint_clear
from chatwidget.integrations.models import Webhook, WebhookDelivery, WebhookEvent
from tests.conftest import ROOT
from tests.integration.cluster import RedisServer, Worker, database_url, wait_until
from tests.integrations.test_webhooks import Receiver

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

_INHERITED_NOT = {
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "DJANGO_SETTINGS_MODULE",
    "TEST_DATABASE_URL",
    "TEST_DB_NAME",
    "TEST_REDIS_URL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ALLOWED_HOSTS",
}


def test_a_real_worker_retries_until_the_receiver_takes_the_delivery(
    site, tmp_path, django_capture_on_commit_callbacks
):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set TEST_DATABASE_URL): the worker shares the database")
    if shutil.which("redis-server") is None:
        pytest.skip("needs the redis-server binary (apt install redis-server)")
    broker = RedisServer(tmp_path, "broker")
    broker.start()
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED_NOT}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
            "DATABASE_URL": database_url(dict(connection.settings_dict)),
            "REDIS_URL": broker.url,
            "CELERY_BROKER_URL": broker.url,
            "WEBHOOK_RETRY_BASE_SECONDS": "0.2",
            "WEBHOOK_MAX_ATTEMPTS": "4",
            "EGRESS_ALLOW_HOSTS": "127.0.0.1",  # the receiver listens on loopback
            "PYTHONUNBUFFERED": "1",
            "TIKTOKEN_CACHE_DIR": os.environ.get(
                "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
            ),
        }
    )
    # started directly: readiness is not waited for (the task waits in the broker meanwhile)
    worker = Worker(env, tmp_path, name="hooks")
    # not the process's current app: later tests' tasks must not go to this broker once it stopped
    sender = Celery("test-sender", broker=broker.url, set_as_current=False)
    try:
        worker.start(wait=False)
        with Receiver([500, 502]) as receiver:
            hook = Webhook.objects.create(
                site=site, url=receiver.url, events=[WebhookEvent.CASE_RESOLVED.value]
            )
            webhook_hint_clear(site_id=site.pk)
            with django_capture_on_commit_callbacks():  # queued below, on the real broker
                assert (
                    webhook_emit(
                        site_id=site.pk,
                        event=WebhookEvent.CASE_RESOLVED,
                        data={"case": 7},
                        text={"note": "never sent"},
                    )
                    == 1
                )
            delivery = WebhookDelivery.objects.get()
            sender.send_task(WEBHOOK_DELIVER_TASK, args=[str(delivery.pk)])

            def delivered() -> bool:
                delivery.refresh_from_db()
                return delivery.status == WebhookDelivery.Status.DELIVERED

            wait_until(delivered, timeout=120, what="the delivery, after two failures")
            assert len(receiver.seen) == 3, "two failed attempts, then the delivered one"
            assert (delivery.attempts, delivery.response_code) == (3, 200)
            for item in receiver.seen:
                assert webhook_signature_verify(
                    secret=hook.secret, body=item["body"], header=item["headers"][SIGNATURE_HEADER]
                )
                assert item["headers"][DELIVERY_HEADER] == str(delivery.pk)
            assert json.loads(receiver.seen[-1]["body"])["data"] == {"case": 7}
    finally:
        sender.close()
        worker.kill()
        broker.stop()
