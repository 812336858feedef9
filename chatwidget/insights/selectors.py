"""The dashboard's figures per site and day. Counts, percentiles and averages only.

Sources, and how long each is kept:
- conversations, visitor turns, handovers: memory's DailyStat (counts only, kept for good);
- answer latency, tokens per answer, answers the model could not give: the context traces
  (memory.ContextTrace, `latency_ms` and `answered`), kept as long as their conversation;
- condensations: the condensed cores (memory.Core), kept as long as their conversation;
- time to the first staff reply, handovers the assistant asked for: the cases (handover.Case);
- ratings: handover's Rating rows (scores only; comments are never read here).
So figures from traces and cores cover the retention period of the transcripts; older days
show their DailyStat counts and no latency.

Days are the server's local dates (TIME_ZONE), as DailyStat's. Percentiles by nearest rank.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import date, datetime, time, timedelta

from django.db.models import Count
from django.db.models.functions import TruncDate
from django.utils import timezone

from chatwidget.sites.models import Site
from handover.models import Case, Rating
from memory.analytics import stat_day
from memory.models import ContextTrace, Core, DailyStat


@dataclass
class DayStats:
    """One row of the dashboard and of its CSV: one site (None: all selected sites) and day."""

    day: date
    site_id: int | None
    conversations: int = 0
    visitor_turns: int = 0
    handovers: int = 0
    handovers_by_assistant: int = 0  # the model asked for a person
    answers: int = 0  # model calls that ended (answered or failed)
    answers_failed: int = 0  # the model was unavailable: the visitor got an error
    could_not_answer: int = 0  # answers_failed + handovers_by_assistant
    latency_p50_ms: int | None = None
    latency_p95_ms: int | None = None
    tokens_per_answer: int | None = None  # the context sent to the model, on average
    condensations: int = 0
    first_replies: int = 0  # cases with a staff reply
    first_reply_p50_s: int | None = None
    first_reply_p95_s: int | None = None
    ratings: int = 0
    rating_average: float | None = None
    could_not_answer_rate: float | None = None  # could_not_answer / (answers + by_assistant)
    handover_rate: float | None = None  # handovers / conversations
    # raw values, for percentiles over pooled rows (not in the CSV)
    _latencies: list[int] = field(default_factory=list, repr=False)
    _tokens: list[int] = field(default_factory=list, repr=False)
    _first_reply: list[int] = field(default_factory=list, repr=False)
    _scores: list[int] = field(default_factory=list, repr=False)


# the figures, in the CSV after site_id, site and day
CSV_FIELDS = [
    f.name
    for f in fields(DayStats)
    if not f.name.startswith("_") and f.name not in ("day", "site_id")
]


def percentile(values: list[int], p: float) -> int | None:
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def _bounds(start: date, end: date) -> tuple[datetime, datetime]:
    tz = timezone.get_default_timezone()  # the days DailyStat counts on (memory.analytics)
    return (
        datetime.combine(start, time.min, tzinfo=tz),
        datetime.combine(end + timedelta(days=1), time.min, tzinfo=tz),
    )


def _finish(row: DayStats) -> DayStats:
    row.latency_p50_ms = percentile(row._latencies, 50)
    row.latency_p95_ms = percentile(row._latencies, 95)
    row.tokens_per_answer = round(sum(row._tokens) / len(row._tokens)) if row._tokens else None
    row.first_replies = len(row._first_reply)
    row.first_reply_p50_s = percentile(row._first_reply, 50)
    row.first_reply_p95_s = percentile(row._first_reply, 95)
    row.ratings = len(row._scores)
    row.rating_average = round(sum(row._scores) / len(row._scores), 2) if row._scores else None
    row.could_not_answer = row.answers_failed + row.handovers_by_assistant
    attempts = row.answers + row.handovers_by_assistant
    row.could_not_answer_rate = round(row.could_not_answer / attempts, 4) if attempts else None
    row.handover_rate = round(row.handovers / row.conversations, 4) if row.conversations else None
    return row


def dashboard_days(
    *, site_ids: Iterable[int], start: date, end: date, per_site: bool
) -> list[DayStats]:
    """Every day from `start` to `end` (inclusive), per site (`per_site`, the CSV) or pooled
    over the sites (the charts), days without data included as zeros. Six queries."""
    site_ids = list(site_ids)
    since, until = _bounds(start, end)
    rows: dict[tuple[int | None, date], DayStats] = {}

    def row(site_id: int, day: date) -> DayStats:
        key = (site_id if per_site else None, day)
        if key not in rows:
            rows[key] = DayStats(day=day, site_id=key[0])
        return rows[key]

    for stat in DailyStat.objects.filter(site_id__in=site_ids, day__gte=start, day__lte=end).values(
        "site_id", "day", "conversations", "visitor_turns", "handovers"
    ):
        target = row(stat["site_id"], stat["day"])
        target.conversations += stat["conversations"]
        target.visitor_turns += stat["visitor_turns"]
        target.handovers += stat["handovers"]
    traces = (
        ContextTrace.objects.filter(
            conversation__site_id__in=site_ids,
            created_at__gte=since,
            created_at__lt=until,
            answered__isnull=False,
        )
        .annotate(on=TruncDate("created_at", tzinfo=timezone.get_default_timezone()))
        .values_list("conversation__site_id", "on", "latency_ms", "total_tokens", "answered")
    )
    for site_id, day, latency, tokens, answered in traces:
        target = row(site_id, day)
        target.answers += 1
        if answered:
            target._latencies.append(latency or 0)
            target._tokens.append(tokens)
        else:
            target.answers_failed += 1
    cores = (
        Core.objects.filter(
            conversation__site_id__in=site_ids, created_at__gte=since, created_at__lt=until
        )
        .annotate(on=TruncDate("created_at", tzinfo=timezone.get_default_timezone()))
        .values("conversation__site_id", "on")
        .annotate(n=Count("id"))
    )
    for item in cores:
        row(item["conversation__site_id"], item["on"]).condensations += item["n"]
    cases = (
        Case.objects.filter(site_id__in=site_ids, requested_at__gte=since, requested_at__lt=until)
        .annotate(on=TruncDate("requested_at", tzinfo=timezone.get_default_timezone()))
        .values_list("site_id", "on", "trigger", "requested_at", "first_reply_at")
    )
    for site_id, day, trigger, requested_at, first_reply_at in cases:
        target = row(site_id, day)
        if trigger == Case.Trigger.MODEL:
            target.handovers_by_assistant += 1
        if first_reply_at is not None:
            target._first_reply.append(max(0, int((first_reply_at - requested_at).total_seconds())))
    ratings = (
        Rating.objects.filter(site_id__in=site_ids, created_at__gte=since, created_at__lt=until)
        .annotate(on=TruncDate("created_at", tzinfo=timezone.get_default_timezone()))
        .values_list("site_id", "on", "score")
    )
    for site_id, day, score in ratings:
        row(site_id, day)._scores.append(score)

    days = [start + timedelta(days=n) for n in range((end - start).days + 1)]
    keys = [(site_id, day) for site_id in (site_ids if per_site else [None]) for day in days]
    return [_finish(rows.get(key) or DayStats(day=key[1], site_id=key[0])) for key in keys]


def dashboard_total(rows: list[DayStats]) -> DayStats:
    """The rows pooled into one (the summary line): sums, and percentiles over all values."""
    total = DayStats(day=rows[0].day if rows else stat_day(), site_id=None)
    for item in rows:
        for name in (
            "conversations",
            "visitor_turns",
            "handovers",
            "handovers_by_assistant",
            "answers",
            "answers_failed",
            "condensations",
        ):
            setattr(total, name, getattr(total, name) + getattr(item, name))
        total._latencies += item._latencies
        total._tokens += item._tokens
        total._first_reply += item._first_reply
        total._scores += item._scores
    return _finish(total)


def dashboard_sites() -> list[Site]:
    """The sites the dashboard offers (owners see every site)."""
    return list(Site.objects.order_by("name", "pk").only("pk", "name"))


def rating_distribution(rows: list[DayStats]) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for item in rows:
        for score in item._scores:
            counts[score] += 1
    return {score: counts[score] for score in range(1, 6)}
