"""The handover on a holiday or a closed day (issue 32): the case is outside the hours, and
the visitor is told when the team is back (the next opening in the site's zone, written for
the visitor's language), with the owner's away message where there is one for the language.
The clock is frozen; the handover reads it (`handover_request` without `now`)."""

from datetime import UTC, date, datetime

import pytest
import time_machine

from chatwidget.sites.models import AwayMessage, ClosedDay
from handover import services
from handover.models import Case
from memory.models import Turn
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def shop(site):
    site.staff_hours = "mon-fri 09:00-17:00"
    site.time_zone = "Europe/Berlin"
    site.holiday_country = "DE"
    site.holiday_subdivision = "BY"
    site.save()
    return site


def ask_for_a_person(site, at: datetime, *, language="en", texts=("Where is my parcel?",)):
    conv = ConversationFactory(site=site, texts=list(texts), language=language)
    with time_machine.travel(at, tick=False):
        case = services.handover_request(conversation_id=conv.pk, trigger="visitor", reason="r")
    notice = Turn.objects.filter(conversation=conv, role="system").latest("seq").text
    return case, notice


def test_good_friday_morning_is_outside_the_hours_and_names_tuesday_after_easter(shop):
    # Good Friday 26 March 2027, 10:00 CET: the weekend (clocks forward on Sunday) and
    # Easter Monday follow; the team is back on Tuesday at 09:00 CEST.
    case, notice = ask_for_a_person(shop, datetime(2027, 3, 26, 9, 0, tzinfo=UTC))
    assert case.outside_hours
    assert notice == (
        "Our team is not available right now (hours: Mon\u2013Fri 09:00\u201317:00 "
        "(Europe/Berlin)). We are back on Tuesday 30 March 2027, 09:00 (Europe/Berlin). "
        "Leave your e-mail address or phone number here and we will get back to you."
    )


def test_the_owners_away_message_in_the_visitors_language_and_the_back_time(shop):
    AwayMessage.objects.create(site=shop, language="de", text="Wir feiern Heilige Drei Könige.")
    at = datetime(2027, 1, 6, 10, 0, tzinfo=UTC)  # Epiphany, a Wednesday, 11:00 in Munich
    case, notice = ask_for_a_person(
        shop, at, language="de", texts=("Bitte an anna@example.com antworten.",)
    )
    assert case.outside_hours and case.callback_requested
    assert notice == (
        "Wir feiern Heilige Drei Könige. Wir sind am Donnerstag, 7. Januar 2027, 09:00 "
        "(Europe/Berlin) wieder für Sie da. Wir melden uns über die Kontaktdaten, die Sie uns "
        "gegeben haben."
    )
    # a French visitor the same day: no French message, so the standard sentence in French
    _, french = ask_for_a_person(shop, at, language="fr")
    assert french.startswith("Notre équipe n’est pas disponible pour le moment")
    assert "jeudi 7 janvier 2027, 09:00 (Europe/Berlin)" in french
    assert "Heilige" not in french


def test_a_closed_day_sends_the_visitor_to_the_next_working_day(shop):
    ClosedDay.objects.create(site=shop, first_day=date(2026, 6, 3), reason="inventory")
    case, notice = ask_for_a_person(shop, datetime(2026, 6, 3, 10, 0, tzinfo=UTC))
    assert case.outside_hours
    # Thursday 4 June 2026 is Corpus Christi, a holiday in Bavaria: back on Friday
    assert "We are back on Friday 5 June 2026, 09:00 (Europe/Berlin)." in notice
    assert "inventory" not in notice, "the reason is for the team"


def test_an_ordinary_weekday_morning_is_within_the_hours(shop):
    case, notice = ask_for_a_person(shop, datetime(2026, 6, 2, 8, 0, tzinfo=UTC))
    assert not case.outside_hours
    # no e-mail address in the chat: the answer by e-mail is offered too (issue 32)
    assert notice.startswith("A member of the team will reply here. If you have to leave")
    assert Case.objects.count() == 1
