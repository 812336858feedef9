"""Is the site's team at work now, and when next: the weekly hours (chatwidget.sites.hours)
less the public holidays of the site's country and region and the days the owner closed
(chatwidget.sites.closures, `ClosedDay`).

The one answer to "is a person available now / when next" for every caller: the handover's
notices and its `outside_hours` flag (handover.services.transitions), the call-back promise
staff read (handover.services.cases). Whether someone is also online is handover's question
(handover.services.presence), asked only within these hours.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Q

from chatwidget.sites.closures import public_holiday
from chatwidget.sites.hours import HORIZON_DAYS, hours_is_open, hours_next_open, hours_zone
from chatwidget.sites.models import ClosedDay, Site


@dataclass(frozen=True)
class Availability:
    """`open`: within the hours on a working day. `next_open`: when the hours begin next
    (aware, in the site's zone; `at` itself while open; None: not within HORIZON_DAYS).
    `closed_reason`: why today is no working day ("holiday" or "closed"), else ""."""

    open: bool
    next_open: datetime | None
    closed_reason: str = ""


def closed_days(*, site_id: int, first: date, last: date) -> frozenset[date]:
    """The days between `first` and `last` the owner closed: one query, past ranges left
    out."""
    days: set[date] = set()
    rows = (
        ClosedDay.objects.filter(site_id=site_id, first_day__lte=last)
        .filter(Q(last_day__gte=first) | Q(last_day__isnull=True, first_day__gte=first))
        .values_list("first_day", "last_day")
    )
    for start, end in rows:
        day = max(start, first)
        end = min(end or start, last)
        while day <= end:
            days.add(day)
            day += timedelta(days=1)
    return frozenset(days)


def _closed_reason(site: Site, day: date, owner_closed: frozenset[date]) -> str:
    if day in owner_closed:
        return "closed"
    if public_holiday(country=site.holiday_country, subdivision=site.holiday_subdivision, day=day):
        return "holiday"
    return ""


def site_availability(*, site: Site, at: datetime) -> Availability:
    """The site's hours at `at` (aware) with its holidays and closed days."""
    today = at.astimezone(hours_zone(site.time_zone)).date()
    owner_closed = closed_days(
        site_id=site.pk, first=today, last=today + timedelta(days=HORIZON_DAYS + 1)
    )

    def closed(day: date) -> bool:
        return bool(_closed_reason(site, day, owner_closed))

    spec, time_zone = site.staff_hours, site.time_zone
    is_open = hours_is_open(spec=spec, time_zone=time_zone, at=at, closed=closed)
    return Availability(
        open=is_open,
        next_open=hours_next_open(spec=spec, time_zone=time_zone, at=at, closed=closed),
        closed_reason=_closed_reason(site, today, owner_closed),
    )
