"""Webhooks (issue 18) against a real receiver on 127.0.0.1 (http.server in a thread): the
receiver checks the HMAC-SHA256 signature over timestamp and body, answers with failures
first, and sees the retries; the delivery log records them. The delivery task runs eagerly
(Celery's task_always_eager: retries run at once, the backoff's countdown is skipped) with
real HTTP."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from chatwidget.celery import app as celery_app
from chatwidget.integrations.delivery import (
    DELIVERY_HEADER,
    EVENT_HEADER,
    SIGNATURE_HEADER,
    webhook_signature_verify,
)
from chatwidget.integrations.emit import webhook_emit, webhook_hint_clear
from chatwidget.integrations.models import Webhook, WebhookDelivery, WebhookEvent
from chatwidget.integrations.tasks import retry_countdown
from handover.models import Case
from handover.services import handover_request
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db


class Receiver:
    """Answers with `statuses` in turn (then 200) and records what arrived."""

    def __init__(self, statuses: list[int]) -> None:
        self.statuses = list(statuses)
        self.seen: list[dict] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.seen.append({"headers": dict(self.headers), "body": body})
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def __enter__(self) -> "Receiver":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def eager():
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def _hook(site, url, events, **kwargs) -> Webhook:
    hook = Webhook.objects.create(site=site, url=url, events=[str(e) for e in events], **kwargs)
    webhook_hint_clear(site_id=site.pk)
    return hook


def test_signed_case_waiting_is_retried_until_the_receiver_takes_it(
    site, eager, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_MAX_ATTEMPTS = 5
    with Receiver([503, 500]) as receiver:
        hook = _hook(site, receiver.url, [WebhookEvent.CASE_WAITING])
        conv = ConversationFactory(site=site, texts=["I want to talk to someone"])
        with django_capture_on_commit_callbacks(execute=True):
            case = handover_request(
                conversation_id=conv.pk,
                trigger=Case.Trigger.MODEL,
                reason="The visitor asked about order 55-1031",
            )
    assert len(receiver.seen) == 3, "two failures, then delivered on the third attempt"
    ids = {item["headers"][DELIVERY_HEADER] for item in receiver.seen}
    assert len(ids) == 1, "every attempt carries the same delivery id"
    for item in receiver.seen:
        header = item["headers"][SIGNATURE_HEADER]
        assert webhook_signature_verify(secret=hook.secret, header=header, body=item["body"])
        assert not webhook_signature_verify(secret="wrong", header=header, body=item["body"])
        assert not webhook_signature_verify(
            secret=hook.secret, header=header, body=item["body"] + b" "
        )
        assert item["headers"][EVENT_HEADER] == "case.waiting"
    payload = json.loads(receiver.seen[-1]["body"])
    assert payload["event"] == "case.waiting" and payload["site"] == site.pk
    assert payload["data"] == {
        "case": case.pk,
        "conversation": conv.pk,
        "trigger": "model",
        "outside_hours": case.outside_hours,
    }
    assert "55-1031" not in receiver.seen[-1]["body"].decode(), "no text unless enabled"
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 3, 200)


def test_a_receiver_that_keeps_failing_ends_in_the_log_as_failed(
    site, eager, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_MAX_ATTEMPTS = 3
    with Receiver([500] * 10) as receiver:
        _hook(site, receiver.url, [WebhookEvent.CONVERSATION_STARTED])
        with django_capture_on_commit_callbacks(execute=True):
            conv = ConversationFactory(site=site, texts=[])
    assert len(receiver.seen) == 3
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("failed", 3, 500)
    assert json.loads(delivery.body)["data"] == {"conversation": conv.pk, "language": "en"}


def test_text_only_for_hooks_that_enable_it_and_only_subscribed_events(
    site, django_capture_on_commit_callbacks
):
    plain = _hook(site, "http://127.0.0.1:9/plain", [WebhookEvent.RATING_GIVEN])
    with_text = _hook(
        site, "http://127.0.0.1:9/text", [WebhookEvent.RATING_GIVEN], include_text=True
    )
    _hook(site, "http://127.0.0.1:9/other", [WebhookEvent.CASE_RESOLVED])
    _hook(site, "http://127.0.0.1:9/off", [WebhookEvent.RATING_GIVEN], active=False)
    with django_capture_on_commit_callbacks() as queued:
        sent = webhook_emit(
            site_id=site.pk,
            event=WebhookEvent.RATING_GIVEN,
            data={"case": 1, "score": 5},
            text={"comment": "Great help"},
        )
    assert sent == 2 and len(queued) == 2
    bodies = {d.hook_id: json.loads(d.body)["data"] for d in WebhookDelivery.objects.all()}
    assert bodies == {
        plain.pk: {"case": 1, "score": 5},
        with_text.pk: {"case": 1, "score": 5, "comment": "Great help"},
    }


def test_sites_without_hooks_pay_no_query_once_the_hint_is_cached(site, django_assert_num_queries):
    webhook_emit(site_id=site.pk, event=WebhookEvent.CONVERSATION_STARTED, data={})
    with django_assert_num_queries(0):
        assert webhook_emit(site_id=site.pk, event=WebhookEvent.CONVERSATION_STARTED, data={}) == 0


def test_backoff_grows_and_is_capped(settings):
    settings.WEBHOOK_RETRY_BASE_SECONDS = 30
    settings.WEBHOOK_RETRY_MAX_SECONDS = 600
    assert 30 <= retry_countdown(0) <= 37.5
    assert 120 <= retry_countdown(2) <= 150
    assert 600 <= retry_countdown(10) <= 750
