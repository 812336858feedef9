"""E-mail continuation (issue 18), in-process: who gets an e-mail, in which language, and
the link's one-time code (signed, expiring, single-use, exchanged by POST, never a session
token in a URL). The real worker and SMTP server: test_continuation_worker.py."""

import re

import pytest
from django.core import mail
from django.test import Client

from chatwidget.platform.presence import visitor_presence_mark
from chatwidget.sites.services import site_create
from handover import services
from handover.services.continuation import (
    continuation_code,
    continuation_email_send,
    continuation_exchange,
)
from memory.models import Conversation
from memory.selectors import conversation_get_by_token
from tests.factories import CLOSED_TIME, OPEN_TIME, ConversationFactory, UserFactory

SHOP = "http://shop.test"


@pytest.fixture
def shop(db, settings):
    settings.PUBLIC_URL = "http://chat.test"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "chat.test"]
    site = site_create(name="Kurta shop", origins=[SHOP])
    site.staff_hours = "mon-fri 09:00-17:00"
    site.save(update_fields=["staff_hours"])
    return site


def _case(site, *, now, text="Write to anna@example.com please", language="en"):
    conv = ConversationFactory(site=site, texts=[text])
    Conversation.objects.filter(pk=conv.pk).update(language=language)
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=now)
    staff = UserFactory(username=f"sam{case.pk}", role="Staff")
    services.case_claim(case_id=case.pk, user=staff)
    return case, staff


def _reply(case, staff, text="Your kurta ships today."):
    return services.staff_reply(case_id=case.pk, user=staff, text=text)


@pytest.mark.django_db
def test_an_offline_visitor_who_left_an_address_gets_the_reply_in_their_language(shop):
    case, staff = _case(shop, now=CLOSED_TIME, language="de")
    turn = _reply(case, staff)
    assert continuation_email_send(case_id=case.pk, seq=turn.seq)
    message = mail.outbox[-1]
    assert message.to == ["anna@example.com"]
    assert "Your kurta ships today." in message.body
    assert "Kurta shop" in message.subject and "geantwortet" in message.subject
    link = re.search(r"http://chat\.test/continue/\S+/", message.body).group(0)
    assert "session" not in link


@pytest.mark.django_db
def test_no_email_while_the_widget_is_open_or_without_consent(shop):
    case, staff = _case(shop, now=CLOSED_TIME)
    visitor_presence_mark(conversation_id=case.conversation_id, channel="w1", present=True)
    assert not continuation_email_send(case_id=case.pk, seq=_reply(case, staff).seq)
    visitor_presence_mark(conversation_id=case.conversation_id, channel="w1", present=False)
    assert continuation_email_send(case_id=case.pk, seq=_reply(case, staff, "More.").seq)
    # inside staff hours with someone there: the address was not asked for this purpose
    staffed, staff2 = _case(shop, now=OPEN_TIME)
    assert not continuation_email_send(case_id=staffed.pk, seq=_reply(staffed, staff2).seq)
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_the_link_leads_to_the_shop_and_the_code_works_once(shop):
    case, _ = _case(shop, now=CLOSED_TIME)
    code = continuation_code(conversation_id=case.conversation_id)
    client = Client(HTTP_HOST="chat.test")
    response = client.get(f"/continue/{code}/")
    assert response.status_code == 302 and response["Location"] == f"{SHOP}/#cw-continue={code}"
    url = f"/widget/v1/{shop.key}/continue"
    refused = client.post(
        url, {"code": code}, content_type="application/json", HTTP_ORIGIN="http://evil.test"
    )
    assert refused.status_code == 403
    answer = client.post(url, {"code": code}, content_type="application/json", HTTP_ORIGIN=SHOP)
    assert answer.status_code == 200 and answer["Access-Control-Allow-Origin"] == SHOP
    token = answer.json()["session"]
    assert conversation_get_by_token(site_id=shop.pk, token=token).pk == case.conversation_id
    again = client.post(url, {"code": code}, content_type="application/json", HTTP_ORIGIN=SHOP)
    assert again.status_code == 404  # single use


@pytest.mark.django_db
def test_a_forged_expired_or_foreign_code_is_refused(shop, settings):
    case, _ = _case(shop, now=CLOSED_TIME)
    other = site_create(name="Other", origins=["http://other.test"])
    code = continuation_code(conversation_id=case.conversation_id)
    assert continuation_exchange(site_id=other.pk, code=code) is None
    assert continuation_exchange(site_id=shop.pk, code=code[:-2] + "xx") is None
    settings.CONTINUATION_LINK_MAX_AGE = -1
    assert continuation_exchange(site_id=shop.pk, code=code) is None
    response = Client(HTTP_HOST="chat.test").get(f"/continue/{code}/")
    assert response.status_code == 410 and "expired" in response.content.decode()


@pytest.mark.django_db
def test_the_transcript_by_email_goes_only_to_an_address_written_in_the_chat(
    shop, django_capture_on_commit_callbacks
):
    from handover.services.continuation import transcript_email_send

    with_address = ConversationFactory(site=shop, texts=["Mail me at anna@example.com"])
    Conversation.objects.filter(pk=with_address.pk).update(language="de")
    without = ConversationFactory(site=shop, texts=["Where is my parcel?"])
    client = Client(HTTP_HOST="chat.test")
    url = f"/widget/v1/{shop.key}/transcript-email"

    def ask(conv):
        return client.post(
            url, {"session": conv.token}, content_type="application/json", HTTP_ORIGIN=SHOP
        )

    with django_capture_on_commit_callbacks() as queued:
        assert ask(without).status_code == 409
        assert ask(with_address).status_code == 202
        assert ask(with_address).status_code == 202  # accepted, but not queued twice
    assert len(queued) == 1
    assert (
        client.post(
            url, {"session": "nope"}, content_type="application/json", HTTP_ORIGIN=SHOP
        ).status_code
        == 404
    )

    assert transcript_email_send(conversation_id=with_address.pk)
    assert not transcript_email_send(conversation_id=without.pk)
    message = mail.outbox[-1]
    assert message.to == ["anna@example.com"] and "Gespräch" in message.subject
    assert "Mail me at anna@example.com" in message.body  # the visitor's own words, as typed


@pytest.mark.django_db
def test_the_address_goes_with_erasure_and_the_case_run_off(shop):
    from datetime import timedelta

    from django.utils import timezone

    from handover.models import Case
    from handover.services.retention import case_copies_purge_expired
    from memory.erasure import conversation_erase_by_visitor

    erased, staff = _case(shop, now=CLOSED_TIME)
    seq = _reply(erased, staff).seq
    conversation_erase_by_visitor(conversation_id=erased.conversation_id)
    assert not continuation_email_send(case_id=erased.pk, seq=seq)

    expired, staff2 = _case(shop, now=CLOSED_TIME, text="Mail bob@example.com")
    seq = _reply(expired, staff2).seq
    services.case_resolve(case_id=expired.pk, user=staff2, note="done", promise_confirmed=True)
    Case.objects.filter(pk=expired.pk).update(resolved_at=timezone.now() - timedelta(days=3650))
    assert case_copies_purge_expired(now=timezone.now()) >= 1
    assert not continuation_email_send(case_id=expired.pk, seq=seq)
    assert mail.outbox == []
