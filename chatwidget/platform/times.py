"""Times as staff read them: in a site's time zone, in the one format, the zone named.

Stored times are UTC. Staff think in their shop's time (`Site.time_zone`, the zone of its staff
hours). The formats (chatwidget/formats) name the zone: "1 Dec 2026, 06:44 CET". Pure
presentation, no queries: any layer's admin may use it (memory's too).
"""

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format

NO_BREAK = "\u00a0"


def zone(name: str | None) -> ZoneInfo:
    """The zone called `name`; the server's TIME_ZONE when there is none or it is unknown."""
    try:
        return ZoneInfo(name or settings.TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.TIME_ZONE)


def site_time(value: datetime | None, *, time_zone: str | None) -> str:
    """`value` in `time_zone` (a site's), in the one datetime format, the zone named.
    Empty when there is no time.

    A narrow column may break it only between date and time ("1 Dec 2026," / "06:44 CET"):
    the spaces inside each part do not break. A column that cannot break at all makes
    admin's table wider than the page, and its last columns end up cut off."""
    if value is None:
        return ""
    text = date_format(timezone.localtime(value, zone(time_zone)), "SHORT_DATETIME_FORMAT")
    return ", ".join(part.replace(" ", NO_BREAK) for part in text.split(", ", 1))
