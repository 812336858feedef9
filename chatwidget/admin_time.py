"""Times in admin: in the site's time zone, and the zone named.

Stored times are UTC. Staff think in their shop's time (`Site.time_zone`, the zone of its
staff hours), so admin requests run in that zone when every site shares one (the usual case:
one shop, or several in one country); otherwise in the server's TIME_ZONE. Either way the
formats (chatwidget/formats) name the zone, and list columns that belong to one site show
that site's own zone through `site_time`.
"""

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from chatwidget.selectors import sites_time_zone


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or settings.TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.TIME_ZONE)


def site_time(value: datetime | None, *, time_zone: str | None) -> str:
    """`value` in `time_zone` (a site's), in the one datetime format, the zone named:
    "1 Dec 2026, 06:44 CET". Empty when there is no time."""
    if value is None:
        return ""
    return date_format(timezone.localtime(value, _zone(time_zone)), "SHORT_DATETIME_FORMAT")


class AdminTimeZoneMiddleware:
    """Admin pages (and the handover views under /admin/) render in the sites' time zone."""

    def __init__(self, get_response) -> None:  # noqa: ANN001
        self.get_response = get_response
        self._prefix: str | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._prefix is None:
            self._prefix = reverse("admin:index")
        if not request.path.startswith(self._prefix):
            return self.get_response(request)
        with timezone.override(_zone(sites_time_zone())):
            return self.get_response(request)
