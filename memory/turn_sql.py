"""A turn stored in one statement, and the newest turns read, on the hot path (issue 30;
ARCHITECTURE.md, decisions).

Every visitor message and every answer writes a turn: the ORM's way took three statements
under the conversation's row lock (is this client id stored already? INSERT; the
conversation's counters and the day's count). Here the client id's check is the INSERT's
own `ON CONFLICT ... DO NOTHING RETURNING` (the partial unique index `turn_unique_client_id`
decides, as it did behind the check), and on PostgreSQL the conversation's counters (its
next seq, the answer's reserved seq, the last activity) and the day's count ride in the
same statement as data-modifying CTEs that run only when the turn was inserted. SQLite has
no data-modifying CTEs: there the counters follow in the caller's statements.

The Django ORM cannot say "insert unless it exists, and then update these rows" in one
statement. The newest turns of a context build (`turns_newest`) are an ORM query the ORM
spent five times the statement's CPU compiling, every message. Both are built from the
models' own fields (column names, `pre_save`, `get_db_prep_save`, the fields' database
converters), so a field added to Turn is written and read here as by the ORM.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection

from memory.models import Conversation, Turn


def column_name(model: Any, name: str) -> str:
    """The quoted column of the model's field `name`."""
    field: Any = model._meta.get_field(name)
    return connection.ops.quote_name(str(field.column))


@cache
def _insert_statement(model: Any, vendor: str, on_conflict: str) -> tuple[str, list[Any]]:
    """INSERT of every concrete field but the primary key, RETURNING it (once per process)."""
    meta = model._meta
    q = connection.ops.quote_name
    fields: list[Any] = [f for f in meta.concrete_fields if not f.primary_key]
    sql = (
        f"INSERT INTO {q(str(meta.db_table))} ({', '.join(q(f.column) for f in fields)}) "  # noqa: S608 - names from the model
        f"VALUES ({', '.join(['%s'] * len(fields))}) {on_conflict}"
        f"RETURNING {q(str(meta.pk.column))}"
    )
    return sql, fields


def _insert(turn: Turn) -> tuple[str, list]:
    conversation, client = (column_name(Turn, n) for n in ("conversation", "client_id"))
    conflict = f"ON CONFLICT ({conversation}, {client}) WHERE {client} IS NOT NULL DO NOTHING "
    sql, fields = _insert_statement(Turn, connection.vendor, conflict)
    return sql, [f.get_db_prep_save(f.pre_save(turn, True), connection) for f in fields]


def row_insert(instance) -> None:
    """INSERT `instance` (a new row of a model without save signals) as
    `save(force_insert=True)` writes it, by a statement prepared once per model: the ORM's
    save compiles it again every time (issue 30: the context trace, every message)."""
    model: Any = type(instance)
    sql, fields = _insert_statement(model, connection.vendor, "")
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False
    instance._state.db = connection.alias


def _counters(conv: Conversation, fields: list[str]) -> tuple[str, list]:
    q = connection.ops.quote_name
    meta = Conversation._meta
    columns: list[Any] = [meta.get_field(f) for f in fields]
    sets = ", ".join(f"{q(c.column)} = %s" for c in columns)
    values = [c.get_db_prep_save(getattr(conv, c.attname), connection) for c in columns]
    return (
        f"UPDATE {q(str(meta.db_table))} SET {sets} "  # noqa: S608 - names from the model
        f"WHERE {q(str(meta.pk.column))} = %s AND EXISTS (SELECT 1 FROM t)",
        [*values, conv.pk],
    )


def turn_insert(
    turn: Turn,
    *,
    conv: Conversation | None = None,
    fields: list[str] | None = None,
    stat: tuple[str, list] | None = None,
) -> tuple[bool, bool, bool]:
    """INSERT `turn` unless a turn with its client id is stored already. Returns
    (inserted, counters_written, stat_written). On PostgreSQL with `conv`, the same
    statement writes the conversation's `fields` (set on `conv` already) and runs `stat`
    (an UPDATE of the day's count, memory.analytics.stat_turn_sql), both only when the turn
    was inserted; `stat_written`: it changed today's row (none yet: the caller creates
    it). Elsewhere the caller writes both."""
    insert_sql, params = _insert(turn)
    if conv is None or connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(insert_sql, params)
            row = cursor.fetchone()
        inserted = _inserted(turn, row[0] if row else None)
        return inserted, False, False
    update_sql, update_params = _counters(conv, list(fields or []))
    sql = f"WITH t AS ({insert_sql}), c AS ({update_sql} RETURNING 1)"
    params = [*params, *update_params]
    if stat is not None:
        sql += f", s AS ({stat[0]} AND EXISTS (SELECT 1 FROM t) RETURNING 1)"  # noqa: S608
        params.extend(stat[1])
    sql += f" SELECT (SELECT * FROM t), {'(SELECT count(*) FROM s)' if stat else '0'}"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        pk, stat_rows = cursor.fetchone()
    inserted = _inserted(turn, pk)
    return inserted, inserted, inserted and stat_rows == 1


def _inserted(turn: Turn, pk: int | None) -> bool:
    if pk is None:
        return False
    turn.pk = pk
    turn._state.adding = False
    turn._state.db = connection.alias
    return True


def column_converters(field, table: str) -> tuple[Any, list]:
    """A field's column as the ORM's compiler sees it and its converters (the backend's, then
    the field's), to apply as the compiler applies them: `convert(value, column, connection)`."""
    col = field.get_col(table)
    return col, [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]


def row_converted(row, columns: list[tuple[Any, list]]) -> list:
    """A fetched row's values as the ORM gives them (JSON decoded, and so on)."""
    values = []
    for value, (col, converters) in zip(row, columns, strict=True):
        for convert in converters:
            value = convert(value, col, connection)
        values.append(value)
    return values


@cache
def _newest(vendor: str, names: tuple[str, ...]) -> tuple[str, list[tuple[Any, list]]]:
    meta = Turn._meta
    q = connection.ops.quote_name
    fields: list[Any] = [meta.get_field(name) for name in names]
    conversation, seq = (column_name(Turn, n) for n in ("conversation", "seq"))
    sql = (
        f"SELECT {', '.join(q(f.column) for f in fields)} FROM {q(str(meta.db_table))} "  # noqa: S608 - names from the model
        f"WHERE {conversation} = %s AND {seq} > %s AND {seq} <= %s ORDER BY {seq} DESC LIMIT %s"
    )
    return sql, [column_converters(f, str(meta.db_table)) for f in fields]


def turns_newest(
    *, conversation_id: int, after: int, through: int, limit: int, names: tuple[str, ...]
) -> list[list]:
    """The fields `names` of the conversation's newest turns with `after` < seq <= `through`,
    newest first, at most `limit`: what `Turn.objects.filter(...).order_by("-seq")
    .values_list(*names)[:limit]` gives."""
    sql, columns = _newest(connection.vendor, names)
    with connection.cursor() as cursor:
        cursor.execute(sql, [conversation_id, after, through, limit])
        rows = cursor.fetchall()
    return [row_converted(row, columns) for row in rows]
