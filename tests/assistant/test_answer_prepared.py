"""The real-time path of issue 14: a visitor's message reaches the model after one thread
hop and one transaction. The turn is stored, the answer's seq reserved and its context built
in the hop that acks the message (`prepare_answer`); the answer and its trace are stored in one
transaction. The counts below are the statements of that path: a change that adds a round trip
to every message shows up here."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chatwidget.assistant.answers import _finish, answer_client_id
from chatwidget.assistant.turns import TurnOutcome, visitor_turn_receive
from memory.condense.scheduling import condense_may_be_due
from memory.condense.service import core_condense
from memory.models import ContextTrace, Conversation, ConversationState, DailyStat, Turn
from memory.services import visitor_message_receive
from tests.fakellm import Reply

pytestmark = pytest.mark.django_db


def _receive(site, conv_id, text, client_id, prepare=True, on_prepared=None):
    return visitor_turn_receive(
        site_id=site.id,
        address="10.0.0.9",
        session_key=str(conv_id),
        token=None,
        client_id=client_id,
        text=text,
        language="en",
        profile_id=None,
        conversation_id=conv_id,
        prepare_answer=prepare,
        on_prepared=on_prepared,
    )


def _conversation(site):
    _, conv, _, _ = visitor_message_receive(
        site_id=site.id, token=None, client_id="first", text="Hello"
    )
    return conv


@pytest.mark.django_db(transaction=True)  # real transactions: no test savepoints counted
def test_message_to_model_ready_in_one_transaction(site):
    conv = _conversation(site)
    _receive(site, conv.pk, "Warm the site's cached settings", "m0")  # actions, knowledge
    Conversation.objects.filter(pk=conv.pk).update(state=ConversationState.BOT)
    with CaptureQueriesContext(connection) as queries:
        turn = _receive(site, conv.pk, "Is the kurta KU-2291-M in size L?", "m1")
    sql = [q["sql"] for q in queries]
    assert turn.outcome is TurnOutcome.ANSWER and turn.prepared is not None
    assert turn.prepared.seq == turn.seq + 1, "the answer's seq is reserved with the turn"
    assert turn.prepared.built.messages[-1] == {
        "role": "user",
        "content": "Is the kurta KU-2291-M in size L?",
    }
    # one transaction: lock+read (with the site), then on PostgreSQL one statement for the
    # turn (its client id checked by its INSERT's ON CONFLICT), the counters (with the
    # reservation) and the day's count (memory.turn_sql; elsewhere three); then the context
    # (no core yet, so only the newest turns: on PostgreSQL read with the locked row),
    # still inside it: the model request starts before the commit (issue 30)
    assert sql[0] == "BEGIN" and sql[-1] == "COMMIT", sql
    assert len(sql) == (4 if connection.vendor == "postgresql" else 7), sql
    assert sum("ON CONFLICT" in s for s in sql) == 1, "the client id's check is the INSERT"
    assert sum("FOR UPDATE" in s for s in sql) == (connection.vendor == "postgresql")
    assert not any(s.startswith('SELECT "memory_core"') for s in sql), "no core read of its own"
    assert cache.get(f"answering:{conv.pk}:{turn.seq}") == turn.prepared.owner, "lease held"
    assert Conversation.objects.get(pk=conv.pk).next_seq == turn.seq + 2


@pytest.mark.django_db(transaction=True)
def test_the_current_core_is_read_with_the_conversation(site):
    """A conversation with a condensed core: the core's values come with the turn's locked
    read of the conversation (one statement), so the build needs no query for it."""
    conv = _conversation(site)
    text = "I need the cotton kurta KU-2291-M in size L, delivered to Hamburg."
    Turn.objects.bulk_create(
        Turn(conversation=conv, seq=seq, role="visitor" if seq % 2 else "assistant", text=text,
             token_count=16)
        for seq in range(2, 42)
    )  # fmt: skip
    Conversation.objects.filter(pk=conv.pk).update(next_seq=42, state=ConversationState.BOT)
    core = core_condense(conversation_id=conv.pk)
    assert core is not None and Conversation.objects.get(pk=conv.pk).core_version == core.version
    _receive(site, conv.pk, "Warm the site's cached settings", "m0")  # actions, knowledge
    with CaptureQueriesContext(connection) as queries:
        turn = _receive(site, conv.pk, "And in blue?", "m1")
    sql = [q["sql"] for q in queries]
    built = turn.prepared.built
    assert built.trace.core_version == core.version
    assert built.trace.core_covers_through == core.covers_through_seq
    assert any("KU-2291-M" in m["content"] for m in built.messages if m["role"] == "user")
    assert not any(s.startswith('SELECT "memory_core"') for s in sql), sql
    # the core and the newest turns with the locked row (PostgreSQL)
    assert len(sql) == (4 if connection.vendor == "postgresql" else 7), sql


@pytest.mark.django_db(transaction=True)
def test_answer_and_trace_stored_in_one_transaction(site):
    conv = _conversation(site)
    turn = _receive(site, conv.pk, "Do you ship to Vienna?", "m1")
    p = turn.prepared
    with CaptureQueriesContext(connection) as queries:
        _finish(conv.pk, turn.seq, p.seq, "Yes, we do.", p.owner, built=p.built)
    sql = [q["sql"] for q in queries]
    # one transaction: trace, lock, then the turn with its client-id check, the counters and
    # the day's count (one statement on PostgreSQL, three elsewhere); no savepoint, no
    # separate transaction for the trace
    expected = 5 if connection.vendor == "postgresql" else 7
    assert sql[0] == "BEGIN" and sql[-1] == "COMMIT" and len(sql) == expected, sql
    assert not any("SAVEPOINT" in s for s in sql)
    answer = Turn.objects.get(conversation=conv, seq=p.seq)
    assert answer.client_id == answer_client_id(turn.seq) and answer.text == "Yes, we do."
    assert ContextTrace.objects.filter(conversation=conv, request_seq=turn.seq).exists()
    assert cache.get(f"answering:{conv.pk}:{turn.seq}") is None, "lease released"
    day = DailyStat.objects.get(site=site)
    assert (day.conversations, day.visitor_turns, day.assistant_turns) == (1, 2, 1)
    assert Conversation.objects.get(pk=conv.pk).next_seq == p.seq + 1


@pytest.mark.django_db(transaction=True)
def test_the_days_first_turn_creates_its_count(site):
    """The combined statement counts into today's row; the day's first turn creates it."""
    conv = _conversation(site)  # creates today's row
    DailyStat.objects.all().delete()  # as if the day had just begun
    turn = _receive(site, conv.pk, "Still open?", "m1")
    _finish(conv.pk, turn.seq, turn.prepared.seq, "Yes.", turn.prepared.owner)
    _receive(site, conv.pk, "Thanks", "m2")
    day = DailyStat.objects.get(site=site)
    assert (day.visitor_turns, day.assistant_turns) == (2, 1)
    conv.refresh_from_db()
    assert conv.next_seq == turn.seq + 4 and conv.last_activity_at is not None


def test_the_hint_comes_before_the_prepared_answer(site):
    conv = _conversation(site)
    turn = _receive(site, conv.pk, "my card is 4111 1111 1111 1111", "m1")
    assert turn.hint is not None and turn.hint["seq"] == turn.seq + 1
    assert turn.prepared.seq == turn.seq + 2, "visitor, hint, answer: in that order"


@pytest.mark.parametrize("state", [ConversationState.WAITING, ConversationState.HUMAN])
def test_nothing_reserved_while_the_team_has_the_conversation(site, state):
    conv = _conversation(site)
    Conversation.objects.filter(pk=conv.pk).update(state=state)
    turn = _receive(site, conv.pk, "Anyone there?", "m1")
    assert turn.outcome is TurnOutcome.CASE_UPDATE and turn.prepared is None
    assert Conversation.objects.get(pk=conv.pk).next_seq == turn.seq + 1, "no seq reserved"


def test_a_lease_taken_first_leaves_the_answer_to_its_holder(site):
    conv = _conversation(site)
    request_seq = Conversation.objects.get(pk=conv.pk).next_seq
    cache.add(f"answering:{conv.pk}:{request_seq}", "a-recovering-tab", timeout=5)
    turn = _receive(site, conv.pk, "Hello again", "m1")
    assert turn.seq == request_seq and turn.outcome is TurnOutcome.ANSWER
    assert turn.prepared is None, "the holder answers; this socket would find it busy"


def test_a_retry_is_not_prepared_again(site):
    conv = _conversation(site)
    first = _receive(site, conv.pk, "Hello again", "m1")
    again = _receive(site, conv.pk, "Hello again", "m1")
    assert first.prepared is not None
    assert again.outcome is TurnOutcome.ANSWER_IF_UNANSWERED and again.prepared is None
    assert again.seq == first.seq


def test_condensation_check_needs_no_query_until_it_can_be_due():
    # window 12, 1 minimum exchange, after 6: due from 18 uncovered turns on
    assert not condense_may_be_due(uncovered_at_most=17, window=12, min_exchanges=1, after=6)
    assert condense_may_be_due(uncovered_at_most=18, window=12, min_exchanges=1, after=6)
    # the minimum exchanges widen a small window: 4 exchanges and the request, then 1
    assert not condense_may_be_due(uncovered_at_most=9, window=2, min_exchanges=4, after=1)
    assert condense_may_be_due(uncovered_at_most=10, window=2, min_exchanges=4, after=1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_message_during_an_answer_waits_for_it_in_its_context(site, connect, fake_llm):
    """A second message while the first answer streams is not prepared early: its context is
    built after the first answer is stored, so the model sees that answer."""
    fake_llm.script.append(Reply("The first answer.", first_token_ms=300))
    fake_llm.script.append(Reply("The second answer."))
    c = await connect(site.key)
    await c.hello()
    await c.say("First question", "m1")
    await c.say("Second question", "m2")
    finals = []
    while len(finals) < 2:
        final, _ = await c.answer()
        finals.append(final["text"])
    assert finals == ["The first answer.", "The second answer."]
    second = fake_llm.requests[-1]["messages"]
    assert {"role": "assistant", "content": "The first answer."} in second
    assert second[-1] == {"role": "user", "content": "Second question"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_prepared_answer_is_stored_once_with_its_trace(site, connect, fake_llm):
    fake_llm.script.append(Reply("Two days."))
    c = await connect(site.key)
    await c.hello()
    ack = await c.say("When does it ship?", "m1")
    final, _ = await c.answer()
    assert final["seq"] == ack["seq"] + 1 and final["text"] == "Two days."
    await asyncio.sleep(0.1)
    rows = await database_sync_to_async(
        lambda: list(Turn.objects.order_by("seq").values_list("role", "client_id"))
    )()
    assert rows == [("visitor", "m1"), ("assistant", answer_client_id(ack["seq"]))]
    assert await database_sync_to_async(ContextTrace.objects.count)() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_messages_renew_the_group_but_mark_presence_once(
    site, connect, fake_llm, monkeypatch
):
    """Presence is marked when the socket joins (and by the renewer), not per message: each
    mark is a thread hop and two cache round trips that a message does not need."""
    from chatwidget.platform import presence

    marks = []
    original = presence.visitor_presence_mark

    def counted(**kwargs):
        marks.append(kwargs["present"])
        return original(**kwargs)

    monkeypatch.setattr(presence, "visitor_presence_mark", counted)
    c = await connect(site.key)
    await c.hello()
    for n in range(3):
        fake_llm.script.append(Reply(f"Answer {n}."))
        await c.say(f"Question {n}", f"m{n}")
        await c.answer()
    assert marks == [True], "one mark on joining, none per message"
    conv_id = await database_sync_to_async(lambda: Conversation.objects.get().pk)()
    assert await database_sync_to_async(presence.visitor_online)(conversation_id=conv_id)


@pytest.mark.django_db(transaction=True)
def test_the_answer_is_handed_over_before_the_commit_and_let_go_when_it_fails(site):
    """`on_prepared` runs inside the turn's transaction; a failure after it rolls the turn
    back and releases the answer's lease, so the resend (the same seq) is answered."""
    from django.db import OperationalError

    conv = _conversation(site)
    handed = []

    def on_prepared(conversation_id, request_seq, prepared):
        handed.append((connection.in_atomic_block, request_seq, prepared.owner))

    turn = visitor_turn_receive(
        site_id=site.id,
        address="10.0.0.9",
        session_key=str(conv.pk),
        token=None,
        client_id="m1",
        text="Do you ship to Vienna?",
        language="en",
        profile_id=None,
        conversation_id=conv.pk,
        prepare_answer=True,
        on_prepared=on_prepared,
    )
    assert handed == [(True, turn.seq, turn.prepared.owner)], "inside the transaction"

    def failing(conversation_id, request_seq, prepared):
        raise OperationalError("the commit failed")

    with pytest.raises(OperationalError):
        visitor_turn_receive(
            site_id=site.id,
            address="10.0.0.9",
            session_key=str(conv.pk),
            token=None,
            client_id="m2",
            text="And to Graz?",
            language="en",
            profile_id=None,
            conversation_id=conv.pk,
            prepare_answer=True,
            on_prepared=failing,
        )
    assert not Turn.objects.filter(conversation=conv, text="And to Graz?").exists()
    next_seq = Conversation.objects.get(pk=conv.pk).next_seq
    assert cache.get(f"answering:{conv.pk}:{next_seq}") is None, "the lease was let go"


def _receive_handing(site, conv_id, text, client_id, handed):
    """`_receive` that notes ("handed", request_seq) when the answer is handed over."""
    return _receive(
        site,
        conv_id,
        text,
        client_id,
        on_prepared=lambda conversation_id, seq, prepared: handed.append(("handed", seq)),
    )


@pytest.mark.django_db(transaction=True)
def test_the_answer_is_handed_over_before_the_turns_statement(site):
    """The context is built from the turn in hand, so the model request goes out before the
    turn's INSERT and its commit (issue 30), and it holds the turns before it and the new
    message, as a build after the statement would."""
    conv = _conversation(site)
    Conversation.objects.filter(pk=conv.pk).update(state=ConversationState.BOT)
    order: list = []

    def record(execute, sql, params, many, context):
        order.append(("sql", sql))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        turn = _receive_handing(site, conv.pk, "Do you ship to Vienna?", "m1", order)
    handed = order.index(("handed", turn.seq))
    inserted = next(i for i, (kind, sql) in enumerate(order) if "INSERT INTO" in str(sql))
    assert handed < inserted, order
    texts = [m["content"] for m in turn.prepared.built.messages if m["role"] == "user"]
    assert texts[-2:] == ["Hello", "Do you ship to Vienna?"]
    assert turn.prepared.built.trace.verbatim_seqs[-1] == turn.seq
    assert Turn.objects.get(conversation=conv, client_id="m1").seq == turn.seq


@pytest.mark.django_db(transaction=True)
def test_a_resend_starts_no_answer_before_its_statement(site):
    """A message whose client id is stored already (its ack was lost) is known as such by
    the conversation's locked read: no model request is started for a seq it will not
    take, and the stored turn is answered the usual way."""
    conv = _conversation(site)
    Conversation.objects.filter(pk=conv.pk).update(state=ConversationState.BOT)
    first = _receive(site, conv.pk, "Do you ship to Vienna?", "m1", prepare=False)
    handed: list = []
    again = _receive_handing(site, conv.pk, "Do you ship to Vienna?", "m1", handed)
    assert handed == []
    assert again.outcome is TurnOutcome.ANSWER_IF_UNANSWERED and again.seq == first.seq
    assert not again.started_void


@pytest.mark.django_db(transaction=True)
def test_an_answer_started_for_a_message_stored_meanwhile_is_voided(site, monkeypatch):
    """Sent twice at once: the locked read did not see the client id, the INSERT does. The
    answer started for the new seq is voided (the socket cancels it) and its lease let go,
    so the next message, which takes that seq, is answered."""
    import memory.services

    conv = _conversation(site)
    Conversation.objects.filter(pk=conv.pk).update(state=ConversationState.BOT)
    _receive(site, conv.pk, "Do you ship to Vienna?", "m1", prepare=False)
    read = memory.services.conversation_lock_read

    def unseen(**kwargs):
        found = read(**kwargs)
        found.client_id_stored = False  # as if the other copy committed after this read
        return found

    monkeypatch.setattr(memory.services, "conversation_lock_read", unseen)
    handed: list = []
    again = _receive_handing(site, conv.pk, "Do you ship to Vienna?", "m1", handed)
    next_seq = Conversation.objects.get(pk=conv.pk).next_seq
    assert handed == [("handed", next_seq)], "started for the seq the resend did not take"
    assert again.started_void and again.prepared is None
    assert cache.get(f"answering:{conv.pk}:{next_seq}") is None, "its lease let go"


@pytest.mark.django_db(transaction=True)
def test_the_answer_is_handed_over_before_its_lease_is_taken(site, monkeypatch):
    """The lease's round trip runs while the model request goes out (issue 30): a turn not
    yet committed is seen by no other socket, so the lease is taken after the hand-over."""
    import chatwidget.assistant.preparation as preparation

    conv = _conversation(site)
    Conversation.objects.filter(pk=conv.pk).update(state=ConversationState.BOT)
    order: list = []
    take = preparation.owned_take

    def recorded(key, owner, seconds):
        order.append(("lease", key))
        return take(key, owner, seconds)

    monkeypatch.setattr(preparation, "owned_take", recorded)
    turn = _receive_handing(site, conv.pk, "Do you ship to Vienna?", "m1", order)
    assert order == [("handed", turn.seq), ("lease", f"answering:{conv.pk}:{turn.seq}")]
    assert cache.get(f"answering:{conv.pk}:{turn.seq}") == turn.prepared.owner
    assert not turn.started_void


@pytest.mark.django_db(transaction=True)
def test_a_lease_refused_after_the_hand_over_calls_the_answer_off(site):
    """A lease left for the same seq by a process that died in that seq's transaction: the
    answer handed over is void (the socket cancels it before any delta, which waits for the
    ack), the holder's lease is kept, and the usual way waits for it to lapse."""
    conv = _conversation(site)
    Conversation.objects.filter(pk=conv.pk).update(state=ConversationState.BOT)
    request_seq = Conversation.objects.get(pk=conv.pk).next_seq
    cache.add(f"answering:{conv.pk}:{request_seq}", "a-dead-process", timeout=5)
    handed: list = []
    turn = _receive_handing(site, conv.pk, "Do you ship to Vienna?", "m1", handed)
    assert handed == [("handed", request_seq)]
    assert turn.started_void and turn.prepared is None
    assert turn.outcome is TurnOutcome.ANSWER and turn.seq == request_seq
    assert cache.get(f"answering:{conv.pk}:{request_seq}") == "a-dead-process"
