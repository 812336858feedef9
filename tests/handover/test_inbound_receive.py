"""Replies by e-mail (issue 32), in-process: a visitor's answer to a continuation e-mail
becomes a redacted visitor turn of the case; a forged sender, a bad token, a closed or expired
case, an auto-reply are refused and store nothing; the HTTP endpoint's secret and size limit.
The real worker, SMTP server and staff socket: tests/integration/test_mail_reply_worker.py."""

import base64
from datetime import timedelta
from email.mime.text import MIMEText

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chatwidget.sites.services import site_create
from handover import services
from handover.inbound.receive import Outcome, inbound_mail_receive
from handover.models import Case, ContinuationCode
from handover.services.continuation import continuation_email_send
from handover.services.reply_address import reply_address_case
from memory.models import Conversation, Turn
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory

SECRET = "inbound-test-secret-0123456789"


@pytest.fixture
def shop(db, settings):
    settings.INBOUND_EMAIL_DOMAIN = "reply.shop.test"
    settings.INBOUND_EMAIL_SECRET = SECRET
    site = site_create(name="Kurta shop", origins=["http://shop.test"])
    site.staff_hours = "mon-fri 09:00-17:00"
    site.save(update_fields=["staff_hours"])
    return site


@pytest.fixture
def emailed(shop):
    """An in-hours case whose visitor left; the staff reply went out by e-mail."""
    conv = ConversationFactory(site=shop, texts=["Where is my parcel? Anna@Example.com"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
    staff = UserFactory(username="sam", role="Staff")
    services.staff_reply(case_id=case.pk, user=staff, text="Your parcel left today.")
    assert continuation_email_send(case_id=case.pk)
    case.staff = staff
    case.reply_to = mail.outbox[-1].reply_to[0]
    return case


def reply(to, *, sender="anna@example.com", text="Thanks! Please send it to the office.", **hd):
    msg = MIMEText(text + "\n\nOn Wed, Kurta shop <chat@shop.test> wrote:\n> Your parcel\n")
    msg["From"] = f"Anna <{sender}>"
    msg["To"] = to
    msg["Subject"] = "Re: your answer"
    msg["Message-ID"] = hd.pop("message_id", "<m1@example.com>")
    for name, value in hd.items():
        msg[name.replace("_", "-")] = value
    return msg.as_bytes()


def visitor_texts(case):
    return list(
        Turn.objects.filter(conversation_id=case.conversation_id, role="visitor")
        .order_by("seq")
        .values_list("text", flat=True)
    )


@pytest.mark.django_db
def test_a_reply_becomes_a_redacted_visitor_turn_once(emailed):
    raw = reply(emailed.reply_to, text="Thanks! My card is 4111 1111 1111 1111, send it on.")
    assert inbound_mail_receive(raw=raw) is Outcome.ACCEPTED
    texts = visitor_texts(emailed)
    assert len(texts) == 2
    assert texts[-1].startswith("Thanks! My card is ") and "4111" not in texts[-1]
    assert "Your parcel" not in texts[-1], "the quoted history is cut"
    system = Turn.objects.filter(conversation_id=emailed.conversation_id, role="system")
    assert "card" in system.order_by("-seq").first().text.lower(), "the removal hint, as in chat"
    # the provider posts it again, or the mailbox is read twice
    assert inbound_mail_receive(raw=raw) is Outcome.DUPLICATE
    assert len(visitor_texts(emailed)) == 2


@pytest.mark.django_db
def test_the_address_case_and_spaces_do_not_matter_but_the_sender_does(emailed):
    upper = emailed.reply_to.upper()
    assert inbound_mail_receive(raw=reply(upper, sender="ANNA@example.COM")) is Outcome.ACCEPTED
    forged = reply(emailed.reply_to, sender="mallory@example.com", message_id="<m2@x>")
    assert inbound_mail_receive(raw=forged) is Outcome.SENDER
    assert len(visitor_texts(emailed)) == 2


@pytest.mark.django_db
def test_bad_tokens_are_refused(emailed, settings):
    local, _, domain = emailed.reply_to.partition("@")
    case_part, _, mac = local.partition("-")
    wrong_mac = f"{case_part}-{'0' * len(mac)}@{domain}"
    other_case = f"reply+{emailed.pk + 1}-{mac}@{domain}"
    wrong_domain = f"{local}@elsewhere.test"
    for to, outcome in (
        (wrong_mac, Outcome.BAD_TOKEN),
        (other_case, Outcome.BAD_TOKEN),
        (wrong_domain, Outcome.BAD_TOKEN),
        ("support@shop.test", Outcome.NOT_A_REPLY),
    ):
        assert inbound_mail_receive(raw=reply(to)) is outcome, to
    original = settings.SECRET_KEY
    settings.SECRET_KEY = "another-key-0123456789-0123456789-0123456789"
    assert inbound_mail_receive(raw=reply(emailed.reply_to)) is Outcome.BAD_TOKEN
    assert len(visitor_texts(emailed)) == 1
    settings.SECRET_KEY_FALLBACKS = [original]  # a rotation keeps sent addresses valid
    assert reply_address_case(emailed.reply_to) == emailed.pk


@pytest.mark.django_db
def test_closed_expired_erased_and_automatic_are_refused(emailed):
    auto = reply(emailed.reply_to, Auto_Submitted="auto-replied", message_id="<a@x>")
    assert inbound_mail_receive(raw=auto) is Outcome.AUTOMATIC
    services.case_resolve(case_id=emailed.pk, user=emailed.staff, note="parcel sent")
    assert inbound_mail_receive(raw=reply(emailed.reply_to)) is Outcome.CLOSED
    # long after: the run-off is over and the transcript expired
    Case.objects.filter(pk=emailed.pk).update(resolved_at=timezone.now() - timedelta(days=400))
    Conversation.objects.filter(pk=emailed.conversation_id).update(
        last_activity_at=timezone.now() - timedelta(days=400)
    )
    assert inbound_mail_receive(raw=reply(emailed.reply_to)) in (Outcome.CLOSED, Outcome.GONE)
    assert len(visitor_texts(emailed)) == 1
    conversation_id = emailed.conversation_id
    Conversation.objects.filter(pk=conversation_id).delete()  # erased
    assert inbound_mail_receive(raw=reply(emailed.reply_to)) is Outcome.GONE
    assert not Turn.objects.filter(conversation_id=conversation_id).exists()


@pytest.mark.django_db
def test_an_open_but_expired_conversation_takes_nothing(emailed, monkeypatch):
    from handover.inbound import receive

    monkeypatch.setattr(receive, "conversation_is_expired", lambda **kw: True)
    assert inbound_mail_receive(raw=reply(emailed.reply_to)) is Outcome.GONE
    assert len(visitor_texts(emailed)) == 1
    assert Conversation.objects.count() == 1, "no new conversation either"


@pytest.mark.django_db
def test_a_reply_to_an_email_older_than_its_link_is_refused(emailed):
    ContinuationCode.objects.filter(case=emailed).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    assert inbound_mail_receive(raw=reply(emailed.reply_to)) is Outcome.GONE
    assert len(visitor_texts(emailed)) == 1


@pytest.mark.django_db
def test_a_reply_to_a_case_whose_address_changed_is_refused(emailed):
    Case.objects.filter(pk=emailed.pk).update(contact=[])  # the address erased from the case
    assert inbound_mail_receive(raw=reply(emailed.reply_to)) is Outcome.SENDER
    assert len(visitor_texts(emailed)) == 1


def post(client, raw, auth=f"Bearer {SECRET}", content_type="message/rfc822"):
    extra = {"HTTP_AUTHORIZATION": auth} if auth else {}
    return client.post("/inbound/email", raw, content_type=content_type, **extra)


@pytest.mark.django_db
def test_the_endpoint_needs_the_secret_and_takes_the_raw_message(emailed, settings):
    client = Client()
    raw = reply(emailed.reply_to)
    assert post(client, raw, auth=None).status_code == 401
    assert post(client, raw, auth="Bearer wrong").status_code == 401
    assert len(visitor_texts(emailed)) == 1
    answer = post(client, raw)
    assert answer.status_code == 202
    assert answer.json() == {"result": "accepted", "stored": True}
    basic = base64.b64encode(f"mailgun:{SECRET}".encode()).decode()
    again = post(client, raw, auth=f"Basic {basic}", content_type="application/octet-stream")
    assert again.json() == {"result": "duplicate", "stored": True}
    forged = post(client, reply(emailed.reply_to, sender="eve@example.com", message_id="<f@x>"))
    assert forged.status_code == 202 and forged.json() == {"result": "sender", "stored": False}
    assert len(visitor_texts(emailed)) == 2

    settings.INBOUND_EMAIL_MAX_BYTES = 200
    assert post(client, reply(emailed.reply_to, message_id="<big@x>")).status_code == 413
    settings.INBOUND_EMAIL_SECRET = ""
    assert post(client, raw).status_code == 404, "off without a secret"
    assert client.get("/inbound/email").status_code in (404, 405)


@pytest.mark.django_db
def test_the_case_page_says_replies_follow_by_email(emailed, client, settings):
    owner = UserFactory(username="olga", role="Owner")
    client.force_login(owner)
    page = client.get(reverse("admin:handover_case_change", args=[emailed.pk])).content.decode()
    assert "Replies reach the visitor by e-mail while they are away" in page
    assert "their answers by e-mail appear here" in page
    settings.INBOUND_EMAIL_DOMAIN = ""
    page = client.get(reverse("admin:handover_case_change", args=[emailed.pk])).content.decode()
    assert "their answers by e-mail appear here" not in page
