"""Admin shows times in the site's zone, the zone named, in one format per language."""

from datetime import UTC, datetime

import pytest
from django.utils import translation

from chatwidget.admin_time import site_time
from chatwidget.models import Site
from memory.models import Conversation

WINTER = datetime(2026, 12, 1, 5, 44, tzinfo=UTC)
SUMMER = datetime(2026, 7, 1, 5, 44, tzinfo=UTC)


def test_site_time_converts_and_names_the_zone():
    assert site_time(WINTER, time_zone="Europe/Berlin") == "1 Dec 2026, 06:44 CET"
    assert site_time(SUMMER, time_zone="Europe/Berlin") == "1 Jul 2026, 07:44 CEST"
    assert site_time(SUMMER, time_zone="America/New_York") == "1 Jul 2026, 01:44 EDT"
    assert site_time(None, time_zone="Europe/Berlin") == ""


def test_site_time_in_german_and_with_an_unknown_zone(settings):
    with translation.override("de"):
        assert site_time(WINTER, time_zone="Europe/Berlin") == "1. Dez 2026, 06:44 CET"
    settings.TIME_ZONE = "UTC"
    assert site_time(WINTER, time_zone="Mars/Olympus") == "1 Dec 2026, 05:44 UTC"


@pytest.mark.django_db
def test_admin_pages_render_in_the_sites_zone(admin_client, site):
    conv = Conversation.objects.create(site=site)
    Conversation.objects.filter(pk=conv.pk).update(created_at=WINTER, last_activity_at=WINTER)
    body = admin_client.get("/admin/memory/conversation/").content.decode()
    assert "1 Dec 2026, 06:44 CET" in body
    assert "5:44 a.m." not in body and "05:44" not in body

    # Sites in different zones: admin falls back to the server's zone, still named.
    Site.objects.create(name="US shop", key="us-shop-key", time_zone="America/New_York")
    body = admin_client.get("/admin/memory/conversation/").content.decode()
    assert "1 Dec 2026, 05:44 UTC" in body

