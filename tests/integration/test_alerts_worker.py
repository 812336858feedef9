"""Staff alerts end to end (issue 32): three visitors ask for a person; a real Celery worker
(Redis broker, the PostgreSQL test database) pushes each case to the staff user's device at a
push service stand-in on 127.0.0.1 (VAPID signature checked, payload decrypted with the
browser's key, no message text in it), and sends one e-mail for the three, to an SMTP server
on 127.0.0.1 (aiosmtpd), after ALERT_EMAIL_DELAY_SECONDS: the later alerts' delayed tasks find
nothing left to send."""

import os
import secrets
import time

import pytest
from django.conf import settings
from django.db import connection

from handover import services
from handover.models import AlertPreference, PushSubscription, StaffAlert
from handover.services.webpush import vapid_keys_generate
from tests.celery_app import publishing_to
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory
from tests.handover.pushservice import Browser, push_service_start
from tests.integration.cluster import Worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

DELAY = 4  # seconds the alert e-mail waits for more alerts
TEXTS = ("The mint kurta KU-2291-M in L?", "Write to anna@example.com", "Is green tea in stock?")


@pytest.fixture
def vapid(settings):
    public, private = vapid_keys_generate()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:ops@shop.test"
    return public, private


@pytest.fixture
def worker(tmp_path, smtp, vapid):
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
            "VAPID_PUBLIC_KEY": vapid[0],
            "VAPID_PRIVATE_KEY": vapid[1],
            "VAPID_SUBJECT": "mailto:ops@shop.test",
            "ALERT_EMAIL_DELAY_SECONDS": str(DELAY),
            "PYTHONUNBUFFERED": "1",
        }
    )
    # a worker another test left cannot take these; the worker's own follow-up tasks (push,
    # the delayed e-mail) go to the same queue
    queue = f"alerts-{secrets.token_hex(4)}"
    env["TEST_WORKER_QUEUE"] = queue
    worker = Worker(
        env, tmp_path, broker=settings.TEST_REDIS_URL, args=["-Q", queue, "--pool", "solo"]
    ).start(wait=False)
    try:
        with publishing_to(settings.TEST_REDIS_URL, task_default_queue=queue):
            yield worker
    finally:
        worker.stop()


def wait_for(check, *, what: str, worker: Worker, timeout: float = 60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{worker.log_text()[-4000:]}")


def test_a_real_worker_pushes_each_case_and_mails_one_batch(site, smtp, vapid, worker):
    inbox, _ = smtp
    push = push_service_start()
    try:
        staff = UserFactory(username="sam", role="Staff")
        AlertPreference.objects.create(user=staff, by_push=True, by_email=True)
        browser = Browser.new()
        PushSubscription.objects.create(
            user=staff,
            endpoint=f"{push.origin}/push/phone",
            p256dh=browser.p256dh,
            auth=browser.auth_b64,
        )
        cases = []
        for text in TEXTS:
            conv = ConversationFactory(site=site, texts=[text])
            cases.append(
                services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
            )

        wait_for(lambda: len(push.received) == 3, what="three pushes", worker=worker)
        payloads = []
        for got in push.received:
            assert got.vapid_ok and got.vapid_key == vapid[0]
            payloads.append(browser.decrypt(got.body))
        assert sorted(p["case"] for p in payloads) == sorted(c.pk for c in cases)
        for word in ("kurta", "KU-2291-M", "anna@example.com", "green tea"):
            assert all(word not in str(p) for p in payloads)

        rcpt, message = wait_for(
            lambda: inbox.messages and inbox.messages[0], what="the e-mail", worker=worker
        )
        assert rcpt == ["sam@shop.test"]
        assert message["Subject"] == "3 chat alerts"
        body = message.get_payload(decode=True).decode()
        for case in cases:
            assert f"http://chat.test/admin/handover/case/{case.pk}/change/" in body
        time.sleep(DELAY + 3)  # the later alerts' delayed tasks ran and found nothing
        assert len(inbox.messages) == 1
        assert not StaffAlert.objects.filter(emailed_at__isnull=True).exists()
    finally:
        push.server.shutdown()
