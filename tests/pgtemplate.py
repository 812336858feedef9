"""Each xdist worker's PostgreSQL test database as a copy of one migrated template.

pytest-django makes each worker's test database by running every migration: under `make
test` four workers migrated at once on two cores, and the first database test of each worker
waited 10 to 16 s in its set-up. Here the first worker that needs it migrates a template
database (named by the hash of the migrations, Django's version and the settings module,
`tests.procs.schema_key`), and every worker's test database is `CREATE DATABASE ... TEMPLATE`
of it, which copies files instead of running migrations (Django's set-up, whose `migrate`
would only find nothing to apply, is not run for it). A PostgreSQL advisory lock
orders the workers (and suites of other checkouts on the same server): one makes the template,
the others wait for it; the copies are made under the lock too, since PostgreSQL refuses to
copy a database another session is connected to. The template stays for the next run with
the same migrations; a template of other migrations is dropped when a new one is made.
"""

from __future__ import annotations

import contextlib

from django.db import connections

from tests.procs import schema_key

PREFIX = "test_chatwidget_template_"
LOCK = 0x63775F746D706C  # the advisory lock's key ("cw_tmpl")


def _admin(settings_dict: dict):
    """A connection to the server's `postgres` database (autocommit), as the test user."""
    import psycopg

    return psycopg.connect(
        dbname="postgres",
        user=settings_dict.get("USER") or None,
        password=settings_dict.get("PASSWORD") or None,
        host=settings_dict.get("HOST") or "127.0.0.1",
        port=settings_dict.get("PORT") or 5432,
        autocommit=True,
        connect_timeout=10,
    )


def _exists(admin, name: str) -> bool:
    return (
        admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None
    )


def _migrate_into(alias: str, template: str) -> None:
    """Django's own test-database creation, under the template's name (then put back)."""
    connection = connections[alias]
    test_settings = connection.settings_dict["TEST"]
    saved_name, saved_test = connection.settings_dict["NAME"], test_settings.get("NAME")
    test_settings["NAME"] = template
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    finally:
        connection.close()
        test_settings["NAME"] = saved_test
        connection.settings_dict["NAME"] = saved_name
        from django.conf import settings

        settings.DATABASES[alias]["NAME"] = saved_name


def copies_made(aliases) -> set[str]:
    """Each PostgreSQL database of `aliases` made as a copy of the migrated template and put in
    place as Django's `create_test_db` does (its name in the settings); the aliases done."""
    from django.conf import settings

    made = set()
    for alias in aliases:
        connection = connections[alias]
        if connection.vendor != "postgresql":
            continue
        template = PREFIX + schema_key("chatwidget.settings.test")
        target = connection.creation._get_test_db_name()
        with _admin(connection.settings_dict) as admin:
            admin.execute("SELECT pg_advisory_lock(%s)", [LOCK])
            try:
                if not _exists(admin, template):
                    _old_templates_dropped(admin, keep=template)
                    _migrate_into(alias, template)
                admin.execute(f'DROP DATABASE IF EXISTS "{target}"')
                admin.execute(f'CREATE DATABASE "{target}" TEMPLATE "{template}"')
                # a commit need not wait for its WAL on disk (1-2 ms each, thousands of
                # commits in the transactional tests); only a crash of the server could lose
                # a commit, and a test database is dropped anyway
                admin.execute(f'ALTER DATABASE "{target}" SET synchronous_commit = off')
            finally:
                admin.execute("SELECT pg_advisory_unlock(%s)", [LOCK])
        connection.close()
        settings.DATABASES[alias]["NAME"] = connection.settings_dict["NAME"] = target
        made.add(alias)
    return made


def copies_dropped(aliases) -> None:
    """The test databases dropped at the end of the session, whoever is still connected (a
    thread of this process, a server a test started): `DROP DATABASE` without FORCE waits
    5 s for the other sessions to leave, then fails."""
    for alias in aliases:
        connection = connections[alias]
        if connection.vendor != "postgresql":
            continue
        name = connection.settings_dict["NAME"]
        connection.close()
        with _admin(connection.settings_dict) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _old_templates_dropped(admin, *, keep: str) -> None:
    rows = admin.execute(
        "SELECT datname FROM pg_database WHERE datname LIKE %s", [PREFIX + "%"]
    ).fetchall()
    for (name,) in rows:
        if name != keep:
            with contextlib.suppress(Exception):  # another suite's, in use: left to it
                admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
