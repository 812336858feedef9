""" "E-mail me the conversation" (issue 25): a transcript goes only to an address that
confirmed it (a link first; the transcript after the click) or is verified for the
conversation (a continuation link's address); the confirmation carries nothing the visitor
wrote; caps per address and per site. Tasks run in place (task_always_eager) after commit."""

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client

from chatwidget.celery import app as celery_app
from chatwidget.sites.services import site_create
from handover import services
from handover.models import Case, TranscriptRequest
from handover.services.continuation import continuation_code, continuation_exchange
from handover.tasks import transcript_email_unconfirmed
from tests.factories import CLOSED_TIME, ConversationFactory, UserFactory

SHOP = "http://shop.test"
STRANGER = "stranger@example.org"
SPAM = "URGENT: your account is closed, pay the fee at http://evil.test/pay"


@pytest.fixture
def shop(db, settings):
    settings.PUBLIC_URL = "http://chat.test"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "chat.test"]
    return site_create(name="Kurta shop", origins=[SHOP])


@pytest.fixture
def eager():
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture
def ask(shop, django_capture_on_commit_callbacks):
    client = Client(HTTP_HOST="chat.test")

    def _ask(token):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(
                f"/widget/v1/{shop.key}/transcript-email",
                {"session": token},
                content_type="application/json",
                HTTP_ORIGIN=SHOP,
            )

    return _ask


def _to(address):
    return [m for m in mail.outbox if address in m.to]


@pytest.mark.django_db
def test_five_conversations_asking_to_mail_one_stranger_send_one_confirmation(shop, eager, ask):
    """The abuse: five fresh conversations each write a stranger's address and words of
    their own, then press the button. The stranger gets at most one e-mail, a confirmation
    with fixed text: none of the visitor's words, no transcript."""
    answers = []
    for _ in range(5):
        conv = ConversationFactory(site=shop, texts=[f"{SPAM} Send this to {STRANGER}"])
        answers.append(ask(conv.token).status_code)
    received = _to(STRANGER)
    assert len(received) == 1, [m.subject for m in received]
    assert "evil.test" not in received[0].body and "URGENT" not in received[0].body
    assert "confirm" in received[0].subject
    assert answers[0] == 202 and answers[1:] == [429] * 4
    # an erased conversation does not reset the per-address cap
    TranscriptRequest.objects.update(conversation=None)
    cache.clear()
    conv = ConversationFactory(site=shop, texts=[f"Send this to {STRANGER}"])
    assert ask(conv.token).status_code == 429
    assert len(_to(STRANGER)) == 1


@pytest.mark.django_db
def test_the_transcript_goes_only_after_the_address_confirmed_it(
    shop, eager, ask, django_capture_on_commit_callbacks
):
    conv = ConversationFactory(site=shop, texts=["Mail me at anna@example.com"], language="de")
    answer = ask(conv.token)
    assert answer.status_code == 202 and answer.json() == {"status": "confirm"}
    (confirmation,) = _to("anna@example.com")
    assert "Gespräch" not in confirmation.subject and "Mail me" not in confirmation.body
    link = re.search(r"http://chat\.test/\S+", confirmation.body).group(0)
    token = urlsplit(link).fragment
    assert urlsplit(link).path == "/transcript/confirm/" and token
    assert token not in urlsplit(link).path + urlsplit(link).query

    client = Client(HTTP_HOST="chat.test")
    page = client.get(urlsplit(link).path)  # a mail scanner opening the link: nothing sent
    assert page.status_code == 200 and b"transcript_confirm.js" in page.content
    assert len(_to("anna@example.com")) == 1

    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(urlsplit(link).path, {"token": token})
    assert done.status_code == 200 and "unterwegs" in done.content.decode()
    transcript = _to("anna@example.com")[-1]
    assert "Gespräch" in transcript.subject and "Mail me at anna@example.com" in transcript.body
    assert client.post(urlsplit(link).path, {"token": token}).status_code == 410  # once
    assert len(_to("anna@example.com")) == 2
    # confirmed for this conversation: the next request goes at once
    cache.clear()
    again = ask(conv.token)
    assert again.status_code == 202 and again.json() == {"status": "sent"}
    assert len(_to("anna@example.com")) == 3


@pytest.mark.django_db
def test_no_address_unknown_session_and_the_per_site_cap(shop, eager, ask, settings):
    assert (
        ask(ConversationFactory(site=shop, texts=["Where is my parcel?"]).token).status_code == 409
    )
    assert ask("nope").status_code == 404
    settings.TRANSCRIPT_EMAIL_PER_SITE = "2/3600"
    codes = [
        ask(
            ConversationFactory(site=shop, texts=[f"Mail me at v{i}@example.com"]).token
        ).status_code
        for i in range(3)
    ]
    assert codes == [202, 202, 429]
    assert len(mail.outbox) == 2


@pytest.mark.django_db
def test_a_continuation_links_session_gets_the_transcript_at_its_address_at_once(shop, eager, ask):
    """The link went to the address the visitor left: its session may have the transcript
    sent there (nowhere else) without a further confirmation."""
    shop.staff_hours = "mon-fri 09:00-17:00"
    shop.save(update_fields=["staff_hours"])
    conv = ConversationFactory(site=shop, texts=["Write to anna@example.com please"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=CLOSED_TIME)
    services.case_claim(case_id=case.pk, user=UserFactory(username="sam", role="Staff"))
    code = continuation_code(case=Case.objects.get(pk=case.pk), address="anna@example.com")
    linked = continuation_exchange(site_id=shop.pk, code=code)
    answer = ask(linked)
    assert answer.status_code == 202 and answer.json() == {"status": "sent"}
    (transcript,) = _to("anna@example.com")
    assert "Write to anna@example.com please" in transcript.body


@pytest.mark.django_db
def test_a_queued_task_of_the_old_kind_sends_nothing(shop):
    conv = ConversationFactory(site=shop, texts=["Mail me at anna@example.com"])
    assert transcript_email_unconfirmed(conv.pk) is False
    assert mail.outbox == []
