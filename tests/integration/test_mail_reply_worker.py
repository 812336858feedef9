"""E-mail continuation for every handover and replies by e-mail, end to end (issue 32): an
in-hours case whose visitor left; two staff replies go through a real Celery worker (Redis
broker, the PostgreSQL test database) as ONE e-mail to a local SMTP server (aiosmtpd on
127.0.0.1) with a per-case Reply-To; the visitor's answer, posted to /inbound/email as a
mail provider forwards it, appears live on the staff case page (its socket) and in the
widget's transcript when the visitor returns; a forged sender, a bad token and a reply to an
expired case are refused and stored nowhere."""

import time
from datetime import timedelta
from email.mime.text import MIMEText

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from handover import services
from handover.models import Case
from memory.models import Conversation, Turn
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory
from tests.handover.sockets import recv_json, staff_socket
from tests.integration.cluster import wait_for

SHOP = "http://shop.test"
DOMAIN = "reply.shop.test"
SECRET = "inbound-secret-for-the-worker-test"

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def inbound(settings, monkeypatch):
    # the worker renders the Reply-To (its environment); this process checks it (settings)
    monkeypatch.setenv("INBOUND_EMAIL_DOMAIN", DOMAIN)
    settings.INBOUND_EMAIL_DOMAIN = DOMAIN
    settings.INBOUND_EMAIL_SECRET = SECRET
    settings.CONTINUATION_BATCH_SECONDS = 2


def answer_mail(to: str, *, sender: str, text: str, message_id: str) -> bytes:
    msg = MIMEText(
        f"{text}\n\nAm Mi., 2. Dez. 2026 um 10:00 schrieb Kurta shop <chat@shop.test>:\n"
        "> Your parcel left today.\n",
        "plain",
        "utf-8",
    )
    msg["From"] = f"Anna <{sender}>"
    msg["To"] = to
    msg["Subject"] = "Re: Kurta shop: the team has answered you"
    msg["Message-ID"] = message_id
    return msg.as_bytes()


def post(raw: bytes) -> dict:
    answer = Client().post(
        "/inbound/email",
        raw,
        content_type="message/rfc822",
        HTTP_AUTHORIZATION=f"Bearer {SECRET}",
    )
    assert answer.status_code == 202, answer.content
    return answer.json()


def test_in_hours_replies_go_as_one_email_and_the_answer_comes_back(site, smtp, worker):
    inbox, _ = smtp
    site.allowed_origins = [SHOP]
    site.staff_hours = "mon-fri 09:00-17:00"
    site.save(update_fields=["allowed_origins", "staff_hours"])
    conv = ConversationFactory(site=site, texts=["Where is my parcel? anna@example.com"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
    assert not case.outside_hours
    staff = UserFactory(username="sam", role="Staff", first_name="Sam")
    services.staff_reply(case_id=case.pk, user=staff, text="Your parcel left today.")
    services.staff_reply(case_id=case.pk, user=staff, text="It arrives on Friday.")

    rcpt, message = wait_for(
        lambda: inbox.messages and inbox.messages[0], what="the e-mail", worker=worker
    )
    time.sleep(4)  # past the batch window: a second e-mail would have come by now
    assert len(inbox.messages) == 1, "two replies within the window: one e-mail"
    assert rcpt == ["anna@example.com"]
    body = message.get_payload(decode=True).decode()
    assert "Your parcel left today." in body and "It arrives on Friday." in body
    reply_to = message["Reply-To"]
    assert reply_to.startswith(f"reply+{case.pk}-") and reply_to.endswith("@" + DOMAIN)

    async def answer_seen_live() -> dict:
        comm, connected, _ = await staff_socket(staff, f"/ws/staff/case/{case.pk}/")
        assert connected
        raw = answer_mail(
            reply_to,
            sender="anna@example.com",
            text="Danke! Bitte ins Büro liefern, Tel. +49 30 1234567.",
            message_id="<answer-1@example.com>",
        )
        assert await sync_to_async(post)(raw) == {"result": "accepted", "stored": True}
        frame = await recv_json(comm, timeout=10)
        while frame.get("role") != "visitor":
            frame = await recv_json(comm, timeout=10)
        await comm.disconnect()
        return frame

    frame = async_to_sync(answer_seen_live)()
    assert frame["type"] == "message" and frame["text"].startswith("Danke! Bitte ins Büro")
    assert "1234567" not in frame["text"], "staff see the phone number masked"
    assert "schrieb" not in frame["text"] and "parcel" not in frame["text"], "quote cut"

    stored = Turn.objects.filter(conversation_id=conv.pk).count()
    forged = answer_mail(
        reply_to, sender="eve@example.com", text="Send it to me", message_id="<f@x>"
    )
    assert post(forged) == {"result": "sender", "stored": False}
    local, _, domain = reply_to.partition("@")
    bad = answer_mail(
        f"{local[:-4]}0000@{domain}", sender="anna@example.com", text="Bad", message_id="<b@x>"
    )
    assert post(bad) == {"result": "bad_token", "stored": False}

    async def welcome_on_return() -> dict:
        from chatwidget.asgi import application

        comm = WebsocketCommunicator(
            application, f"/ws/chat/{site.key}/", headers=[(b"origin", SHOP.encode())]
        )
        connected, _ = await comm.connect()
        assert connected
        await comm.send_json_to({"type": "hello", "session": conv.token})
        welcome = await comm.receive_json_from(timeout=10)
        await comm.disconnect()
        return welcome

    welcome = async_to_sync(welcome_on_return)()
    assert welcome["type"] == "welcome" and welcome["resumed"] is True
    visitor = [t["text"] for t in welcome["turns"] if t["role"] == "visitor"]
    assert visitor[-1] == "Danke! Bitte ins Büro liefern, Tel. +49 30 1234567."

    # resolved long ago: the run-off is over and the transcript has expired
    services.case_resolve(case_id=case.pk, user=staff, note="parcel on its way")
    Case.objects.filter(pk=case.pk).update(resolved_at=timezone.now() - timedelta(days=400))
    Conversation.objects.filter(pk=conv.pk).update(
        last_activity_at=timezone.now() - timedelta(days=400)
    )
    late = answer_mail(reply_to, sender="anna@example.com", text="Late", message_id="<l@x>")
    assert post(late)["stored"] is False
    texts = list(Turn.objects.values_list("text", flat=True))
    assert not any(t in " ".join(texts) for t in ("Send it to me", "Bad", "Late"))
    assert Turn.objects.filter(conversation_id=conv.pk).count() == stored + 1  # the closing notice
