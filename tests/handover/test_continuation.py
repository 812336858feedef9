"""E-mail continuation (issues 18 and 25), in-process: who gets an e-mail, in which
language, and the link's one-time code: in the URL fragment only (no request line carries
it), spent once in the database, bound to the address it was sent to, exchanged for a linked
session that sees contact details masked while the visitor's own session keeps working.
The real worker and SMTP server: tests/integration/test_continuation_worker.py; Daphne's
access log: test_continuation_access_log.py."""

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from chatwidget.platform.presence import visitor_presence_mark
from chatwidget.sites.services import site_create
from handover import services
from handover.models import Case, ContinuationCode
from handover.services.continuation import (
    continuation_code,
    continuation_email_send,
    continuation_exchange,
)
from memory.models import Conversation, LinkedSession
from memory.selectors import conversation_get_by_token
from tests.factories import CLOSED_TIME, ConversationFactory, UserFactory

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
    case.visitor_token = conv.token
    return case, staff


def _reply(case, staff, text="Your kurta ships today."):
    return services.staff_reply(case_id=case.pk, user=staff, text=text)


def _code(case) -> str:
    case = Case.objects.get(pk=case.pk)
    return continuation_code(case=case, address="anna@example.com")


def _exchange(client, site, code, session=None):
    return client.post(
        f"/widget/v1/{site.key}/continue",
        {"code": code, "session": session},
        content_type="application/json",
        HTTP_ORIGIN=SHOP,
    )


@pytest.mark.django_db
def test_an_offline_visitor_who_left_an_address_gets_the_reply_in_their_language(shop):
    case, staff = _case(shop, now=CLOSED_TIME, language="de")
    turn = _reply(case, staff)
    assert continuation_email_send(case_id=case.pk, seq=turn.seq)
    message = mail.outbox[-1]
    assert message.to == ["anna@example.com"]
    assert "Your kurta ships today." in message.body
    assert "Kurta shop" in message.subject and "geantwortet" in message.subject
    link = re.search(r"http://shop\.test/\S+", message.body).group(0)
    assert link.startswith(f"{SHOP}/#cw-continue=") and "session" not in link


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "es", "it", "nl", "pl"])
def test_the_continuation_email_speaks_every_visitor_language(shop, language):
    case, staff = _case(shop, now=CLOSED_TIME, language=language)
    assert continuation_email_send(case_id=case.pk, seq=_reply(case, staff).seq)
    message = mail.outbox[-1]
    with translation.override(language):
        subject = gettext("%(site)s: the team has answered you") % {"site": "Kurta shop"}
        footer = gettext(
            "You get this e-mail because you left your address in the chat for this answer. "
            "We use it only for this conversation."
        )
    assert subject != "Kurta shop: the team has answered you"
    assert message.subject == subject
    assert footer in " ".join(message.body.split()) and "Our team has answered" not in message.body


@pytest.mark.django_db
def test_no_email_while_the_widget_is_open_or_without_consent(shop):
    case, staff = _case(shop, now=CLOSED_TIME)
    visitor_presence_mark(conversation_id=case.conversation_id, channel="w1", present=True)
    assert not continuation_email_send(case_id=case.pk, seq=_reply(case, staff).seq)
    visitor_presence_mark(conversation_id=case.conversation_id, channel="w1", present=False)
    assert continuation_email_send(case_id=case.pk, seq=_reply(case, staff, "More.").seq)
    # without an e-mail address among the contact details: nothing to send to
    phone, staff2 = _case(shop, now=CLOSED_TIME, text="Call me on +49 30 1234567")
    assert not continuation_email_send(case_id=phone.pk, seq=_reply(phone, staff2).seq)
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_the_code_is_in_no_request_line_and_is_spent_once_in_the_database(shop):
    """What a browser sends when the e-mail's link is clicked is the link without its
    fragment: the code must not be in that path or query (access logs, Referer). The widget
    then posts it in a body; used once, it stays used when the cache forgets everything."""
    case, staff = _case(shop, now=CLOSED_TIME)
    assert continuation_email_send(case_id=case.pk, seq=_reply(case, staff).seq)
    link = re.search(r"http://\S+", mail.outbox[-1].body).group(0)
    code = urlsplit(link).fragment.removeprefix("cw-continue=")
    assert len(code) >= 32
    requested = urlsplit(link)  # what the browser asks the server for
    assert code not in requested.path and code not in requested.query
    assert code not in mail.outbox[-1].body.replace(link, "")  # only in the link's fragment

    client = Client(HTTP_HOST="chat.test")
    refused = client.post(
        f"/widget/v1/{shop.key}/continue",
        {"code": code},
        content_type="application/json",
        HTTP_ORIGIN="http://evil.test",
    )
    assert refused.status_code == 403
    answer = _exchange(client, shop, code)
    assert answer.status_code == 200 and answer["Access-Control-Allow-Origin"] == SHOP
    token = answer.json()["session"]
    assert conversation_get_by_token(site_id=shop.pk, token=token).pk == case.conversation_id
    row = ContinuationCode.objects.get(case=case)
    assert row.used_at is not None and row.session is not None
    assert code not in row.code_hash and "anna" not in row.address_hash
    assert _exchange(client, shop, code).status_code == 404  # single use
    cache.clear()  # a Redis restart: the database still knows the code was used
    assert _exchange(client, shop, code).status_code == 404


@pytest.mark.django_db
def test_the_exchange_leaves_the_visitors_own_session_working(shop):
    case, _ = _case(shop, now=CLOSED_TIME)
    own = case.visitor_token
    linked = continuation_exchange(site_id=shop.pk, code=_code(case))
    assert linked and linked != own
    assert conversation_get_by_token(site_id=shop.pk, token=own).pk == case.conversation_id
    assert conversation_get_by_token(site_id=shop.pk, token=linked).pk == case.conversation_id
    # the link opened in the browser that holds the conversation: its session stays as it is
    again = continuation_exchange(site_id=shop.pk, code=_code(case), current=own)
    assert again == own
    assert LinkedSession.objects.filter(conversation_id=case.conversation_id).count() == 1


@pytest.mark.django_db
def test_the_code_is_bound_to_the_address_it_was_sent_to(shop):
    case, _ = _case(shop, now=CLOSED_TIME)
    code = _code(case)
    # the case's address is no longer the one the link went to (changed, or erased)
    Case.objects.filter(pk=case.pk).update(contact=[{"kind": "email", "value": "eve@evil.test"}])
    assert continuation_exchange(site_id=shop.pk, code=code) is None
    Case.objects.filter(pk=case.pk).update(contact=[{"kind": "email", "value": "ANNA@example.com"}])
    assert continuation_exchange(site_id=shop.pk, code=code) is not None  # same mailbox


@pytest.mark.django_db
def test_a_forged_expired_or_foreign_code_is_refused(shop):
    case, _ = _case(shop, now=CLOSED_TIME)
    other = site_create(name="Other", origins=["http://other.test"])
    code = _code(case)
    assert continuation_exchange(site_id=other.pk, code=code) is None
    assert continuation_exchange(site_id=shop.pk, code=code[:-2] + "xx") is None
    assert continuation_exchange(site_id=shop.pk, code="") is None
    ContinuationCode.objects.update(expires_at="2020-01-01T00:00:00Z")
    assert continuation_exchange(site_id=shop.pk, code=code) is None


@pytest.mark.django_db
def test_the_old_link_form_answers_a_page_and_exchanges_nothing(shop):
    """E-mails from before the change carry `/continue/<code>/`: the page says the link no
    longer works; nothing is spent, nothing is forwarded with the code."""
    case, _ = _case(shop, now=CLOSED_TIME)
    code = _code(case)
    response = Client(HTTP_HOST="chat.test").get(f"/continue/{code}/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200 and "Location" not in response
    assert code not in response.content.decode()
    assert "funktioniert nicht mehr" in response.content.decode()
    assert response["Referrer-Policy"] == "no-referrer"
    assert ContinuationCode.objects.get(case=case).used_at is None
    assert not LinkedSession.objects.exists()


@pytest.mark.django_db
def test_a_linked_session_exports_contact_details_masked(shop):
    """Whoever holds a code gets the conversation without plaintext contact details: the
    linked session's export is masked; the visitor's own session exports as typed."""
    case, _ = _case(shop, now=CLOSED_TIME)
    linked = continuation_exchange(site_id=shop.pk, code=_code(case))
    client = Client(HTTP_HOST="chat.test")

    def export(token):
        response = client.post(
            f"/widget/v1/{shop.key}/export",
            {"session": token, "format": "txt"},
            content_type="application/json",
            HTTP_ORIGIN=SHOP,
        )
        assert response.status_code == 200
        return response.content.decode()

    assert "anna@example.com" in export(case.visitor_token)
    masked = export(linked)
    assert "anna@example.com" not in masked and "Write to" in masked


@pytest.mark.django_db(transaction=True)
async def test_a_linked_session_sees_the_transcript_masked(shop, connect):
    from asgiref.sync import sync_to_async

    case, staff = await sync_to_async(_case)(shop, now=CLOSED_TIME)
    code = await sync_to_async(_code)(case)
    linked = await sync_to_async(continuation_exchange)(site_id=shop.pk, code=code)
    own = await connect(shop.key)
    welcome = await own.hello(session=case.visitor_token)
    assert "anna@example.com" in welcome["turns"][0]["text"]
    other = await connect(shop.key)
    welcome = await other.hello(session=linked)
    assert welcome["resumed"] is True
    assert "anna@example.com" not in welcome["turns"][0]["text"]
    # a live message with contact details reaches the linked session masked too
    await sync_to_async(_reply)(case, staff, "We wrote to anna@example.com.")
    live, _ = await other.recv_until("message", role="staff")
    assert "anna@example.com" not in live["text"] and "We wrote to" in live["text"]


@pytest.mark.django_db
def test_the_address_goes_with_erasure_and_the_case_run_off(shop):
    from datetime import timedelta

    from django.utils import timezone

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
