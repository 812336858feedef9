"""Staff hours are stated in the site's time zone wherever a visitor or staff member reads
them, and the widget's waiting banner does not promise what the outside-hours notice denies
(issue 16)."""

import pytest

from chatwidget.sites.hours import hours_describe
from chatwidget.widget.strings import WIDGET_STRINGS
from handover import services
from memory.models import Turn
from tests.factories import CLOSED_TIME, ConversationFactory

pytestmark = pytest.mark.django_db


def test_hours_are_described_with_the_zone_they_are_in():
    spec = "mon-fri 09:00-17:00"
    assert hours_describe(spec=spec, language="en", time_zone="America/New_York") == (
        "Mon\u2013Fri 09:00\u201317:00 (America/New_York)"
    )
    assert hours_describe(spec=spec, language="en") == "Mon\u2013Fri 09:00\u201317:00"


def test_outside_hours_notice_names_the_site_zone_and_the_banner_agrees(site):
    site.time_zone = "Asia/Kolkata"
    site.save()
    conv = ConversationFactory(site=site, texts=["Where is my parcel?"])
    services.handover_request(
        conversation_id=conv.pk, trigger="visitor", reason="parcel", now=CLOSED_TIME
    )
    notice = Turn.objects.filter(conversation=conv, role="system").latest("seq").text
    assert "not available right now" in notice and "(Asia/Kolkata)" in notice
    banner = str(WIDGET_STRINGS["waiting"])
    assert "will reply" not in banner, "the banner must not promise a reply 'here' now"
    assert banner == "Waiting for a member of the team."
