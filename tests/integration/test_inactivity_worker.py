"""The inactivity scan on a real Celery worker (issue 32): the task is sent by its name
through a real Redis broker, as beat sends it, and the worker process writes the follow-up
into the shared database; sent again once the follow-up has been unanswered long enough, it
closes the conversation. Quiet spells are made by moving `last_activity_at` back, since the
worker runs on the real clock.

Needs PostgreSQL (TEST_DATABASE_URL, shared with the worker) and the redis-server binary;
skips with a message otherwise."""

from __future__ import annotations

import os
import shutil
from datetime import timedelta

import pytest
from celery import Celery
from django.db import connection
from django.utils import timezone

from handover.services.inactivity import INACTIVITY_SCAN_TASK
from memory.models import Conversation, Turn
from tests.conftest import ROOT
from tests.factories import ConversationFactory
from tests.integration.cluster import RedisServer, Worker, database_url, wait_until
from tests.integration.test_webhooks_worker import _INHERITED_NOT

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _quiet_for(conv: Conversation, minutes: int) -> None:
    Conversation.objects.filter(pk=conv.pk).update(
        last_activity_at=timezone.now() - timedelta(minutes=minutes)
    )


def test_a_real_worker_follows_up_once_then_closes(site, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set TEST_DATABASE_URL): the worker shares the database")
    if shutil.which("redis-server") is None:
        pytest.skip("needs the redis-server binary (apt install redis-server)")
    site.inactivity_followup_minutes = 10
    site.inactivity_resolve_minutes = 20
    site.save()
    conv = ConversationFactory(site=site, texts=["Do you ship to Austria?"])
    _quiet_for(conv, 11)
    broker = RedisServer(tmp_path, "broker")
    broker.start()
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED_NOT}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
            "DATABASE_URL": database_url(dict(connection.settings_dict)),
            "REDIS_URL": broker.url,
            "CELERY_BROKER_URL": broker.url,
            "PYTHONUNBUFFERED": "1",
            "TIKTOKEN_CACHE_DIR": os.environ.get(
                "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
            ),
        }
    )
    worker = Worker(env, tmp_path, name="inactivity")
    sender = Celery("test-sender", broker=broker.url, set_as_current=False)
    try:
        worker.start(wait=False)
        sender.send_task(INACTIVITY_SCAN_TASK)

        def followed_up() -> bool:
            return Conversation.objects.get(pk=conv.pk).followup_seq is not None

        wait_until(followed_up, timeout=120, what="the follow-up written by the worker")
        sender.send_task(INACTIVITY_SCAN_TASK)  # a second scan: nothing more
        _quiet_for(conv, 21)
        sender.send_task(INACTIVITY_SCAN_TASK)
        wait_until(
            lambda: Conversation.objects.get(pk=conv.pk).state == "closed",
            timeout=120,
            what="the close after the unanswered follow-up",
        )
        roles = list(
            Turn.objects.filter(conversation=conv).order_by("seq").values_list("role", flat=True)
        )
        assert roles == ["visitor", "assistant", "assistant", "system"], "one follow-up"
    finally:
        sender.close()
        worker.kill()
        broker.stop()
