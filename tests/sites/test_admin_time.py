"""Admin shows times in the site's zone, the zone named, in one format per language."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import translation

from chatwidget.platform.times import site_time
from chatwidget.sites.models import Site
from handover.models import Case
from memory.models import Conversation
from tests.factories import ConversationFactory

WINTER = datetime(2026, 12, 1, 5, 44, tzinfo=UTC)
SUMMER = datetime(2026, 7, 1, 5, 44, tzinfo=UTC)


def plain(text: str) -> str:
    """site_time keeps date and time each on one line with no-break spaces."""
    return text.replace("\xa0", " ")


def test_site_time_converts_and_names_the_zone():
    assert plain(site_time(WINTER, time_zone="Europe/Berlin")) == "1 Dec 2026, 06:44 CET"
    assert plain(site_time(SUMMER, time_zone="Europe/Berlin")) == "1 Jul 2026, 07:44 CEST"
    assert plain(site_time(SUMMER, time_zone="America/New_York")) == "1 Jul 2026, 01:44 EDT"
    # A line may break between date and time only.
    assert site_time(WINTER, time_zone="Europe/Berlin") == "1\xa0Dec\xa02026, 06:44\xa0CET"
    assert site_time(None, time_zone="Europe/Berlin") == ""


def test_site_time_in_german_and_with_an_unknown_zone(settings):
    with translation.override("de"):
        assert plain(site_time(WINTER, time_zone="Europe/Berlin")) == "1. Dez 2026, 06:44 CET"
    settings.TIME_ZONE = "UTC"
    assert plain(site_time(WINTER, time_zone="Mars/Olympus")) == "1 Dec 2026, 05:44 UTC"


@pytest.mark.django_db
def test_admin_pages_render_in_the_sites_zone(admin_client, site):
    """Times admin shows itself (here the sites' list) use the zone all sites share."""
    Site.objects.filter(pk=site.pk).update(created_at=WINTER)
    body = admin_client.get("/admin/sites/site/").content.decode().replace("\xa0", " ")
    assert "1 Dec 2026, 06:44 CET" in body
    assert "5:44 a.m." not in body and "05:44" not in body

    # Sites in different zones: admin falls back to the server's zone, still named.
    us = Site.objects.create(name="US shop", key="us-shop-key", time_zone="America/New_York")
    Site.objects.filter(pk=us.pk).update(created_at=WINTER)
    body = admin_client.get("/admin/sites/site/").content.decode().replace("\xa0", " ")
    assert body.count("1 Dec 2026, 05:44 UTC") == 2


@pytest.mark.django_db
# an hour after WINTER: the lists show only conversations within their retention period, so
# a fixed date in the test must not be days behind the clock (it failed from 4 Dec 2026 on)
@time_machine.travel(WINTER + timedelta(hours=1), tick=True)
def test_list_columns_show_each_sites_own_zone(admin_client, site):
    us = Site.objects.create(name="US shop", key="us-shop-key", time_zone="America/New_York")
    for s in (site, us):
        conv = ConversationFactory(site=s)
        Conversation.objects.filter(pk=conv.pk).update(created_at=WINTER, last_activity_at=WINTER)
        Case.objects.filter(
            pk=Case.objects.create(site=s, conversation=conv, trigger="visitor").pk
        ).update(requested_at=WINTER)
    body = admin_client.get("/admin/memory/conversation/").content.decode().replace("\xa0", " ")
    assert "1 Dec 2026, 06:44 CET" in body and "1 Dec 2026, 00:44 EST" in body
    body = admin_client.get("/admin/handover/case/").content.decode().replace("\xa0", " ")
    assert "1 Dec 2026, 06:44 CET" in body and "1 Dec 2026, 00:44 EST" in body


@pytest.mark.django_db
def test_conversation_page_says_what_it_shows_and_links_its_case_and_back(admin_client, site):
    conv = ConversationFactory(site=site)
    Conversation.objects.filter(pk=conv.pk).update(created_at=WINTER, case_hold=True)
    case = Case.objects.create(site=site, conversation=conv, trigger="visitor")

    page = admin_client.get(f"/admin/memory/conversation/{conv.pk}/change/")
    body = page.content.decode().replace("\xa0", " ")
    assert f"<h1>Conversation {conv.pk}</h1>" in body
    assert "<h2>Test shop, started 1 Dec 2026, 06:44 CET</h2>" in body
    link = f'href="/admin/handover/case/?conversation__exact={conv.pk}"'
    assert link in body
    cases = admin_client.get(f"/admin/handover/case/?conversation__exact={conv.pk}")
    assert cases.status_code == 200
    assert f"/admin/handover/case/{case.pk}/change/" in cases.content.decode().replace("\xa0", " ")

    back = (
        admin_client.get(f"/admin/handover/case/{case.pk}/change/")
        .content.decode()
        .replace("\xa0", " ")
    )
    assert f'href="/admin/memory/conversation/{conv.pk}/change/"' in back
    assert " CET" in back or " CEST" in back  # requested, in the site's zone, named


@pytest.mark.django_db
def test_conversation_page_without_a_case_has_no_case_link(admin_client, site):
    conv = ConversationFactory(site=site)
    body = (
        admin_client.get(f"/admin/memory/conversation/{conv.pk}/change/")
        .content.decode()
        .replace("\xa0", " ")
    )
    assert "conversation-case-link" not in body
