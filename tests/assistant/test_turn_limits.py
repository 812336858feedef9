"""The visitor's rate limits in the turn's hop (issue 30): their round trip to Redis runs
beside the message's redaction instead of before it, and a message they refuse still reads
and stores nothing."""

import pytest
from django.core.cache import caches

import memory.services
from chatwidget.assistant.turns import TurnOutcome, visitor_turn_receive
from chatwidget.platform.ratelimit import RateCount
from memory.models import Turn
from memory.services import visitor_message_receive
from tests.conftest import redis_cache_use

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(settings):
    redis_cache_use(settings, "test-turn-limits")
    caches["default"].clear()
    yield
    caches["default"].clear()


def _receive(site, conv_id, text, client_id, token=None):
    return visitor_turn_receive(
        site_id=site.id,
        address="10.0.0.7",
        session_key=str(conv_id or "socket-1"),
        token=token,
        client_id=client_id,
        text=text,
        language="en",
        profile_id=None,
        conversation_id=conv_id,
        prepare_answer=True,
    )


def _recording(monkeypatch, order: list[str]) -> None:
    """Note when the counts go out, when the message is redacted and when the counts'
    answer is read (the real functions run)."""
    enter, limited, redact = RateCount.__enter__, RateCount.limited, memory.services.redacted_new

    def entered(self):
        order.append("counts sent")
        return enter(self)

    def read(self):
        order.append("answer read")
        return limited(self)

    def redacted(*args, **kwargs):
        order.append("redacted")
        return redact(*args, **kwargs)

    monkeypatch.setattr(RateCount, "__enter__", entered)
    monkeypatch.setattr(RateCount, "limited", read)
    monkeypatch.setattr(memory.services, "redacted_new", redacted)


def test_the_limits_answer_is_read_after_the_redaction(site, redis_cache, monkeypatch):
    _, conv, _, _ = visitor_message_receive(site_id=site.id, token=None, client_id="a", text="Hi")
    order: list[str] = []
    _recording(monkeypatch, order)
    turn = _receive(site, conv.pk, "Is the kurta KU-2291-M in size L?", "m1")
    assert turn.outcome is TurnOutcome.ANSWER
    assert order[:3] == ["counts sent", "redacted", "answer read"]


def test_a_message_over_the_limit_is_refused_after_its_redaction(site, redis_cache, settings):
    settings.RATE_LIMIT_PER_SESSION = "2/60"
    _, conv, _, _ = visitor_message_receive(site_id=site.id, token=None, client_id="a", text="Hi")
    outcomes = [_receive(site, conv.pk, f"question {i}", f"m{i}").outcome for i in range(4)]
    assert outcomes == [TurnOutcome.ANSWER] * 2 + [TurnOutcome.RATE_LIMITED] * 2
    assert Turn.objects.filter(conversation=conv, role="visitor").count() == 3


@pytest.mark.parametrize(
    "text",
    [
        "Where is my order?",
        "482913",  # a bare number: its redaction reads the turn before (a code asked for?)
    ],
)
def test_a_refused_message_reads_and_stores_nothing(
    site, settings, text, django_assert_num_queries
):
    settings.RATE_LIMIT_PER_SESSION = "1/60"
    _, conv, token, _ = visitor_message_receive(
        site_id=site.id, token=None, client_id="a", text="Hi"
    )
    assert _receive(site, conv.pk, "first", "m1").outcome is TurnOutcome.ANSWER
    with django_assert_num_queries(0):
        assert _receive(site, conv.pk, text, "m2").outcome is TurnOutcome.RATE_LIMITED
    settings.RATE_LIMIT_PER_ADDRESS = "0/60"
    with django_assert_num_queries(0):  # a new socket with the session's token: no lookup
        refused = _receive(site, None, text, "m3", token=token)
    assert refused.outcome is TurnOutcome.RATE_LIMITED
    assert Turn.objects.filter(conversation=conv, role="visitor").count() == 2
