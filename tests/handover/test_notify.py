"""A new waiting case is announced by e-mail (HANDOVER_NOTIFY_EMAIL), after commit, through
the Celery task (run eagerly here: the locmem mail backend catches what would be sent)."""

import pytest
from django.core import mail

from handover import services
from tests.factories import OPEN_TIME

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager_celery():
    from chatwidget.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def test_new_case_sends_one_mail_after_commit_without_conversation_text(
    conversation, settings, eager_celery, django_capture_on_commit_callbacks
):
    settings.HANDOVER_NOTIFY_EMAIL = "team@shop.test"
    settings.PUBLIC_URL = "https://chat.shop.test"
    with django_capture_on_commit_callbacks(execute=False) as pending:
        case = services.handover_request(
            conversation_id=conversation.pk,
            trigger="visitor",
            reason="KU-2291-M fit question",
            now=OPEN_TIME,
        )
    assert mail.outbox == [], "nothing is sent before the transaction commits"
    for callback in pending:
        callback()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["team@shop.test"]
    assert "Test shop" in message.subject and str(case.pk) in message.subject
    assert f"https://chat.shop.test/admin/handover/case/{case.pk}/change/" in message.body
    for private in ("anna@example.com", "KU-2291-M", "1234567", "fit question"):
        assert private not in message.body + message.subject


def test_no_mail_without_an_address(
    conversation, settings, eager_celery, django_capture_on_commit_callbacks
):
    settings.HANDOVER_NOTIFY_EMAIL = ""
    with django_capture_on_commit_callbacks(execute=True):
        services.handover_request(conversation_id=conversation.pk, trigger="visitor", now=OPEN_TIME)
    assert mail.outbox == []


def test_no_mail_once_someone_has_claimed(conversation, settings, staff_user):
    settings.HANDOVER_NOTIFY_EMAIL = "team@shop.test"
    case = services.handover_request(
        conversation_id=conversation.pk, trigger="visitor", now=OPEN_TIME
    )
    services.case_claim(case_id=case.pk, user=staff_user)
    from handover.tasks import case_notify

    assert case_notify.apply(args=[case.pk]).get() is False  # a late or repeated task
    assert mail.outbox == []
