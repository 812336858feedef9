"""What the webhook delivery log keeps (issue 25): the case note masked like staff views
show it, the quoted text (reason, note, comment) gone with the visitor's erasure and with the
session purge, the rows gone after WEBHOOK_DELIVERY_RETENTION_DAYS; and the signing secret
shown to its owner once, never again in admin."""

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from chatwidget.integrations.emit import webhook_hint_clear
from chatwidget.integrations.models import Webhook, WebhookDelivery, WebhookEvent
from chatwidget.purge import retention_purge_all
from handover import services
from handover.services.ratings import rating_give
from memory.erasure import conversation_erase_by_visitor
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db

IBAN = "DE89 3704 0044 0532 0130 00"
REASON = "My order KU-2291-M arrived torn, anna@example.com"
NOTE = f"Refund sent to {IBAN}."
COMMENT = "Quick help, thanks! Call me on 0170 1234567"


@pytest.fixture
def hook(site):
    hook = Webhook.objects.create(
        site=site,
        url="http://127.0.0.1:9/hook",
        events=list(WebhookEvent.values),
        include_text=True,
    )
    webhook_hint_clear(site_id=site.pk)
    return hook


def _a_rated_case(site) -> int:
    """A conversation handed over, resolved with a note and rated with a comment."""
    conv = ConversationFactory(site=site, texts=["Hello, my parcel arrived torn."])
    staff = UserFactory(username="sam", role="Staff")
    case = services.handover_request(
        conversation_id=conv.pk, trigger="visitor", reason=REASON, now=OPEN_TIME
    )
    services.case_claim(case_id=case.pk, user=staff)
    services.case_resolve(case_id=case.pk, user=staff, note=NOTE)
    rating_give(conversation_id=conv.pk, score=5, comment=COMMENT)
    return conv.pk


def _quoted(conversation_id: int) -> dict[str, str]:
    """The text keys quoted by the conversation's deliveries, by event."""
    quoted = {}
    for event, body in WebhookDelivery.objects.filter(conversation_ref=conversation_id).values_list(
        "event", "body"
    ):
        data = json.loads(body)["data"]
        quoted.update({f"{event}:{k}": data[k] for k in ("reason", "note", "comment") if k in data})
    return quoted


def test_the_note_is_masked_and_the_text_goes_with_the_visitors_erasure(site, hook):
    conv_id = _a_rated_case(site)
    quoted = _quoted(conv_id)
    assert set(quoted) == {"case.waiting:reason", "case.resolved:note", "rating.given:comment"}
    assert "Refund sent to" in quoted["case.resolved:note"]
    everything = " ".join(WebhookDelivery.objects.values_list("body", flat=True))
    for private in (IBAN, IBAN.replace(" ", ""), "anna@example.com", "0170 1234567"):
        assert private not in everything

    counts = conversation_erase_by_visitor(conversation_id=conv_id)

    assert counts["webhook_texts"] == 3
    assert _quoted(conv_id) == {}
    rows = WebhookDelivery.objects.filter(conversation_ref=conv_id)
    assert rows.count() == 4, "the log keeps ids, counts and times"
    everything = " ".join(rows.values_list("body", flat=True))
    for word in ("torn", "Refund", "thanks", "KU-2291-M"):
        assert word not in everything
    assert json.loads(rows.get(event="rating.given").body)["data"]["score"] == 5


def test_the_session_purge_takes_the_text_and_the_rows_go_after_their_period(site, hook, settings):
    settings.WEBHOOK_DELIVERY_RETENTION_DAYS = 90
    conv_id = _a_rated_case(site)
    assert _quoted(conv_id)

    later = timezone.now() + timedelta(days=40)  # session and run-off over, the rows young
    counts = retention_purge_all(now=later)

    assert counts.conversations == 1 and counts.webhook_texts == 3
    assert _quoted(conv_id) == {}
    assert WebhookDelivery.objects.count() == 4 and counts.webhook_deliveries == 0

    counts = retention_purge_all(now=timezone.now() + timedelta(days=91))
    assert counts.webhook_deliveries == 4
    assert not WebhookDelivery.objects.exists()


def test_the_case_run_off_takes_the_reason_out_of_deliveries_while_the_visitor_chats_on(site, hook):
    conv_id = _a_rated_case(site)
    later = timezone.now() + timedelta(days=60)
    from memory.models import Conversation

    Conversation.objects.filter(pk=conv_id).update(last_activity_at=later)  # still chatting
    counts = retention_purge_all(now=later)
    assert counts.conversations == 0 and counts.cases == 1
    assert _quoted(conv_id) == {}


# --- the signing secret in admin ---------------------------------------------------------------


@pytest.fixture
def owner_client(client):
    client.force_login(get_user_model().objects.create_superuser("owner", "o@shop.test", "pw"))
    return client


def test_the_secret_is_shown_once_on_adding_and_only_as_a_hint_afterwards(site, owner_client):
    response = owner_client.post(
        "/admin/integrations/webhook/add/",
        {
            "site": site.pk,
            "url": "https://receiver.example/hook",
            "events": ["case.waiting"],
            "active": "on",
            "secret": "chosen-by-a-guesser",  # not a field: ignored
        },
    )
    hook = Webhook.objects.get()
    assert response.status_code == 200
    assert hook.secret != "chosen-by-a-guesser" and len(hook.secret) >= 40
    assert hook.secret in response.content.decode()
    assert "no-store" in response["Cache-Control"]

    page = owner_client.get(f"/admin/integrations/webhook/{hook.pk}/change/").content.decode()
    assert hook.secret not in page and hook.secret[-4:] in page
    listing = owner_client.get("/admin/integrations/webhook/").content.decode()
    assert hook.secret not in listing

    owner_client.post(
        f"/admin/integrations/webhook/{hook.pk}/change/",
        {"site": site.pk, "url": hook.url, "events": ["case.waiting"], "secret": "x"},
    )
    hook.refresh_from_db()
    assert hook.secret != "x"


def test_rotating_shows_the_new_secret_once_and_the_old_one_stops(site, hook, owner_client):
    old = hook.secret
    response = owner_client.post(
        "/admin/integrations/webhook/",
        {"action": "secret_rotate", "_selected_action": [hook.pk]},
    )
    hook.refresh_from_db()
    assert hook.secret != old
    content = response.content.decode()
    assert hook.secret in content and old not in content
    assert "no-store" in response["Cache-Control"]
    assert (
        hook.secret
        not in owner_client.get(f"/admin/integrations/webhook/{hook.pk}/change/").content.decode()
    )


def test_the_migration_finds_the_conversation_of_deliveries_written_before_it(site, hook):
    import importlib

    from django.apps import apps

    migration = importlib.import_module(
        "chatwidget.integrations.migrations.0002_delivery_conversation_ref"
    )
    body = {"id": "x", "event": "case.waiting", "site": site.pk, "data": {"conversation": 41}}
    old = WebhookDelivery.objects.create(hook=hook, event="case.waiting", body=json.dumps(body))
    odd = WebhookDelivery.objects.create(hook=hook, event="case.waiting", body="not json")
    migration.conversation_refs_fill(apps, None)
    old.refresh_from_db()
    odd.refresh_from_db()
    assert (old.conversation_ref, odd.conversation_ref) == (41, None)
