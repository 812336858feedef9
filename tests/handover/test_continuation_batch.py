"""E-mail continuation for every handover (issue 32), in-process: a reply made while the
visitor is away goes by e-mail whatever the hours; several replies give one e-mail; a reply
the visitor saw live is not e-mailed; the widget offers the e-mail when a person is to answer.
The real worker and SMTP server: tests/integration/test_mail_reply_worker.py."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from chatwidget.platform.presence import visitor_presence_mark
from chatwidget.sites.services import site_create
from handover import services
from handover.models import Case
from handover.services import continuation
from handover.services.continuation import continuation_email_send
from handover.services.notices import NOTICE_WAITING, NOTICE_WAITING_ASK
from handover.services.reply_address import reply_address_case
from memory.models import Turn
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory

SHOP = "http://shop.test"


@pytest.fixture
def shop(db, settings):
    settings.INBOUND_EMAIL_DOMAIN = "reply.shop.test"
    site = site_create(name="Kurta shop", origins=[SHOP])
    site.staff_hours = "mon-fri 09:00-17:00"
    site.save(update_fields=["staff_hours"])
    return site


@pytest.fixture
def queued(monkeypatch):
    """The continuation tasks the services queue: (name, args, countdown)."""
    calls: list = []

    def record(name, *args, countdown=None, inline_when_broker_down=False):
        calls.append((name, args, countdown))

    monkeypatch.setattr(continuation, "task_enqueue_on_commit", record)
    return calls


def in_hours_case(site, text="Where is my parcel? anna@example.com"):
    conv = ConversationFactory(site=site, texts=[text])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
    assert not case.outside_hours, "someone was there: an in-hours case"
    staff = UserFactory(username=f"sam{case.pk}", role="Staff")
    return case, staff


def notices(case):
    return list(
        Turn.objects.filter(conversation_id=case.conversation_id, role="system").values_list(
            "text", flat=True
        )
    )


@pytest.mark.django_db
def test_the_widget_offers_the_answer_by_email_when_a_person_is_to_answer(shop):
    asked, _ = in_hours_case(shop, text="I want to talk to a person")
    assert notices(asked)[-1] == NOTICE_WAITING_ASK
    known, _ = in_hours_case(shop)
    assert notices(known)[-1] == NOTICE_WAITING


@pytest.mark.django_db
def test_replies_in_hours_while_the_visitor_is_away_give_one_email(shop, queued, settings):
    settings.CONTINUATION_BATCH_SECONDS = 90
    case, staff = in_hours_case(shop)
    assert not continuation_email_send(case_id=case.pk), "nothing to send before a reply"
    services.staff_reply(case_id=case.pk, user=staff, text="Your parcel left today.")
    services.staff_reply(case_id=case.pk, user=staff, text="Tracking: DHL 00340434.")
    services.staff_reply(case_id=case.pk, user=staff, text="It arrives on Friday.")
    assert queued == [(continuation.CONTINUATION_EMAIL_TASK, (case.pk,), 90)], "one batch"
    batch_at = Case.objects.get(pk=case.pk).mail_batch_at
    assert timedelta(seconds=80) < batch_at - timezone.now() <= timedelta(seconds=90)

    assert continuation_email_send(case_id=case.pk)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["anna@example.com"]
    for text in ("Your parcel left today.", "Tracking: DHL 00340434.", "It arrives on Friday."):
        assert text in message.body
    assert "replying to this e-mail" in message.body
    assert reply_address_case(message.reply_to[0]) == case.pk
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"
    # the task again (a retry, a second delivery): nothing new, nothing sent
    assert not continuation_email_send(case_id=case.pk)
    assert len(mail.outbox) == 1

    # a later reply starts a batch of its own, holding only itself
    services.staff_reply(case_id=case.pk, user=staff, text="One more thing.")
    assert len(queued) == 2
    assert continuation_email_send(case_id=case.pk)
    assert "One more thing." in mail.outbox[1].body
    assert "Your parcel left today." not in mail.outbox[1].body


@pytest.mark.django_db
def test_a_reply_the_visitor_saw_live_is_not_emailed(shop, queued):
    case, staff = in_hours_case(shop)
    visitor_presence_mark(conversation_id=case.conversation_id, channel="w1", present=True)
    seen = services.staff_reply(case_id=case.pk, user=staff, text="Seen live.")
    assert queued == [] and Case.objects.get(pk=case.pk).mail_through_seq == seen.seq
    visitor_presence_mark(conversation_id=case.conversation_id, channel="w1", present=False)
    services.staff_reply(case_id=case.pk, user=staff, text="Sent while away.")
    assert len(queued) == 1
    assert continuation_email_send(case_id=case.pk)
    assert "Sent while away." in mail.outbox[0].body and "Seen live." not in mail.outbox[0].body


@pytest.mark.django_db
def test_a_visitor_back_before_the_batch_gets_no_email(shop, queued):
    case, staff = in_hours_case(shop)
    services.staff_reply(case_id=case.pk, user=staff, text="Your parcel left today.")
    visitor_presence_mark(conversation_id=case.conversation_id, channel="w1", present=True)
    assert continuation_email_send(case_id=case.pk) and mail.outbox == []
    visitor_presence_mark(conversation_id=case.conversation_id, channel="w1", present=False)
    assert not continuation_email_send(case_id=case.pk), "seen: not sent later either"


@pytest.mark.django_db
def test_a_lost_batch_is_replaced_by_the_next_reply(shop, queued):
    case, staff = in_hours_case(shop)
    services.staff_reply(case_id=case.pk, user=staff, text="First.")
    Case.objects.filter(pk=case.pk).update(mail_batch_at=timezone.now() - timedelta(hours=1))
    services.staff_reply(case_id=case.pk, user=staff, text="Second.")
    assert len(queued) == 2
    assert continuation_email_send(case_id=case.pk)
    assert "First." in mail.outbox[0].body and "Second." in mail.outbox[0].body


@pytest.mark.django_db
def test_without_an_inbound_domain_there_is_no_reply_to(shop, queued, settings):
    settings.INBOUND_EMAIL_DOMAIN = ""
    case, staff = in_hours_case(shop)
    services.staff_reply(case_id=case.pk, user=staff, text="Your parcel left today.")
    assert continuation_email_send(case_id=case.pk)
    assert mail.outbox[0].reply_to == []
    assert "replying to this e-mail" not in mail.outbox[0].body
