"""Times as staff read them: in a site's time zone, in the one format, the zone named.

Stored times are UTC. Staff think in their shop's time (`Site.time_zone`, the zone of its staff
hours). The formats (chatwidget/formats) name the zone: "1 Dec 2026, 06:44 CET". Pure
presentation, no queries: any layer's admin may use it (memory's too).
"""

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.utils import dateformat, timezone, translation
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


# A moment as a visitor reads it in a sentence ("We are back on ..."): weekday, date and
# 24-hour time in each widget language's own order; Django translates the names. Polish
# takes the month's genitive ("E": 7 stycznia). French, Spanish, Italian, Dutch and Polish
# write day and month names in small letters (Django's Italian and Polish catalogues
# capitalise them, as in a calendar's heading).
_VISITOR_FORMATS = {
    "en": "l j F Y, H:i",
    "de": "l, j. F Y, H:i",
    "fr": "l j F Y, H:i",
    "es": r"l j \d\e F \d\e Y, H:i",
    "it": "l j F Y, H:i",
    "nl": "l j F Y, H:i",
    "pl": "l, j E Y, H:i",
}

_SMALL_NAMES = frozenset({"fr", "es", "it", "nl", "pl"})


def visitor_time(value: datetime, *, time_zone: str | None, language: str) -> str:
    """`value` in `time_zone` (a site's) for a visitor of `language`, the zone named as the
    staff hours name it: "Tuesday 7 January 2027, 09:00 (Europe/Berlin)". A visitor elsewhere
    must know whose 09:00 it is."""
    place = zone(time_zone)
    with translation.override(language):
        text = dateformat.format(
            timezone.localtime(value, place), _VISITOR_FORMATS.get(language, _VISITOR_FORMATS["en"])
        )
    if language in _SMALL_NAMES:
        text = text.lower()
    return f"{text} ({place.key})"
