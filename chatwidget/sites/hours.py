"""Staff hours of a Site: when a person can answer (read by the Site's validation and by
handover).

A Site states its hours as text, in its own time zone (Site.time_zone):

    "mon-fri 09:00-17:00; sat 10:00-14:00"
    "mon,wed,fri 08:30-12:00 13:00-17:30"
    "mo-fr 09:00-17:00"            (German day abbreviations work too)

Segments are separated by ";". Each segment is a list of days or day ranges (comma
separated) followed by one or more time windows "HH:MM-HH:MM" (end may be 24:00; a window
may not run past midnight: write two segments instead). An empty text means "always".

Only the standard library is used (zoneinfo); the grammar is small enough that a parser
library would add more than it saves.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.dates import WEEKDAYS_ABBR

log = logging.getLogger(__name__)

DAYS: dict[str, int] = {
    "mon": 0,
    "tue": 1,
    "wed": 2,
    "thu": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
    "mo": 0,
    "di": 1,
    "mi": 2,
    "do": 3,
    "fr": 4,
    "sa": 5,
    "so": 6,
}
_WINDOW = re.compile(r"^([01]?\d|2[0-4]):([0-5]\d)-([01]?\d|2[0-4]):([0-5]\d)$")
_DAY_TOKEN = re.compile(r"^([a-z]{2,3})(?:-([a-z]{2,3}))?$")


class HoursError(ValueError):
    """The staff hours text cannot be read."""


@dataclass(frozen=True)
class Segment:
    days: tuple[tuple[int, int], ...]  # day ranges, Monday = 0, inclusive
    windows: tuple[tuple[int, int], ...]  # minutes after midnight, [start, end)

    def covers_day(self, day: int) -> bool:
        return any(first <= day <= last for first, last in self.days)


def _minutes(hours: str, minutes: str) -> int:
    value = int(hours) * 60 + int(minutes)
    if value > 24 * 60:
        raise HoursError(f"{hours}:{minutes} is not a time of day")
    return value


def _day(token: str) -> int:
    try:
        return DAYS[token]
    except KeyError:
        raise HoursError(f"unknown day {token!r}") from None


def hours_parse(spec: str) -> tuple[Segment, ...]:
    """Parse a staff hours text. Raises HoursError with a short reason."""
    segments = []
    for raw in (spec or "").lower().split(";"):
        raw = raw.strip()
        if not raw:
            continue
        parts = raw.replace(",", " , ").split()
        day_tokens: list[str] = []
        windows: list[tuple[int, int]] = []
        for part in parts:
            if part == ",":
                continue
            match = _WINDOW.match(part)
            if match:
                start = _minutes(match[1], match[2])
                end = _minutes(match[3], match[4])
                if end <= start:
                    raise HoursError(f"{part}: the end must be after the start (same day)")
                windows.append((start, end))
            elif windows:
                raise HoursError(f"{raw!r}: days come before the times")
            else:
                day_tokens.append(part)
        if not day_tokens:
            raise HoursError(f"{raw!r}: no days given")
        if not windows:
            raise HoursError(f"{raw!r}: no times given")
        days = []
        for token in day_tokens:
            match = _DAY_TOKEN.match(token)
            if not match:
                raise HoursError(f"unknown day {token!r}")
            first = _day(match[1])
            last = _day(match[2]) if match[2] else first
            if last < first:
                raise HoursError(f"{token!r}: a day range runs Monday to Sunday")
            days.append((first, last))
        segments.append(Segment(days=tuple(days), windows=tuple(windows)))
    return tuple(segments)


def validate_staff_hours(value: str) -> None:
    """A model/form validator for Site.staff_hours."""
    try:
        hours_parse(value)
    except HoursError as exc:
        raise ValidationError(str(exc)) from exc


def hours_zone(time_zone: str) -> ZoneInfo:
    """The zone the hours are read in (UTC when the name is unknown)."""
    return _zone(time_zone)


def _zone(time_zone: str) -> ZoneInfo:
    try:
        return ZoneInfo(time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        log.warning("unknown time zone, using UTC", extra={"time_zone": time_zone})
        return ZoneInfo("UTC")


ClosedDay = Callable[[date], bool]
"""Is this local date closed (a public holiday, a day the owner closed)? See
chatwidget.sites.availability, which builds it from the site's settings."""

#: How far ahead the next opening is looked for: long enough for a closure of several weeks
#: (a shop's summer break), short enough to stay cheap.
HORIZON_DAYS = 62


def hours_is_open(
    *, spec: str, time_zone: str, at: datetime, closed: ClosedDay | None = None
) -> bool:
    """Is a person available at `at` (an aware datetime)? Empty hours: always, unless the
    local day is `closed`.

    Unreadable hours count as open: a configuration slip must not hide the team."""
    try:
        segments = hours_parse(spec)
    except HoursError:
        log.warning("unreadable staff hours treated as always open")
        return True
    local = at.astimezone(_zone(time_zone))
    if closed is not None and closed(local.date()):
        return False
    if not segments:
        return True
    minute = local.hour * 60 + local.minute
    day = local.weekday()
    return any(
        seg.covers_day(day) and any(start <= minute < end for start, end in seg.windows)
        for seg in segments
    )


def _day_starts(segments: tuple[Segment, ...], day: date, zone: ZoneInfo) -> list[datetime]:
    """When the day's windows begin, as aware local times (midnight when the hours are
    "always"). A start in a gap of a daylight-saving change (02:30 on the last Sunday of
    March in Berlin) is read as the clock shows it after the change, as zoneinfo does."""
    if not segments:
        return [datetime.combine(day, time(0, 0), tzinfo=zone)]
    return [
        datetime.combine(day, time(start // 60, start % 60), tzinfo=zone)
        for seg in segments
        if seg.covers_day(day.weekday())
        for start, _end in seg.windows
        if start < 24 * 60
    ]


def hours_next_open(
    *, spec: str, time_zone: str, at: datetime, closed: ClosedDay | None = None
) -> datetime | None:
    """The next moment (aware, in the site's zone) at which staff hours begin on a day that
    is not `closed`, within HORIZON_DAYS. `at` itself when open now; None when the hours
    never open in that time."""
    if hours_is_open(spec=spec, time_zone=time_zone, at=at, closed=closed):
        return at.astimezone(_zone(time_zone))
    try:
        segments = hours_parse(spec)
    except HoursError:
        return None
    zone = _zone(time_zone)
    local = at.astimezone(zone)
    for offset in range(HORIZON_DAYS + 1):
        day = local.date() + timedelta(days=offset)
        if closed is not None and closed(day):
            continue
        later = [start for start in _day_starts(segments, day, zone) if start > local]
        if later:
            return min(later)
    return None


def hours_describe(*, spec: str, language: str, time_zone: str | None = None) -> str:
    """The hours in the visitor's language, e.g. "Mo–Fr 09:00–17:00; Sa 10:00–14:00", with
    the site's time zone when given ("... (Europe/Berlin)"): a visitor elsewhere must know
    whose 09:00 it is."""
    try:
        segments = hours_parse(spec)
    except HoursError:
        return spec
    if not segments:
        return ""

    def clock(minutes: int) -> str:
        return f"{minutes // 60:02d}:{minutes % 60:02d}"

    with translation.override(language):
        rendered = []
        for seg in segments:
            days = ", ".join(
                str(WEEKDAYS_ABBR[first])
                if first == last
                else f"{WEEKDAYS_ABBR[first]}\u2013{WEEKDAYS_ABBR[last]}"
                for first, last in seg.days
            )
            times = ", ".join(f"{clock(s)}\u2013{clock(e)}" for s, e in seg.windows)
            rendered.append(f"{days} {times}")
    described = "; ".join(rendered)
    return f"{described} ({_zone(time_zone).key})" if time_zone else described
