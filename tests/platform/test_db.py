"""chatwidget/platform/db.py: how the real-time path reaches the database."""

import pytest


@pytest.mark.django_db(transaction=True)
def test_relaxed_durability_only_for_its_own_transaction():
    """A trace may skip the WAL flush; a turn's transaction around it keeps its durability."""
    from django.db import connection, transaction

    from chatwidget.platform.db import relaxed_durability

    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit is a PostgreSQL setting (TEST_DATABASE_URL unset)")

    def setting():
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return cursor.fetchone()[0]

    with connection.cursor() as cursor:
        # production's default: the suite's test databases commit without it (tests/pgtemplate.py)
        cursor.execute("SET synchronous_commit TO on")
    with relaxed_durability():
        assert setting() == "off"
    with transaction.atomic():
        with relaxed_durability():
            assert setting() == "on"
    assert setting() == "on"


def test_db_async_uses_the_single_thread_only_for_sqlite(db):
    from django.db import connection

    from chatwidget.platform.db import db_async

    wrapped = db_async(lambda: None)
    assert wrapped._thread_sensitive is (connection.vendor == "sqlite")


async def test_an_answers_store_waits_for_the_turn_hops_in_flight():
    """What the visitor waits for (a turn's hop, up to the model request) goes first; the
    store of an answer already streamed starts once no turn hop is in flight."""
    import asyncio

    from chatwidget.platform.db import urgent_hop, urgent_hops_done

    order = []
    turn_may_end = asyncio.Event()

    async def turn():
        async with urgent_hop():
            await turn_may_end.wait()
            order.append("turn")

    async def store():
        await urgent_hops_done()
        order.append("store")

    turn_task = asyncio.create_task(turn())
    await asyncio.sleep(0)
    store_task = asyncio.create_task(store())
    await asyncio.sleep(0.01)
    assert order == [], "the store waits while the turn's hop runs"
    turn_may_end.set()
    await asyncio.gather(turn_task, store_task)
    assert order == ["turn", "store"]
    await asyncio.wait_for(urgent_hops_done(), 0.01)  # none in flight: no wait at all


async def test_a_stream_of_turn_hops_never_starves_a_store(monkeypatch):
    import asyncio

    from chatwidget.platform import db

    monkeypatch.setattr(db, "STORE_YIELD_MAX", 0.02)
    never = asyncio.Event()

    async def endless_turn():
        async with db.urgent_hop():
            await never.wait()

    busy = asyncio.create_task(endless_turn())
    await asyncio.sleep(0)
    started = asyncio.get_running_loop().time()
    await db.urgent_hops_done()
    waited = asyncio.get_running_loop().time() - started
    busy.cancel()
    await asyncio.gather(busy, return_exceptions=True)
    assert 0.015 <= waited < 1.0
    await asyncio.wait_for(db.urgent_hops_done(), 0.01)  # the cancelled hop left no count
