"""When condensation runs: after a committed turn once enough turns have left the verbatim
window, and periodically for conversations that lag behind. Enqueues by task name (services
do not import tasks)."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app as app
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from chatwidget.platform import cache_keys
from memory.models import Conversation, Turn
from memory.window import window_turns

log = logging.getLogger(__name__)

TASK_NAME = "memory.tasks.condense_conversation"


def condense_may_be_due(
    *, uncovered_at_most: int, window: int, min_exchanges: int, after: int
) -> bool:
    """Whether `condense_schedule_if_due` can find anything to do, from numbers the caller
    already holds: at most `uncovered_at_most` turns lie after the core (the seqs between
    the core's end and the conversation's next seq), and condensation is due only once
    `condense_after_turns` of them are outside the verbatim window. False means certainly not
    due, so the common turn pays no query; True means check (the seqs may have gaps)."""
    return uncovered_at_most >= window_turns(window=window, min_exchanges=min_exchanges) + after


def condense_schedule_if_due(*, conversation_id: int) -> bool:
    """After a committed turn: enqueue a condensation when at least `condense_after_turns`
    uncovered turns lie outside the verbatim window. Two bounded queries; none while one is
    queued already (a worker behind or down: every turn until it runs would ask again);
    never raises (a failed enqueue is caught up by `condense_lagging` or inline before a
    call)."""
    queued = cache_keys.condense_queued(conversation_id)
    if cache.get(queued) is not None:
        return False
    row = (
        Conversation.objects.filter(pk=conversation_id)
        .values_list(
            "condensed_through_seq",
            "site__verbatim_window_turns",
            "site__verbatim_min_exchanges",
            "site__condense_after_turns",
        )
        .first()
    )
    if row is None:
        return False
    covered, window, min_exchanges, after = row
    window = window_turns(window=window, min_exchanges=min_exchanges)
    nth = (
        Turn.objects.filter(conversation_id=conversation_id, seq__gt=covered)
        .order_by("-seq")
        .values_list("seq", flat=True)[window + after - 1 : window + after]
    )
    if not list(nth):
        return False
    if not cache.add(queued, 1, timeout=settings.MEMORY_CONDENSE_QUEUED_SECONDS):
        return False  # one was queued meanwhile
    transaction.on_commit(lambda: _enqueue(conversation_id))
    return True


def _enqueue(conversation_id: int) -> None:
    policy = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
    try:
        task = app.tasks.get(TASK_NAME) if TASK_NAME in app.tasks else None
        if task is not None:
            task.apply_async(args=[conversation_id], retry_policy=policy)
        else:  # services do not import tasks: send by name
            app.send_task(TASK_NAME, args=[conversation_id], retry_policy=policy)
    except Exception as exc:  # noqa: BLE001 - the broker is down: the turn is committed, catch up later
        cache.delete(cache_keys.condense_queued(conversation_id))
        log.warning(
            "condensation not enqueued",
            extra={"conversation": conversation_id, "error": type(exc).__name__},
        )


def conversation_ids_lagging(*, limit: int = 500) -> list[int]:
    """Recently active conversations with more uncovered turns than window + threshold
    (approximate: seqs may have gaps, the minimum exchanges are not counted; the task itself
    computes exactly)."""
    since = timezone.now() - timedelta(hours=settings.MEMORY_CONDENSE_LAGGING_HOURS)
    return list(
        Conversation.objects.filter(last_activity_at__gte=since)
        .filter(
            next_seq__gt=F("condensed_through_seq")
            + F("site__verbatim_window_turns")
            + F("site__condense_after_turns")
            + 1
        )
        .order_by("last_activity_at")
        .values_list("pk", flat=True)[:limit]
    )


def condense_lagging_enqueue() -> int:
    """The periodic catch-up: enqueue a condensation for every lagging conversation."""
    count = 0
    for conversation_id in conversation_ids_lagging():
        if cache.add(
            cache_keys.condense_queued(conversation_id),
            1,
            timeout=settings.MEMORY_CONDENSE_QUEUED_SECONDS,
        ):
            transaction.on_commit(lambda cid=conversation_id: _enqueue(cid))
            count += 1
    if count:
        log.info("lagging conversations enqueued", extra={"count": count})
    return count
