"""chatwidget/db.py: how the real-time path reaches the database."""

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
