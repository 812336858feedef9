"""A transactional test's database emptied without `flush`'s cost (about a third of the suite's
tests are transactional: processes they start, or code under test, must see committed rows).

Django empties the database after each such test with `flush`: a TRUNCATE of every table
(new files for each in PostgreSQL), then its post_migrate signal, which makes every content
type and permission again. Here the same tables are emptied with DELETE in one transaction
(the foreign keys Django makes are checked at the commit, when every row is gone) except the
content types and permissions, which therefore need no making again: the database ends as
`flush` leaves it (the groups gone too: `tests.factories.roles_ensure` makes them again). A
test that changed the content types or permissions (a count or the newest id differs from
what migrations made), or that asks for more than a plain flush, gets Django's own flush.
"""

from __future__ import annotations

from django.db import connections, transaction
from django.test import TransactionTestCase

from tests.proccount import note

KEPT = ("django_migrations", "django_content_type", "auth_permission")
_MADE: dict[str, tuple] = {}  # database alias -> (content types, permissions) as migrated
_flush = TransactionTestCase._fixture_teardown


def _made(alias: str) -> tuple:
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT COUNT(*), MAX(id) FROM django_content_type")
        types = cursor.fetchone()
        cursor.execute("SELECT COUNT(*), MAX(id) FROM auth_permission")
        return types, cursor.fetchone()


def snapshot(alias: str = "default") -> None:
    """Note the content types and permissions once the test database is migrated."""
    _MADE[alias] = _made(alias)


def _emptied(alias: str) -> bool:
    """Every table but KEPT emptied; False (nothing changed) where that cannot stand in for a
    flush."""
    if alias not in _MADE or _made(alias) != _MADE[alias]:
        return False
    connection = connections[alias]
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    deletes = [
        f"DELETE FROM {connection.ops.quote_name(t)}" for t in sorted(set(tables) - set(KEPT))
    ]
    try:
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            if connection.vendor == "postgresql":  # one round trip (client-side binding)
                cursor.execute(";\n".join(deletes))
            else:
                for delete in deletes:
                    cursor.execute(delete)
    except Exception:  # a constraint checked at once: the real flush
        return False
    return True


def _fixture_teardown(self) -> None:
    plain = self.available_apps is None and not self.serialized_rollback
    names = self._databases_names(include_mirrors=False)
    if not (plain and all(_emptied(alias) for alias in names)):
        note("flush-django")  # counted with TEST_PROCESS_LOG (tests/proccount.py)
        _flush(self)


def install() -> None:
    TransactionTestCase._fixture_teardown = _fixture_teardown
