"""Admin pages render in the sites' time zone.

Admin requests (and the handover views under /admin/) run in the zone every site shares (the
usual case: one shop, or several in one country); otherwise in the server's TIME_ZONE. Either
way the formats name the zone, and list columns that belong to one site show that site's own
zone through `chatwidget.platform.times.site_time`.
"""

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone

from chatwidget.platform.times import zone
from chatwidget.sites.selectors import sites_time_zone


class AdminTimeZoneMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self._prefix: str | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._prefix is None:
            self._prefix = reverse("admin:index")
        if not request.path.startswith(self._prefix):
            return self.get_response(request)
        with timezone.override(zone(sites_time_zone())):
            return self.get_response(request)
