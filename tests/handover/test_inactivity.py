"""Quiet conversations (handover.services.inactivity, issue 32): one follow-up at the right
time, then the close with the case resolved and the rating asked; a visitor who comes back is
never closed; a case a person has is left alone unless the owner says so; both events in the
transcript and the webhooks. The clock is frozen in Europe/Berlin across the autumn clock
change (Sunday 25 October 2026, 03:00 CEST -> 02:00 CET), and the scan is the real Celery
task function, called directly."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from chatwidget.integrations.emit import webhook_hint_clear
from chatwidget.integrations.models import Webhook, WebhookDelivery, WebhookEvent
from handover import services
from handover.models import Case
from handover.services.inactivity import conversation_followup, followups_due
from handover.services.ratings import rating_state
from handover.tasks import inactivity_scan
from memory.models import Conversation, Turn, TurnRole
from memory.services import turn_append
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db

# 02:55 CEST on the night the clocks go back: ten minutes later the wall clock says 02:05 CET
START = datetime(2026, 10, 25, 0, 55, tzinfo=UTC)
EVENTS = [
    WebhookEvent.CONVERSATION_FOLLOWUP,
    WebhookEvent.CONVERSATION_RESOLVED,
    WebhookEvent.CASE_RESOLVED,
]


@pytest.fixture
def shop(site):
    site.time_zone = "Europe/Berlin"
    site.staff_hours = ""  # always: the case tests need a person available
    site.inactivity_followup_minutes = 10
    site.inactivity_resolve_minutes = 20
    site.save()
    Webhook.objects.create(site=site, url="https://hooks.example/x", events=[*EVENTS])
    webhook_hint_clear(site_id=site.pk)
    return site


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def scan() -> dict:
    return inactivity_scan()  # the task function itself, as beat runs it


def turns(conv) -> list[tuple[str, str]]:
    return list(Turn.objects.filter(conversation=conv).order_by("seq").values_list("role", "text"))


def events(conv) -> list[tuple[str, dict]]:
    import json

    return [
        (d.event, json.loads(d.body)["data"])
        for d in WebhookDelivery.objects.filter(conversation_ref=conv.pk).order_by("created_at")
    ]


def test_one_follow_up_at_the_right_time_then_the_close_across_the_clock_change(shop, clock):
    conv = ConversationFactory(site=shop, texts=["Do you ship to Austria?"], language="de")
    clock.move_to(START + timedelta(minutes=9, seconds=59))
    assert scan() == {"followups": 0, "resolved": 0}, "not before ten minutes"
    clock.move_to(START + timedelta(minutes=10))  # 02:05 CET: earlier on the wall clock
    assert scan() == {"followups": 1, "resolved": 0}
    assert turns(conv)[-1] == ("assistant", "Kann ich Ihnen sonst noch weiterhelfen?")
    clock.move_to(START + timedelta(minutes=15))
    assert scan() == {"followups": 0, "resolved": 0}, "never a second follow-up"
    clock.move_to(START + timedelta(minutes=29, seconds=59))
    assert scan() == {"followups": 0, "resolved": 0}, "resolved 20 minutes after the follow-up"
    clock.move_to(START + timedelta(minutes=30))
    assert scan() == {"followups": 0, "resolved": 1}
    conv.refresh_from_db()
    assert conv.state == "closed"
    assert turns(conv)[-1][0] == "system"
    assert turns(conv)[-1][1].startswith("Dieses Gespräch wurde beendet")
    assert [role for role, _ in turns(conv)].count("assistant") == 2, "one answer, one follow-up"
    assert not rating_state(conversation_id=conv.pk).askable, "no case: nothing to rate"
    clock.move_to(START + timedelta(hours=2))
    assert scan() == {"followups": 0, "resolved": 0}
    sent = events(conv)
    assert [name for name, _ in sent] == ["conversation.followup", "conversation.resolved"]
    followup, resolved = (data for _, data in sent)
    assert followup["conversation"] == conv.pk and followup["seq"] == conv.followup_seq
    assert followup["state"] == "bot"
    assert resolved == {
        "conversation": conv.pk,
        "case": None,
        "reason": "inactivity",
        "followup_seq": conv.followup_seq,
        "resolved_at": (START + timedelta(minutes=30)).isoformat(),
    }


def test_a_visitor_who_comes_back_is_not_resolved(shop, clock):
    conv = ConversationFactory(site=shop, texts=["Is the kurta washable?"])
    clock.move_to(START + timedelta(minutes=10))
    assert scan()["followups"] == 1
    clock.move_to(START + timedelta(minutes=25))
    turn_append(conversation_id=conv.pk, role=TurnRole.VISITOR, text="Yes, one more thing")
    clock.move_to(START + timedelta(minutes=50))
    assert scan() == {"followups": 0, "resolved": 0}, "the visitor wrote last: no follow-up"
    conv.refresh_from_db()
    assert conv.state == "bot"
    # the answer comes; a new quiet spell gets its own follow-up, the old one none again
    turn_append(conversation_id=conv.pk, role=TurnRole.ASSISTANT, text="Happy to help.")
    clock.move_to(START + timedelta(minutes=60))
    assert scan()["followups"] == 1
    followups = Turn.objects.filter(conversation=conv, client_id__startswith="~f:")
    assert followups.count() == 2
    # the follow-up itself never counts as "the visitor went quiet after the assistant"
    assert conversation_followup(conversation_id=conv.pk) is None


def test_a_case_a_person_has_is_left_alone_unless_the_owner_says_so(shop, clock, staff_user):
    conv = ConversationFactory(site=shop, texts=["Please call me back"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", reason="r")
    services.staff_reply(case_id=case.pk, user=staff_user, text="Sure, what is your number?")
    clock.move_to(START + timedelta(hours=1))
    assert scan() == {"followups": 0, "resolved": 0}
    assert Conversation.objects.get(pk=conv.pk).state == "human"

    shop.inactivity_staff_cases = True
    shop.save()
    clock.move_to(START + timedelta(minutes=10))  # the follow-up is due from the staff reply
    assert scan() == {"followups": 1, "resolved": 0}
    assert turns(conv)[-1] == ("system", "Is there anything else we can help you with?")
    clock.move_to(START + timedelta(minutes=30))
    assert scan() == {"followups": 0, "resolved": 1}
    case.refresh_from_db()
    assert case.status == Case.Status.RESOLVED and case.note.startswith("Resolved automatically")
    assert Conversation.objects.get(pk=conv.pk).state == "closed"
    assert rating_state(conversation_id=conv.pk).askable, "the widget asks for the rating"
    sent = dict(events(conv))
    assert sent["case.resolved"]["by"] == "inactivity"
    assert sent["conversation.resolved"]["case"] == case.pk


def test_a_waiting_case_and_an_open_promise_are_never_resolved(shop, clock, staff_user):
    shop.inactivity_staff_cases = True
    shop.save()
    waiting = ConversationFactory(site=shop, texts=["A person please"])
    services.handover_request(conversation_id=waiting.pk, trigger="visitor", reason="r")
    promised = ConversationFactory(site=shop, texts=["Call me: anna@example.com"])
    case = services.handover_request(conversation_id=promised.pk, trigger="visitor", reason="r")
    Case.objects.filter(pk=case.pk).update(callback_requested=True)
    services.staff_reply(case_id=case.pk, user=staff_user, text="We will call you.")
    for minutes in (10, 30, 50):
        clock.move_to(START + timedelta(minutes=minutes))
        assert scan()["resolved"] == 0
    assert Conversation.objects.get(pk=waiting.pk).state == "waiting"
    assert Conversation.objects.get(pk=promised.pk).state == "human", "the promise stands"


def test_the_scan_reads_a_bounded_batch_through_an_index(
    shop, clock, django_assert_max_num_queries
):
    for i in range(5):
        ConversationFactory(site=shop, texts=[f"Question {i}"])
    clock.move_to(START + timedelta(minutes=10))
    assert len(followups_due(site=shop, now=START + timedelta(minutes=10), batch=3)) == 3
    with django_assert_max_num_queries(1):
        followups_due(site=shop, now=START + timedelta(minutes=10), batch=3)
    # an hour late, a follow-up is no longer sent: the visitor is long gone
    assert followups_due(site=shop, now=START + timedelta(minutes=71)) == []
    shop.inactivity_followup_minutes = 0  # off: the site is not even read
    shop.save()
    assert scan() == {"followups": 0, "resolved": 0}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_connected_widget_sees_the_follow_up_and_the_close_live(site, connect):
    """Published like a staff reply: the follow-up as a message, then the closed state and
    a rating frame that asks nothing (no case), to every tab of the conversation."""
    from channels.db import database_sync_to_async
    from django.utils import timezone

    from handover.services.inactivity import inactivity_scan as scan_at

    site.inactivity_followup_minutes = 10
    site.inactivity_resolve_minutes = 20
    await database_sync_to_async(site.save)()
    visitor = await connect(site.key)
    await visitor.hello()
    await visitor.say("Do you ship to Austria?", "m1")
    await visitor.answer()
    later = timezone.now() + timedelta(minutes=11)
    await database_sync_to_async(scan_at)(now=later)
    followup, _ = await visitor.recv_until("message", role="assistant")
    assert followup["text"] == "Is there anything else I can help you with?"
    # the follow-up moved the conversation's last activity to now (the real clock)
    await database_sync_to_async(scan_at)(now=timezone.now() + timedelta(minutes=21))
    state, _ = await visitor.recv_until("state")
    assert state["state"] == "closed"
    notice, _ = await visitor.recv_until("message", role="system")
    assert notice["text"].startswith("This conversation was closed because there was no reply")
    rating, _ = await visitor.recv_until("rating")
    assert rating == {"type": "rating", "askable": False, "score": None}
