"""Fixtures of the e-mail tests with a real worker (continuation, replies by e-mail): an SMTP
server on 127.0.0.1 (aiosmtpd) and a Celery worker on Redis that sends to it."""

import email
import os
import secrets

import pytest
from django.conf import settings
from django.db import connection

from tests.celery_app import publishing_to
from tests.integration.cluster import Worker
from tests.procs import free_port


@pytest.fixture
def smtp():
    from aiosmtpd.controller import Controller

    class Inbox:
        def __init__(self) -> None:
            self.messages: list = []

        async def handle_DATA(self, server, session, envelope):
            self.messages.append((envelope.rcpt_tos, email.message_from_bytes(envelope.content)))
            return "250 OK"

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield inbox, controller.port
    controller.stop()


@pytest.fixture
def worker(tmp_path, smtp):
    if connection.vendor != "postgresql" or not settings.TEST_REDIS_URL:
        pytest.skip("needs PostgreSQL (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL)")
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k != "TEST_DB_NAME"}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.test",
            "TEST_DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}",
            "TEST_WORKER_EMAIL_URL": f"smtp://127.0.0.1:{smtp[1]}",
            "PUBLIC_URL": "http://chat.test",
            "PYTHONUNBUFFERED": "1",
        }
    )
    # a queue of its own: a worker another test left on the same Redis cannot take the task
    queue = f"continuation-{secrets.token_hex(4)}"
    worker = Worker(
        env, tmp_path, broker=settings.TEST_REDIS_URL, args=["-Q", queue, "--pool", "solo"]
    ).start(wait=False)
    # this process queues on the same broker (the web process's role), on the worker's queue
    try:
        with publishing_to(settings.TEST_REDIS_URL, task_default_queue=queue):
            yield worker
    finally:
        worker.stop()
