"""E-mail continuation end to end (issue 18): a staff reply to a visitor who has left goes
through a real Celery worker (Redis broker, the PostgreSQL test database) to a local SMTP
server (aiosmtpd on 127.0.0.1); the e-mail's link leads to the shop's page with the code in
its fragment, the code is exchanged (POST body) for a linked session, and the widget's hello
with that session reopens the same conversation, the staff reply in its transcript and the
visitor's contact details masked (issue 25)."""

import re
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from handover import services
from tests.factories import CLOSED_TIME, ConversationFactory, UserFactory
from tests.integration.cluster import wait_for

ROOT = Path(__file__).resolve().parents[2]
SHOP = "http://shop.test"

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
]


def test_the_worker_emails_the_reply_and_the_link_reopens_the_conversation(
    site, smtp, worker, settings
):
    inbox, _ = smtp
    site.allowed_origins = [SHOP]
    site.staff_hours = "mon-fri 09:00-17:00"
    site.save(update_fields=["allowed_origins", "staff_hours"])
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "chat.test"]
    settings.CONTINUATION_BATCH_SECONDS = 1  # the batch window (issue 32), short for the test
    conv = ConversationFactory(site=site, texts=["Where is my parcel? anna@example.com"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=CLOSED_TIME)
    staff = UserFactory(username="sam", role="Staff", first_name="Sam")
    services.case_claim(case_id=case.pk, user=staff)
    services.staff_reply(case_id=case.pk, user=staff, text="Your parcel left today.")

    rcpt, message = wait_for(
        lambda: inbox.messages and inbox.messages[0], what="the e-mail", worker=worker
    )
    assert rcpt == ["anna@example.com"]
    body = message.get_payload(decode=True).decode()
    assert "Your parcel left today." in body
    link = re.search(r"http://shop\.test/\S+", body).group(0)
    assert link.startswith(SHOP + "/#cw-continue=")
    code = link.split("#cw-continue=", 1)[1]

    client = Client(HTTP_HOST="chat.test")
    answer = client.post(
        f"/widget/v1/{site.key}/continue",
        {"code": code},
        content_type="application/json",
        HTTP_ORIGIN=SHOP,
    )
    assert answer.status_code == 200
    token = answer.json()["session"]

    from asgiref.sync import async_to_sync

    from chatwidget.asgi import application

    async def hello() -> dict:
        comm = WebsocketCommunicator(
            application, f"/ws/chat/{site.key}/", headers=[(b"origin", SHOP.encode())]
        )
        connected, _ = await comm.connect()
        assert connected
        await comm.send_json_to({"type": "hello", "session": token})
        welcome = await comm.receive_json_from(timeout=10)
        await comm.disconnect()
        return welcome

    welcome = async_to_sync(hello)()
    assert welcome["type"] == "welcome" and welcome["resumed"] is True, welcome
    assert welcome["state"] == "human"
    texts = [t.get("text") for t in welcome["turns"]]
    assert texts[0].startswith("Where is my parcel? ") and "anna@example.com" not in texts[0]
    assert "Your parcel left today." in texts
