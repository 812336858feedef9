"""The hot path of a turn (tests/bench): the answer's seq is reserved in one statement, and only
while the bot has the conversation; the visitor's message reports the state it was committed
under without reading the conversation again."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.models import Conversation, ConversationState
from memory.reservations import answer_seq_reserve
from memory.services import turn_append, visitor_message_receive

pytestmark = pytest.mark.django_db


def _first_message(site):
    return visitor_message_receive(site_id=site.id, token=None, client_id="a", text="Hello")


def test_answer_seq_follows_the_visitor_turn_and_a_failed_answer_leaves_a_gap(site):
    result, conv, _, _ = _first_message(site)
    with CaptureQueriesContext(connection) as queries:
        seq, language = answer_seq_reserve(conversation_id=conv.pk)
    assert seq == result.turn.seq + 1 and language == conv.language
    if connection.vendor == "postgresql":
        assert len(queries) == 1, "state check and reservation in one round trip"
    retry, _ = answer_seq_reserve(conversation_id=conv.pk)  # the first answer failed
    assert retry == seq + 1
    turn_append(conversation_id=conv.pk, role="assistant", text="Hi there.", seq=retry)
    later = turn_append(conversation_id=conv.pk, role="visitor", text="More", client_id="b")
    assert later.turn.seq == retry + 1, "seqs keep increasing past reserved numbers"


@pytest.mark.parametrize(
    "state", [ConversationState.WAITING, ConversationState.HUMAN, ConversationState.CLOSED]
)
def test_no_answer_seq_once_the_bot_must_be_silent(site, state):
    _, conv, _, _ = _first_message(site)
    Conversation.objects.filter(pk=conv.pk).update(state=state)
    before = Conversation.objects.get(pk=conv.pk).next_seq
    assert answer_seq_reserve(conversation_id=conv.pk) is None
    assert Conversation.objects.get(pk=conv.pk).next_seq == before, "nothing was reserved"


def test_no_answer_seq_for_an_erased_conversation(site):
    _, conv, _, _ = _first_message(site)
    Conversation.objects.filter(pk=conv.pk).delete()
    assert answer_seq_reserve(conversation_id=conv.pk) is None


def test_message_reports_the_state_it_was_committed_under(site):
    _, conv, token, _ = _first_message(site)
    Conversation.objects.filter(pk=conv.pk).update(state=ConversationState.WAITING)
    result, again, new_token, _ = visitor_message_receive(
        site_id=site.id, token=token, client_id="b", text="Still there?"
    )
    assert result.created and new_token is None
    assert again.pk == conv.pk and again.state == ConversationState.WAITING
    # a retry of the same client id reads the state afresh
    Conversation.objects.filter(pk=conv.pk).update(state=ConversationState.HUMAN)
    retry, again, _, _ = visitor_message_receive(
        site_id=site.id, token=token, client_id="b", text="Still there?"
    )
    assert not retry.created and again.state == ConversationState.HUMAN
