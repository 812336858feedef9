"""Staff hours with public holidays and closed days (chatwidget.sites.availability, issue 32),
in the site's time zone, with a frozen clock: a German national holiday, Bavaria's Epiphany,
a day the owner closed, the next opening across Easter and the spring daylight-saving change,
and what the site admin accepts."""

from datetime import UTC, date, datetime

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.utils import timezone

from chatwidget.platform.times import visitor_time
from chatwidget.sites.availability import site_availability
from chatwidget.sites.closures import public_holiday, subdivisions_of
from chatwidget.sites.models import ClosedDay

pytestmark = pytest.mark.django_db

BERLIN = "Europe/Berlin"


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.fixture
def shop(site):
    site.staff_hours = "mon-fri 09:00-17:00"
    site.time_zone = BERLIN
    site.holiday_country = "DE"
    site.save()
    return site


def available(site, at: datetime):
    with time_machine.travel(at, tick=False):
        return site_availability(site=site, at=timezone.now())


def test_a_german_national_holiday_closes_the_hours(shop):
    # Thursday 3 October 2024, Day of German Unity, 11:00 in Berlin (CEST)
    at = utc(2024, 10, 3, 9, 0)
    assert public_holiday(country="DE", subdivision="", day=date(2024, 10, 3))
    state = available(shop, at)
    assert not state.open and state.closed_reason == "holiday"
    assert state.next_open == datetime(2024, 10, 4, 9, 0, tzinfo=state.next_open.tzinfo)
    shop.holiday_country = ""  # no calendar chosen: a Thursday like any other
    assert available(shop, at).open


def test_bavarias_epiphany_closes_the_hours_in_bavaria_only(shop):
    at = utc(2027, 1, 6, 9, 0)  # Wednesday 6 January 2027, 10:00 in Berlin (CET)
    assert available(shop, at).open, "Epiphany is no national holiday"
    shop.holiday_subdivision = "BY"
    state = available(shop, at)
    assert not state.open and state.closed_reason == "holiday"
    assert state.next_open.isoformat() == "2027-01-07T09:00:00+01:00"


def test_a_day_the_owner_closed_closes_the_hours_and_a_range_closes_each_day(shop):
    at = utc(2026, 6, 3, 10, 0)  # Wednesday, 12:00 in Berlin
    assert available(shop, at).open
    ClosedDay.objects.create(site=shop, first_day=date(2026, 6, 3), reason="team outing")
    state = available(shop, at)
    assert not state.open and state.closed_reason == "closed"
    assert state.next_open.isoformat() == "2026-06-04T09:00:00+02:00"
    ClosedDay.objects.create(site=shop, first_day=date(2026, 6, 4), last_day=date(2026, 6, 9))
    assert available(shop, at).next_open.isoformat() == "2026-06-10T09:00:00+02:00"
    assert not available(shop, utc(2026, 6, 8, 10, 0)).open, "a Monday inside the range"


def test_with_always_open_hours_a_closed_day_still_closes(shop):
    shop.staff_hours = ""
    ClosedDay.objects.create(site=shop, first_day=date(2026, 6, 3))
    state = available(shop, utc(2026, 6, 3, 20, 0))  # 22:00 in Berlin
    assert not state.open
    assert state.next_open.isoformat() == "2026-06-04T00:00:00+02:00", "midnight, Berlin"


def test_the_next_opening_crosses_easter_the_weekend_and_the_clock_change(shop):
    """Thursday 25 March 2027, 18:00 CET: Good Friday, the weekend (the clocks go forward on
    Sunday 28 March) and Easter Monday are closed; the team is back on Tuesday at 09:00
    CEST, which is 07:00 UTC, not 08:00."""
    state = available(shop, utc(2027, 3, 25, 17, 0))
    assert not state.open and state.closed_reason == ""
    assert state.next_open.astimezone(UTC) == utc(2027, 3, 30, 7, 0)
    before = available(shop, utc(2027, 3, 24, 17, 0))  # Wednesday 18:00: back Thursday 09:00
    assert before.next_open.astimezone(UTC) == utc(2027, 3, 25, 8, 0)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Tuesday 30 March 2027, 09:00 (Europe/Berlin)"),
        ("de", "Dienstag, 30. März 2027, 09:00 (Europe/Berlin)"),
        ("fr", "mardi 30 mars 2027, 09:00 (Europe/Berlin)"),
        ("es", "martes 30 de marzo de 2027, 09:00 (Europe/Berlin)"),
        ("it", "martedì 30 marzo 2027, 09:00 (Europe/Berlin)"),
        ("nl", "dinsdag 30 maart 2027, 09:00 (Europe/Berlin)"),
        ("pl", "wtorek, 30 marca 2027, 09:00 (Europe/Berlin)"),
    ],
)
def test_the_opening_is_written_in_the_visitors_language(language, expected):
    assert visitor_time(utc(2027, 3, 30, 7, 0), time_zone=BERLIN, language=language) == expected


def test_the_admin_checks_country_and_region_against_the_calendar(shop):
    assert "BY" in subdivisions_of("DE")
    shop.holiday_subdivision = "BY"
    shop.full_clean()
    shop.holiday_subdivision = "XX"
    with pytest.raises(ValidationError) as wrong:
        shop.full_clean()
    assert "holiday_subdivision" in wrong.value.message_dict
    assert "BY" in wrong.value.message_dict["holiday_subdivision"][0], "names the valid codes"
    shop.holiday_country, shop.holiday_subdivision = "", "BY"
    with pytest.raises(ValidationError) as orphan:
        shop.full_clean()
    assert "holiday_subdivision" in orphan.value.message_dict
    shop.holiday_country, shop.holiday_subdivision = "ZZ", ""
    with pytest.raises(ValidationError) as unknown:
        shop.full_clean()
    assert "holiday_country" in unknown.value.message_dict


def test_the_site_admin_edits_holidays_closed_days_and_away_messages(admin_client, shop):
    page = admin_client.get(f"/admin/sites/site/{shop.pk}/change/").content.decode()
    assert 'name="holiday_country"' in page and "DE \u2013 Germany" in page
    assert "closed_days-TOTAL_FORMS" in page and "away_messages-TOTAL_FORMS" in page
    assert 'name="inactivity_followup_minutes"' in page


def test_the_country_choices_import_no_calendar():
    """Django's checks read the site's country choices in every process that runs them (each
    worker, each manage.py command): listing the countries must not import the calendars of
    all 250 (a tenth of a second each time). (A country's own calendar, once asked for, loads
    the package's `countries` module, which imports every one: the hours of a site that has
    public holidays pay that once per process, when first needed.)"""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from chatwidget.sites.closures import country_choices, subdivisions_of\n"
        "choices = country_choices()\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith('holidays.countries.'))\n"
        "print(len(choices), loaded())\n"
        "print('BY' in subdivisions_of('DE'), subdivisions_of('XX'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()
    assert out == ["250 []", "True ()"]
