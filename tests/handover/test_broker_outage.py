"""The broker is down (issue 31; deploy/README.md, "When something goes away"): the staff
e-mail a visitor's handover needs is sent inline by the process that committed, the failed
publish is logged, and a condensation is not run inline by the queue (condense-lagging and
the context builder catch up)."""

import logging
import socket

import pytest
from django.core import mail

from chatwidget.platform.queue import task_enqueue_on_commit
from handover import services
from tests.celery_app import publishing_to
from tests.factories import OPEN_TIME

pytestmark = pytest.mark.django_db


def closed_broker() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{sock.getsockname()[1]}/0"


def test_the_handover_email_is_sent_inline_when_the_broker_is_down(
    conversation, settings, caplog, django_capture_on_commit_callbacks
):
    settings.HANDOVER_NOTIFY_EMAIL = "team@shop.test"
    caplog.set_level(logging.WARNING, logger="chatwidget.platform.queue")
    with publishing_to(closed_broker()):
        with django_capture_on_commit_callbacks(execute=True):
            case = services.handover_request(
                conversation_id=conversation.pk, trigger="visitor", now=OPEN_TIME
            )
    assert len(mail.outbox) == 1 and str(case.pk) in mail.outbox[0].subject
    record = next(r for r in caplog.records if r.getMessage().startswith("task not enqueued"))
    assert (record.task, record.inline) == ("handover.tasks.case_notify", True)


def test_other_tasks_are_logged_and_not_run_inline(settings, caplog, monkeypatch):
    from memory import tasks

    ran = []
    monkeypatch.setattr(tasks.condense_conversation, "run", lambda *a: ran.append(a))
    caplog.set_level(logging.WARNING, logger="chatwidget.platform.queue")
    with publishing_to(closed_broker()):
        enqueue = []
        monkeypatch.setattr(
            "chatwidget.platform.queue.transaction.on_commit", lambda f, robust: enqueue.append(f)
        )
        task_enqueue_on_commit("memory.tasks.condense_conversation", 1)
        with pytest.raises(Exception):
            enqueue[0]()
    assert ran == []
    assert any(r.getMessage().startswith("task not enqueued") for r in caplog.records)
