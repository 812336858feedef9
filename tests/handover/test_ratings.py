"""Satisfaction ratings (issue 18): the widget rates a resolved case over its socket; the
comment is redacted and masked; one rating per case; a closed conversation's hello says
whether to ask or thank; the first staff reply is timed on the case."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from handover.models import Case, Rating
from handover.services import case_resolve, handover_request, staff_reply
from handover.services.ratings import rating_give, rating_state
from memory.models import Conversation
from tests.factories import ConversationFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]


def _resolved_case(site, user):
    conv = ConversationFactory(site=site, texts=["Where is my order 55-1031?"])
    case = handover_request(conversation_id=conv.pk, trigger=Case.Trigger.VISITOR)
    staff_reply(case_id=case.pk, user=user, text="It left the warehouse today.")
    case_resolve(case_id=case.pk, user=user, note="Order 55-1031 shipped.")
    return conv, Case.objects.get(pk=case.pk)


@pytest.fixture
def staff(db):
    return UserFactory(username="sam", role="Staff", first_name="Sam")


@pytest.mark.asyncio
async def test_widget_rates_the_resolved_case_and_the_comment_is_redacted(site, staff, connect):
    conv, case = await database_sync_to_async(_resolved_case)(site, staff)
    c = await connect(site.key)
    welcome = await c.hello(session=conv.token)
    assert welcome["state"] == "closed"
    assert await c.recv() == {"type": "rating", "askable": True, "score": None}, (
        "a closed conversation with a resolved case: the widget asks"
    )
    await c.send(
        {
            "type": "rating",
            "score": 4,
            "comment": "Quick help. Card 4111 1111 1111 1111, mail me at anna@example.com",
        }
    )
    assert await c.recv() == {"type": "rating", "askable": True, "score": 4}
    rating = await database_sync_to_async(Rating.objects.get)(case=case)
    assert rating.score == 4 and rating.site_id == site.pk
    assert "4111" not in rating.comment, "never-kept values are removed"
    assert "anna@example.com" not in rating.comment, "kept-but-marked values are masked"
    assert rating.comment.startswith("Quick help.")

    # a second rating (another tab, a retry) keeps the first
    await c.send({"type": "rating", "score": 1, "comment": ""})
    assert await c.recv() == {"type": "rating", "askable": True, "score": 4}
    assert await database_sync_to_async(Rating.objects.count)() == 1
    await c.close()

    # the next visit thanks instead of asking
    again = await connect(site.key)
    await again.hello(session=conv.token)
    assert await again.recv() == {"type": "rating", "askable": True, "score": 4}
    await again.close()


@pytest.mark.asyncio
async def test_rating_a_conversation_without_resolved_case_stores_nothing(site, connect, fake_llm):
    c = await connect(site.key)
    await c.hello()
    await c.say("Hello", "m1")
    await c.answer()
    await c.send({"type": "rating", "score": 5})
    assert await c.recv() == {"type": "rating", "askable": False, "score": None}
    await c.send({"type": "rating", "score": 9})
    error = await c.recv()
    assert error["type"] == "error" and error["code"] == "bad_frame"
    assert await database_sync_to_async(Rating.objects.count)() == 0
    await c.close()


def test_first_staff_reply_is_timed_once(site, staff):
    conv, case = _resolved_case(site, staff)
    assert case.first_reply_at is not None and case.first_reply_at >= case.requested_at
    first = case.first_reply_at
    conv2 = ConversationFactory(site=site, texts=["A question"])
    case2 = handover_request(conversation_id=conv2.pk, trigger=Case.Trigger.VISITOR)
    staff_reply(case_id=case2.pk, user=staff, text="One")
    one = Case.objects.get(pk=case2.pk).first_reply_at
    staff_reply(case_id=case2.pk, user=staff, text="Two")
    assert Case.objects.get(pk=case2.pk).first_reply_at == one, "only the first reply counts"
    assert Case.objects.get(pk=case.pk).first_reply_at == first


def test_rating_window_and_state(site, staff, settings):
    conv, case = _resolved_case(site, staff)
    assert rating_state(conversation_id=conv.pk).askable
    settings.RATING_WINDOW_DAYS = 0
    Case.objects.filter(pk=case.pk).update(resolved_at=case.resolved_at.replace(year=2020))
    assert rating_give(conversation_id=conv.pk, score=5) is None, "too late to rate"
    assert not rating_state(conversation_id=conv.pk).askable
    assert Conversation.objects.filter(pk=conv.pk).exists()


def test_the_rating_shows_on_the_case_page(site, staff, client):
    conv, case = _resolved_case(site, staff)
    client.force_login(staff)
    url = reverse("admin:handover_case_change", args=[case.pk])
    assert 'id="case-rating"' not in client.get(url).content.decode()
    rating_give(conversation_id=conv.pk, score=2, comment="Slow. Write to anna@example.com")
    page = client.get(url).content.decode()
    assert 'id="case-rating"' in page and "2 / 5" in page and "Slow." in page
    assert "anna@example.com" not in page
