"""Analytics: counts per site and day. No text, no person, no conversation id.

`DailyStat` is the only thing analytics keeps, so it needs no retention period of its own:
a row says "site 3 had 41 conversations and 2 card numbers removed on 2026-05-04" and
nothing that leads back to anyone.

A day is a day of the server's TIME_ZONE, whatever zone the request runs in (admin pages run
in the sites' zone): a staff reply and a visitor's turn at the same moment count on one day.
"""

from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from memory.models import DailyStat, TurnRole

_TURN_FIELDS: dict[str, str] = {
    TurnRole.VISITOR: "visitor_turns",
    TurnRole.ASSISTANT: "assistant_turns",
}


def stat_day():
    """Today in the server's TIME_ZONE: the day analytics count on."""
    return timezone.localdate(timezone=timezone.get_default_timezone())


def stat_record(
    *,
    site_id: int,
    conversations: int = 0,
    visitor_turns: int = 0,
    assistant_turns: int = 0,
    handovers: int = 0,
    redactions: dict[str, int] | None = None,
) -> None:
    """Add counts to today's row of the site (created on first use). Safe under concurrency:
    the row is locked for the increment; callers may be inside a transaction or not."""
    if not (conversations or visitor_turns or assistant_turns or handovers or redactions):
        return
    day = stat_day()
    if not redactions:  # the common case: one UPDATE ... SET n = n + k
        updated = DailyStat.objects.filter(site_id=site_id, day=day).update(
            conversations=F("conversations") + conversations,
            visitor_turns=F("visitor_turns") + visitor_turns,
            assistant_turns=F("assistant_turns") + assistant_turns,
            handovers=F("handovers") + handovers,
        )
        if updated:
            return
    with transaction.atomic():
        stat, _ = DailyStat.objects.select_for_update().get_or_create(site_id=site_id, day=day)
        stat.conversations += conversations
        stat.visitor_turns += visitor_turns
        stat.assistant_turns += assistant_turns
        stat.handovers += handovers
        fields = ["conversations", "visitor_turns", "assistant_turns", "handovers"]
        if redactions:
            merged = dict(stat.redactions or {})
            for kind, count in redactions.items():
                merged[str(kind)] = int(merged.get(str(kind), 0)) + int(count)
            stat.redactions = merged
            fields.append("redactions")
        stat.save(update_fields=fields)


def stat_record_turn(*, site_id: int, role: str, findings: dict[str, int]) -> None:
    """One committed turn: its role and what redaction found in it (kinds and counts)."""
    field = _TURN_FIELDS.get(role)
    stat_record(
        site_id=site_id,
        visitor_turns=1 if field == "visitor_turns" else 0,
        assistant_turns=1 if field == "assistant_turns" else 0,
        redactions=findings or None,
    )


def stat_turn_sql(*, site_id: int, role: str) -> tuple[str, list] | None:
    """The UPDATE that counts one turn of `role` in today's row, for a caller that sends it
    in one statement with its own (memory.services: with the conversation's counters). None
    when the role is not counted. It changes no row while today's row does not exist yet:
    the caller then uses `stat_record_turn`, which creates it."""
    field = _TURN_FIELDS.get(role)
    if field is None:
        return None
    q = connection.ops.quote_name
    meta = DailyStat._meta
    fields: list[Any] = [meta.get_field(f) for f in (field, "site", "day")]
    column, site, day = (q(f.column) for f in fields)
    return (
        f"UPDATE {q(str(meta.db_table))} SET {column} = {column} + 1 "  # noqa: S608 - names from the model
        f"WHERE {site} = %s AND {day} = %s",
        [site_id, stat_day()],
    )
