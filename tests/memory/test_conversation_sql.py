"""memory.conversation_sql, the conversation's row lock in raw SQL (issue 30), on the
database the suite runs on (SQLite, and PostgreSQL with TEST_DATABASE_URL): the row, its
site and its current core come back as the ORM's query gave them, in one statement, and on
PostgreSQL the conversation's row (only it) is locked."""

import threading

import pytest
from django.db import connection, connections, transaction
from django.db.models import JSONField, OuterRef, Subquery
from django.test.utils import CaptureQueriesContext

from chatwidget.sites.models import Site
from memory.conversation_sql import conversation_lock_read
from memory.models import Conversation, Core
from memory.services import visitor_message_receive

pytestmark = pytest.mark.django_db


def _conversation(site) -> Conversation:
    _, conv, _, _ = visitor_message_receive(
        site_id=site.id, token=None, client_id="first", text="Hello", language="de"
    )
    return conv


def _orm(pk: int) -> Conversation:
    """The ORM's query this module replaces: the core as subquery annotations."""
    current = Core.objects.filter(conversation_id=OuterRef("pk"), version=OuterRef("core_version"))
    return (
        Conversation.objects.select_related("site")
        .annotate(
            core_row_data=Subquery(current.values("data")[:1], output_field=JSONField()),
            core_row_covers=Subquery(current.values("covers_through_seq")[:1]),
            core_row_tokens=Subquery(current.values("token_count")[:1]),
        )
        .get(pk=pk)
    )


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_row_its_site_and_its_core_are_what_the_orm_reads(site):
    site.allowed_origins = ["https://shop.test", "https://www.shop.test"]
    site.save()
    conv = _conversation(site)
    data = {"request": "a blue kurta", "objects": [{"name": "Kurta", "id": "KU-2291"}]}
    Core.objects.create(
        conversation=conv,
        version=1,
        covers_through_seq=1,
        source="model",
        data=data,
        token_count=12,
    )
    Core.objects.create(
        conversation=conv,
        version=2,
        covers_through_seq=1,
        source="model",
        data={"request": "now"},
        token_count=3,
    )
    Conversation.objects.filter(pk=conv.pk).update(
        core_version=1
    )  # not the newest row: the current one
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        read = conversation_lock_read(pk=conv.pk, with_core=True)
    assert len(queries) == 1
    expected = _orm(conv.pk)
    assert read is not None and _fields(read) == _fields(expected)
    assert _fields(read.site) == _fields(expected.site)
    # JSON decoded as the ORM decodes it
    assert read.site.allowed_origins == ["https://shop.test", "https://www.shop.test"]
    for name in ("core_row_data", "core_row_covers", "core_row_tokens"):
        assert getattr(read, name) == getattr(expected, name), name
    assert read.core_row_data["objects"][0]["id"] == "KU-2291"
    assert not read._state.adding and read._state.db == "default"
    with CaptureQueriesContext(connection) as queries:
        assert read.site.pk == site.pk  # loaded with the row, as select_related leaves it
    assert len(queries) == 0


def test_without_a_core_its_values_are_none_and_a_wrong_site_reads_nothing(site):
    conv = _conversation(site)
    other = Site.objects.create(name="Other", key="other-key", allowed_origins=[])
    with transaction.atomic():
        read = conversation_lock_read(pk=conv.pk, site_id=site.pk, with_core=True)
        assert read is not None
        assert (read.core_row_data, read.core_row_covers, read.core_row_tokens) == (None,) * 3
        assert conversation_lock_read(pk=conv.pk, site_id=other.pk) is None
        assert conversation_lock_read(pk=conv.pk + 1000) is None
        plain = conversation_lock_read(pk=conv.pk)
        assert plain is not None and not hasattr(plain, "core_row_data")


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_the_conversations_row_is_locked_and_its_sites_is_not(site):
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL only (set TEST_DATABASE_URL)")
    conv = _conversation(site)
    outcome: dict[str, str] = {}

    def other_connection() -> None:
        with transaction.atomic():
            with connections["default"].cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '200ms'")
                try:
                    cursor.execute(
                        f"SELECT 1 FROM {Site._meta.db_table} WHERE id = %s FOR UPDATE", [site.pk]
                    )
                    outcome["site"] = "free"
                except Exception as exc:
                    outcome["site"] = type(exc).__name__
        with transaction.atomic():
            with connections["default"].cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '200ms'")
                try:
                    cursor.execute(
                        f"SELECT 1 FROM {Conversation._meta.db_table} WHERE id = %s FOR UPDATE",
                        [conv.pk],
                    )
                    outcome["conversation"] = "free"
                except Exception as exc:
                    outcome["conversation"] = type(exc).__name__
        connections["default"].close()

    with transaction.atomic():
        assert conversation_lock_read(pk=conv.pk, with_core=True) is not None
        thread = threading.Thread(target=other_connection)
        thread.start()
        thread.join(10)
    assert outcome["site"] == "free"
    assert outcome["conversation"] != "free"


@pytest.mark.parametrize("window,after,minimum", [(2, 2, 1), (4, 6, 2)])
def test_the_newest_turns_read_with_the_row_are_what_a_build_would_read(
    site, window, after, minimum
):
    """On PostgreSQL the newest turns come with the locked row (issue 30), as many as a
    context build may read (`fetch_limit`, computed over the same row's site columns), newest
    first, each value as the ORM gives it; elsewhere none are read."""
    from chatwidget.assistant.sections import TurnRow, fetch_limit
    from memory.conversation_sql import NEWEST_FIELDS
    from memory.models import Turn

    assert TurnRow._fields == NEWEST_FIELDS
    site.verbatim_window_turns, site.condense_after_turns = window, after
    site.verbatim_min_exchanges = minimum
    site.save()
    conv = _conversation(site)
    for n in range(40):
        visitor_message_receive(
            site_id=site.id, token=None, client_id=f"m{n}", text=f"Question {n}",
            conversation_id=conv.pk, page_url="https://shop.test/p/kurta" if n % 2 else None,
        )  # fmt: skip
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        read = conversation_lock_read(pk=conv.pk, with_core=True, with_newest=True)
    assert len(queries) == 1
    if connection.vendor != "postgresql":
        assert read.newest_turns is None
        return
    limit = fetch_limit(read.site)
    orm = Turn.objects.filter(conversation=conv).order_by("-seq").values_list(*NEWEST_FIELDS)
    assert read.newest_turns == [list(row) for row in orm[:limit]]
    assert len(read.newest_turns) == limit < 41
    assert any(row[4] for row in read.newest_turns), "a page, decoded"
