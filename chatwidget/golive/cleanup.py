"""Removing the check's throw-away conversations without a trace.

The go-live check talks to the site like a visitor, so the pipeline stores what it stores
for any visitor: the conversation with its turns, cores and traces, a handover case, cached
state, and analytics counts (and webhook deliveries, though a rehearsal writes none). All of
it goes here, and the counts are taken back out of the day's analytics, so the owner's
figures show real visitors only. Memory's erasure service is
not used on purpose: it writes an audit event for a person's data, and no person was here.
"""

from collections import Counter, defaultdict

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from chatwidget.integrations.retention import webhook_deliveries_delete
from handover.models import Case
from memory.models import Conversation, DailyStat, Turn
from memory.retention import conversation_cache_clear

_ROLE_FIELD = {"visitor": "visitor_turns", "assistant": "assistant_turns"}


def _day(at) -> object:
    return timezone.localdate(at)


def _counts(conversation_ids: list[int]) -> dict:
    """What analytics counted for these conversations: (site, day) -> field -> n."""
    counts: dict = defaultdict(Counter)
    redactions: dict = defaultdict(Counter)
    for site_id, created in Conversation.objects.filter(pk__in=conversation_ids).values_list(
        "site_id", "created_at"
    ):
        counts[(site_id, _day(created))]["conversations"] += 1
    turns = Turn.objects.filter(conversation_id__in=conversation_ids).values_list(
        "conversation__site_id", "created_at", "role", "findings"
    )
    for site_id, created, role, findings in turns:
        key = (site_id, _day(created))
        if role in _ROLE_FIELD:
            counts[key][_ROLE_FIELD[role]] += 1
        for kind, n in (findings or {}).items():
            redactions[key][str(kind)] += int(n)
    for site_id, requested in Case.objects.filter(conversation_id__in=conversation_ids).values_list(
        "site_id", "requested_at"
    ):
        counts[(site_id, _day(requested))]["handovers"] += 1
    return {key: (counts[key], redactions[key]) for key in set(counts) | set(redactions)}


def _stats_subtract(counts: dict) -> None:
    for (site_id, day), (fields, redactions) in counts.items():
        row = DailyStat.objects.select_for_update().filter(site_id=site_id, day=day).first()
        if row is None:
            continue
        DailyStat.objects.filter(pk=row.pk).update(
            **{name: Greatest(F(name) - n, Value(0)) for name, n in fields.items()}
        )
        if redactions:
            merged = {
                k: max(0, int(v) - redactions.get(k, 0)) for k, v in (row.redactions or {}).items()
            }
            DailyStat.objects.filter(pk=row.pk).update(
                redactions={k: v for k, v in merged.items() if v}
            )


def golive_conversations_delete(*, conversation_ids: list[int]) -> int:
    """Delete the check's conversations and everything they left; returns how many went.
    Safe to run twice (a second run finds nothing)."""
    if not conversation_ids:
        return 0
    with transaction.atomic():
        ids = list(
            Conversation.objects.select_for_update()
            .filter(pk__in=conversation_ids)
            .values_list("pk", flat=True)
        )
        _stats_subtract(_counts(ids))
        Case.objects.filter(conversation_id__in=ids).delete()
        # none are written for a rehearsal (chatwidget.platform.rehearsal); should one be
        webhook_deliveries_delete(conversation_ids=ids)
        deleted = Conversation.objects.filter(pk__in=ids).delete()[1].get("memory.Conversation", 0)
        transaction.on_commit(lambda: conversation_cache_clear(conversation_ids=ids))
    return deleted
