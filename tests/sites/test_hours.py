"""chatwidget/hours.py: when a person can answer."""

from datetime import UTC, datetime

import pytest

from chatwidget.sites.hours import (
    HoursError,
    hours_describe,
    hours_is_open,
    hours_next_open,
    hours_parse,
)

SPEC = "mon-fri 09:00-17:00; sat 10:00-14:00"
BERLIN = "Europe/Berlin"


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        (utc(2026, 6, 2, 7, 0), True),  # Tue 09:00 Berlin (CEST, UTC+2): opening minute
        (utc(2026, 6, 2, 6, 59), False),  # Tue 08:59
        (utc(2026, 6, 2, 14, 59), True),  # Tue 16:59
        (utc(2026, 6, 2, 15, 0), False),  # Tue 17:00: the end is exclusive
        (utc(2026, 6, 6, 9, 0), True),  # Sat 11:00
        (utc(2026, 6, 6, 12, 0), False),  # Sat 14:00
        (utc(2026, 6, 7, 10, 0), False),  # Sunday
        (utc(2026, 1, 6, 8, 30), True),  # Tue 09:30 in winter (CET, UTC+1)
        (utc(2026, 1, 6, 7, 30), False),  # Tue 08:30 in winter
    ],
)
def test_open_in_the_sites_time_zone(at, expected):
    assert hours_is_open(spec=SPEC, time_zone=BERLIN, at=at) is expected


def test_same_instant_differs_by_time_zone():
    at = utc(2026, 6, 2, 15, 30)  # 17:30 in Berlin, 11:30 in New York
    assert not hours_is_open(spec=SPEC, time_zone=BERLIN, at=at)
    assert hours_is_open(spec=SPEC, time_zone="America/New_York", at=at)


def test_empty_hours_mean_always():
    assert hours_is_open(spec="", time_zone=BERLIN, at=utc(2026, 6, 7, 3, 0))


def test_several_windows_days_and_german_abbreviations():
    spec = "mo,mi,fr 08:30-12:00 13:00-17:30"
    assert hours_is_open(spec=spec, time_zone="UTC", at=utc(2026, 6, 3, 8, 30))  # Wed
    assert not hours_is_open(spec=spec, time_zone="UTC", at=utc(2026, 6, 3, 12, 30))
    assert hours_is_open(spec=spec, time_zone="UTC", at=utc(2026, 6, 5, 17, 29))  # Fri
    assert not hours_is_open(spec=spec, time_zone="UTC", at=utc(2026, 6, 2, 10, 0))  # Tue
    assert hours_is_open(spec="sun 00:00-24:00", time_zone="UTC", at=utc(2026, 6, 7, 23, 59))


@pytest.mark.parametrize(
    "bad",
    [
        "mon-fri",
        "09:00-17:00",
        "funday 09:00-17:00",
        "mon 17:00-09:00",
        "fri-mon 09:00-17:00",
        "mon 09:00-17:00 tue",
        "mon 25:00-26:00",
    ],
)
def test_unreadable_hours_are_refused(bad):
    with pytest.raises(HoursError):
        hours_parse(bad)


def test_unreadable_hours_count_as_open_so_the_team_is_not_hidden():
    assert hours_is_open(spec="whenever", time_zone=BERLIN, at=utc(2026, 6, 7, 3, 0))


def test_next_opening():
    nxt = hours_next_open(spec=SPEC, time_zone=BERLIN, at=utc(2026, 6, 6, 18, 0))  # Sat 20:00
    assert (nxt.weekday(), nxt.hour, nxt.minute) == (0, 9, 0)  # Monday 09:00
    assert nxt.utcoffset().total_seconds() == 7200
    assert hours_next_open(spec="", time_zone=BERLIN, at=utc(2026, 6, 6, 18, 0)) is not None


def test_described_in_the_visitors_language():
    assert (
        hours_describe(spec=SPEC, language="en")
        == "Mon\u2013Fri 09:00\u201317:00; Sat 10:00\u201314:00"
    )
    assert (
        hours_describe(spec=SPEC, language="de")
        == "Mo\u2013Fr 09:00\u201317:00; Sa 10:00\u201314:00"
    )
