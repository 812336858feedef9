"""Analytics count on days of the server's TIME_ZONE whatever zone a request runs in: admin
pages run in the sites' zone, so at 23:30 UTC a staff reply (Berlin: the next day) and a
visitor's turn at the same moment counted on two days, and the dashboard split a site's day
(found by the dashboard test failing between 23:00 and 24:00 UTC)."""

from datetime import UTC, date, datetime
from unittest import mock
from zoneinfo import ZoneInfo

from django.utils import timezone

from memory.analytics import stat_day

LATE = datetime(2026, 12, 1, 23, 30, tzinfo=UTC)


def test_a_day_is_the_servers_whatever_zone_is_active(settings):
    settings.TIME_ZONE = "UTC"
    with mock.patch("django.utils.timezone.now", return_value=LATE):
        with timezone.override(ZoneInfo("Europe/Berlin")):
            assert timezone.localdate() == date(2026, 12, 2), "admin's zone: the next day"
            assert stat_day() == date(2026, 12, 1)
        assert stat_day() == date(2026, 12, 1)
