"""Days a shop's team is away although its weekly hours say otherwise: the public holidays of
a country (and one of its subdivisions: a German state, a Swiss canton) and the days the owner
closed (`ClosedDay` rows, read by chatwidget.sites.availability).

Public holidays come from the `holidays` package (python-holidays, the calendars of about 170
countries and their subdivisions, kept up to date by many contributors): a calendar written
here by hand would be wrong the first time a state adds a holiday. Pure: no queries; the
calendars are built per year and cached in the process (`holidays` computes them, it does not
load data), so asking about a day costs a dictionary lookup.
"""

from __future__ import annotations

from datetime import date
from functools import cache

import holidays
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from holidays.registry import COUNTRIES, EntityLoader


@cache
def _country_codes() -> frozenset[str]:
    """The country codes `holidays` knows (aliases such as "UK" left out), from its registry:
    no calendar is imported. (Its `list_supported_countries` imports all of them to list their
    subdivisions: some 250 modules, a tenth of a second of every process that runs Django's
    checks, since the site's country choices are checked.)"""
    return frozenset(EntityLoader.get_country_codes(include_aliases=False))


def country_choices() -> list[tuple[str, str]]:
    """The countries `holidays` knows, for the site's select: "DE – Germany". The names are
    the package's (English); the code is what is stored."""
    names = {entry[1]: module.replace("_", " ").title() for module, entry in COUNTRIES.items()}
    return sorted(
        ((code, f"{code} \u2013 {names.get(code, code)}") for code in _country_codes()),
        key=lambda choice: choice[1],
    )


def subdivisions_of(country: str) -> tuple[str, ...]:
    """The subdivision codes of `country` (aliases such as "Bayern" left out: one code per
    subdivision in the admin); () for a code `holidays` does not know."""
    return _subdivisions(country) if country in _country_codes() else ()


@cache
def _subdivisions(country: str) -> tuple[str, ...]:
    return tuple(getattr(holidays, country).subdivisions)  # imports the calendar


def validate_holiday_region(*, country: str, subdivision: str) -> None:
    """A subdivision needs its country and must be one `holidays` knows for it; raises a
    ValidationError naming the field and, for a wrong subdivision, the codes it may be."""
    if country and country not in _country_codes():
        raise ValidationError({"holiday_country": gettext("Unknown country code.")})
    if not subdivision:
        return
    if not country:
        raise ValidationError(
            {"holiday_subdivision": gettext("Choose the country of the region first.")}
        )
    allowed = subdivisions_of(country)
    if subdivision not in allowed:
        raise ValidationError(
            {
                "holiday_subdivision": gettext(
                    "%(code)s is not a region of %(country)s. Regions: %(allowed)s."
                )
                % {
                    "code": subdivision,
                    "country": country,
                    "allowed": ", ".join(allowed) or "\u2013",
                }
            }
        )


@cache
def _calendar(country: str, subdivision: str, year: int) -> dict[date, str]:
    """One year's public holidays (date -> English name). Cached per process: a calendar
    does not change while the process runs, and each lookup otherwise builds a year."""
    try:
        calendar = holidays.country_holidays(country, subdiv=subdivision or None, years=year)
    except NotImplementedError:  # a code that was valid when saved, gone in a new release
        return {}
    return dict(calendar.items())


def public_holiday(*, country: str, subdivision: str, day: date) -> str | None:
    """The name of the public holiday on `day` there, or None (also with no country set)."""
    if not country:
        return None
    return _calendar(country, subdivision, day.year).get(day)
