"""memory.turn_sql, the one raw-SQL module of the turn path (issue 30), on the database the
suite runs on (SQLite, and PostgreSQL with TEST_DATABASE_URL: CI runs both): a turn is
written as `Turn.objects.create` writes it, a stored client id inserts nothing and moves no
counter, and on PostgreSQL the conversation's counters and the day's count ride in the
INSERT's statement only when the turn was inserted."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.analytics import stat_turn_sql
from memory.models import ContextTrace, Conversation, DailyStat, Turn
from memory.services import visitor_message_receive
from memory.turn_sql import row_insert, turn_insert, turns_newest

pytestmark = pytest.mark.django_db


def _conversation(site):
    _, conv, _, _ = visitor_message_receive(
        site_id=site.id, token=None, client_id="first", text="Hello"
    )
    return Conversation.objects.select_related("site").get(pk=conv.pk)


def _turn(conv, seq, client_id="c1", **extra):
    return Turn(
        conversation=conv,
        seq=seq,
        role="visitor",
        text="Where is my parcel?",
        spans=[["email", 0, 3]],
        findings={"email": 1},
        token_count=6,
        client_id=client_id,
        page=extra.get("page"),
        cards=extra.get("cards", []),
    )


def test_a_turn_is_written_as_the_orm_writes_it(site):
    conv = _conversation(site)
    page = {"url": "https://shop.test/p", "title": "P", "tokens": 3}
    turn = _turn(conv, 2, page=page, cards=[{"title": "Kurta"}])
    inserted, _, _ = turn_insert(turn)
    assert inserted and turn.pk is not None and not turn._state.adding
    stored = Turn.objects.get(pk=turn.pk)
    assert (stored.seq, stored.role, stored.text, stored.token_count) == (
        2,
        "visitor",
        "Where is my parcel?",
        6,
    )
    assert stored.spans == [["email", 0, 3]] and stored.findings == {"email": 1}
    assert stored.page == page and stored.cards == [{"title": "Kurta"}]
    assert stored.choices == [] and stored.author_id is None and stored.created_at is not None
    assert turn_insert(_turn(conv, 3, client_id=None))[0], "no client id: never a conflict"
    assert Turn.objects.get(conversation=conv, seq=3).page is None


def test_a_stored_client_id_inserts_nothing_and_moves_no_counter(site):
    conv = _conversation(site)
    assert turn_insert(_turn(conv, 2))[0]
    conv.next_seq = 99
    stat = stat_turn_sql(site_id=site.pk, role="visitor")
    day = DailyStat.objects.get(site=site).visitor_turns
    with CaptureQueriesContext(connection) as queries:
        inserted, saved, counted = turn_insert(
            _turn(conv, 3), conv=conv, fields=["next_seq"], stat=stat
        )
    assert (inserted, saved, counted) == (False, False, False)
    assert len(queries) == 1, "one statement, whatever the database"
    assert Turn.objects.filter(conversation=conv).count() == 2
    assert Conversation.objects.get(pk=conv.pk).next_seq == 2
    assert DailyStat.objects.get(site=site).visitor_turns == day


def test_the_counters_ride_in_the_inserts_statement_on_postgresql(site):
    conv = _conversation(site)
    conv.next_seq = 4
    stat = stat_turn_sql(site_id=site.pk, role="visitor")
    day = DailyStat.objects.get(site=site).visitor_turns
    with CaptureQueriesContext(connection) as queries:
        inserted, saved, counted = turn_insert(
            _turn(conv, 2), conv=conv, fields=["next_seq"], stat=stat
        )
    assert inserted
    if connection.vendor == "postgresql":
        assert (saved, counted) == (True, True) and len(queries) == 1
        assert Conversation.objects.get(pk=conv.pk).next_seq == 4
        assert DailyStat.objects.get(site=site).visitor_turns == day + 1
    else:  # the caller writes them (memory.services._counters_save)
        assert (saved, counted) == (False, False) and len(queries) == 1
        assert Conversation.objects.get(pk=conv.pk).next_seq == 2


def test_the_days_first_turn_is_left_to_the_caller(site):
    conv = _conversation(site)
    DailyStat.objects.all().delete()
    stat = stat_turn_sql(site_id=site.pk, role="visitor")
    inserted, _, counted = turn_insert(_turn(conv, 2), conv=conv, fields=["next_seq"], stat=stat)
    assert inserted and not counted, "no row of today's changed: the caller creates it"


def test_a_resent_message_is_the_stored_turn(site):
    conv = _conversation(site)
    first, _, _, _ = visitor_message_receive(
        site_id=site.id, token=None, client_id="m1", text="Hi", conversation_id=conv.pk
    )
    again, conv_after, _, _ = visitor_message_receive(
        site_id=site.id, token=None, client_id="m1", text="Hi", conversation_id=conv.pk
    )
    assert first.created and not again.created and again.turn.pk == first.turn.pk
    assert conv_after.next_seq == first.turn.seq + 1, "the resend moved no counter"
    assert Conversation.objects.get(pk=conv.pk).next_seq == first.turn.seq + 1
    assert DailyStat.objects.get(site=site).visitor_turns == 2


def test_the_newest_turns_are_read_as_the_orm_reads_them(site):
    """`turns_newest` (a context build's read, every message) gives what the ORM's
    values_list query gives: the same rows, newest first, JSON decoded, within the bounds."""
    conv = _conversation(site)
    page = {"url": "https://shop.test/p", "title": "P", "tokens": 3}
    for seq in range(2, 9):
        turn_insert(_turn(conv, seq, client_id=f"c{seq}", page=page if seq % 2 else None))
    names = ("seq", "role", "text", "token_count", "page", "attachments")
    expected = [
        list(row)
        for row in Turn.objects.filter(conversation=conv, seq__gt=2, seq__lte=7)
        .order_by("-seq")
        .values_list(*names)[:4]
    ]
    with CaptureQueriesContext(connection) as queries:
        found = turns_newest(conversation_id=conv.pk, after=2, through=7, limit=4, names=names)
    assert found == expected and len(queries) == 1
    assert [row[0] for row in found] == [7, 6, 5, 4] and found[0][4] == page
    assert (
        turns_newest(conversation_id=conv.pk + 99, after=0, through=9, limit=5, names=names) == []
    )


def test_a_row_is_inserted_as_save_inserts_it(site):
    """`row_insert` (the context trace, every message) writes what `save(force_insert=True)`
    writes: every field, defaults and JSON included, and the row's new primary key."""
    conv = _conversation(site)
    fields = {
        "conversation": conv,
        "request_seq": 1,
        "mode": "model",
        "model_name": "gpt-4o-mini",
        "budget": 8000,
        "reserve": 1000,
        "sections": {"system": 40, "request": 8},
        "total_tokens": 48,
        "verbatim_seqs": [1],
    }
    mine, theirs = ContextTrace(**fields), ContextTrace(**fields)
    with CaptureQueriesContext(connection) as queries:
        row_insert(mine)
    theirs.save(force_insert=True)
    assert len(queries) == 1 and mine.pk is not None and not mine._state.adding
    stored, expected = ContextTrace.objects.get(pk=mine.pk), ContextTrace.objects.get(pk=theirs.pk)
    skip = {"id", "created_at"}
    for field in ContextTrace._meta.concrete_fields:
        if field.attname not in skip:
            assert getattr(stored, field.attname) == getattr(expected, field.attname), field.name
    assert stored.created_at is not None
