"""The conversation's row lock on the hot path, in one statement of raw SQL (issue 30;
ARCHITECTURE.md, decisions).

Every visitor message and every answer locks its conversation's row and reads its site
(the window settings, the budget) and, for a visitor's turn, the current core. The ORM's
query for that (`select_for_update().select_related("site")` with the core as three
subquery annotations) cost about 2 ms of CPU to compile per message, ten times the
statement itself. Here the statement is written once per process from the models' own
fields and the rows become model instances as the ORM would make them: the same columns,
each value through the field's database converters, `Model.from_db`, the site cached on
the conversation as `select_related` leaves it. A field added to Conversation, Site or
Core is read here without a change.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson
from django.db import connection

from chatwidget.sites.models import Site
from memory.models import Conversation, Core, Turn
from memory.turn_sql import column_converters, row_converted

# the current core's values, read with the row: the context builder reads them from the
# conversation (chatwidget.assistant.sections.core_current)
CORE_COLUMNS = (("core_row_data", "data"), ("core_row_covers", "covers_through_seq"), ("core_row_tokens", "token_count"))  # fmt: skip


# the newest turns a context build reads, as plain values in this order
# (chatwidget.assistant.sections.TurnRow), read with the row by `with_newest`
NEWEST_FIELDS = ("seq", "role", "text", "token_count", "page", "attachments")


@cache
def _statement(
    vendor: str, with_core: bool, by_site: bool, with_client: bool, with_newest: bool = False
) -> tuple[str, list[tuple[Any, list]]]:
    """The SELECT and, per column, (field, converters). Built once per process and shape."""
    q = connection.ops.quote_name
    conv: Any = Conversation._meta
    site: Any = Site._meta
    core: Any = Core._meta
    turn: Any = Turn._meta
    columns: list[tuple[str, Any, str]] = [
        *(("c", f, f.column) for f in conv.concrete_fields),
        *(("s", f, f.column) for f in site.concrete_fields),
    ]
    if with_core:
        columns += [("k", core.get_field(name), name) for _, name in CORE_COLUMNS]
    select = ", ".join(f"{alias}.{q(column)}" for alias, _, column in columns)
    if with_newest:  # the column before the client id's: the newest turns, one JSON text
        select += ", " + _newest_select(q, conv, site, turn)
    if with_client:  # the last column, not converted: is a turn with this client id stored?
        select += (
            f", EXISTS (SELECT 1 FROM {q(turn.db_table)} t "  # noqa: S608 - names from the models
            f"WHERE t.{q(turn.get_field('conversation').column)} = c.{q(conv.pk.column)} "
            f"AND t.{q(turn.get_field('client_id').column)} = %s)"
        )
    sql = (
        f"SELECT {select} FROM {q(conv.db_table)} c "  # noqa: S608 - names from the models
        f"JOIN {q(site.db_table)} s ON s.{q(site.pk.column)} = c.{q(conv.get_field('site').column)} "
    )
    if with_core:
        sql += (
            f"LEFT JOIN {q(core.db_table)} k ON k.{q(core.get_field('conversation').column)} = "
            f"c.{q(conv.pk.column)} AND k.{q(core.get_field('version').column)} = "
            f"c.{q(conv.get_field('core_version').column)} "
        )
    sql += f"WHERE c.{q(conv.pk.column)} = %s"
    if by_site:
        sql += f" AND c.{q(conv.get_field('site').column)} = %s"
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE OF c" if connection.features.has_select_for_update_of else " FOR UPDATE"
    tables = {"c": conv.db_table, "s": site.db_table, "k": core.db_table}
    return sql, [column_converters(f, tables[alias]) for alias, f, _ in columns]


def _newest_select(q, conv, site, turn) -> str:
    """The newest turns below the conversation's next seq, newest first, as many as a context
    build may read (`chatwidget.assistant.sections.fetch_limit`, here over the site's
    columns of the same row; a test holds the two equal): one JSON array of arrays."""
    fields = [turn.get_field(name) for name in NEWEST_FIELDS]
    seq = q(turn.get_field("seq").column)
    limit = (
        f"2 * (s.{q(site.get_field('verbatim_window_turns').column)} "
        f"+ s.{q(site.get_field('condense_after_turns').column)} "
        f"+ 2 * s.{q(site.get_field('verbatim_min_exchanges').column)}) + 1"
    )
    outer = ", ".join(f"w.{q(f.column)}" for f in fields)
    inner = ", ".join(q(f.column) for f in fields)
    where = (
        f"{q(turn.get_field('conversation').column)} = c.{q(conv.pk.column)} "
        f"AND {seq} < c.{q(conv.get_field('next_seq').column)}"
    )
    newest = f"SELECT {inner} FROM {q(turn.db_table)} WHERE {where} ORDER BY {seq} DESC"  # noqa: S608 - names from the models
    array = f"json_agg(json_build_array({outer}) ORDER BY w.{seq} DESC)::text"
    return f"(SELECT {array} FROM ({newest} LIMIT {limit}) w)"  # noqa: S608 - names from the models


def conversation_lock_read(
    *,
    pk: int,
    site_id: int | None = None,
    with_core: bool = False,
    client_id: str | None = None,
    with_newest: bool = False,
) -> Conversation | None:
    """The conversation's row, locked for the caller's transaction (only its row), with its
    site loaded (the window settings decide whether condensation may be due, the context
    builder reads the budget) and, `with_core`, the current core's values as `core_row_data`,
    `core_row_covers` and `core_row_tokens` (None without a core). `site_id`: only if the
    conversation is that site's. `client_id`: whether a turn with that client id is stored
    already (a resend), as `client_id_stored`. `with_newest` (PostgreSQL; elsewhere nothing
    is read): the newest turns a context build may read, as lists of `NEWEST_FIELDS`' values,
    newest first, as `newest_turns` (None where not read), so the build that follows needs no
    statement of its own. None when there is no such conversation."""
    with_newest = with_newest and connection.vendor == "postgresql"
    sql, fields = _statement(
        connection.vendor, with_core, site_id is not None, bool(client_id), with_newest
    )
    params = [client_id] if client_id else []
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, pk] if site_id is None else [*params, pk, site_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = row_converted(row[: len(fields)], fields)
    n_conv = len(Conversation._meta.concrete_fields)
    n_site = len(Site._meta.concrete_fields)
    alias = connection.alias
    conv = Conversation.from_db(
        alias, [f.attname for f in Conversation._meta.concrete_fields], values[:n_conv]
    )
    site = Site.from_db(
        alias, [f.attname for f in Site._meta.concrete_fields], values[n_conv : n_conv + n_site]
    )
    Conversation.site.field.set_cached_value(conv, site)
    if with_core:
        for (name, _), value in zip(CORE_COLUMNS, values[n_conv + n_site :], strict=True):
            setattr(conv, name, value)
    conv.client_id_stored = bool(client_id) and bool(row[-1])  # type: ignore[attr-defined]
    newest = None
    if with_newest:
        newest = orjson.loads(row[len(fields)] or "[]")
    conv.newest_turns = newest  # type: ignore[attr-defined]
    return conv
