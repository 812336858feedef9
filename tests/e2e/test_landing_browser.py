"""The service's own pages in real Chromium: `/` says what this is and leads to admin; admin
shows times in the site's zone with the zone named; "View site" leads back to `/`."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tests.e2e.conftest import artifact

pytestmark = pytest.mark.e2e

PASSWORD = "a-long-e2e-admin-password"


@pytest.fixture(scope="module")
def admin_login(live_stack):
    out = live_stack.shell(
        "from django.contrib.auth.models import User\n"
        "from chatwidget.sites.models import Site\n"
        "from memory.models import Conversation\n"
        "import datetime\n"
        "u, _ = User.objects.get_or_create(username='root-e2e', defaults={'is_staff': True,"
        " 'is_superuser': True})\n"
        f"u.set_password('{PASSWORD}'); u.save()\n"
        "site = Site.objects.get(name='E2E shop')\n"
        "c = Conversation.objects.create(site=site)\n"
        # within the retention period (the list shows no expired conversation), minute 44
        "at = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)).replace(\n"
        "    minute=44, second=0, microsecond=0)\n"
        "Conversation.objects.filter(pk=c.pk).update(created_at=at, last_activity_at=at)\n"
        "from handover.models import Case\n"
        "case = Case.objects.create(site=site, conversation=c, trigger='visitor')\n"
        "Case.objects.filter(pk=case.pk).update(requested_at=at)\n"
        "Conversation.objects.filter(pk=c.pk).update(case_hold=True)  # as handover writes it\n"
        "print(c.pk, site.time_zone, at.isoformat())\n"
    )
    pk, zone, at = out.strip().splitlines()[-1].split()
    return "root-e2e", PASSWORD, int(pk), zone, datetime.fromisoformat(at)


def test_front_page_leads_to_admin_and_admin_times_are_in_the_sites_zone(
    live_stack, admin_login, page
):
    page.goto(live_stack.widget_url + "/")
    assert page.locator("h1").inner_text() == "Shop chat assistant"
    assert "self-hosted AI chat assistant for web shops" in page.content()
    page.screenshot(path=str(artifact("landing.png")), full_page=True)
    page.locator("a[lang=de]").click()
    page.get_by_text("Für Besucher der Shops gibt es hier nichts").wait_for()
    assert page.locator("html").get_attribute("lang") == "de"

    page.locator("#admin-link").click()
    page.wait_for_url("**/admin/login/**")
    page.fill("#id_username", admin_login[0])
    page.fill("#id_password", admin_login[1])
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")

    user, _password, pk, zone, at = admin_login
    page.goto(live_stack.widget_url + "/admin/memory/conversation/")
    # the row whose change link is this conversation's (its number alone also matches "2026")
    row = page.locator(f'#result_list tbody tr:has(a[href$="/{pk}/change/"])')
    local = at.astimezone(ZoneInfo(zone))
    expected = f"{local.day} {local:%b %Y, %H:%M} {local.tzname()}"  # 1 Dec 2026, 06:44 CET
    assert expected in row.inner_text().replace("\xa0", " "), row.inner_text()
    assert "a.m." not in page.content() and "p.m." not in page.content()
    page.screenshot(path=str(artifact("admin-times.png")), full_page=True)

    # The handover case list: the Requested column shows the whole time, on one line.
    page.goto(live_stack.widget_url + "/admin/handover/case/")
    page.screenshot(path=str(artifact("admin-case-list.png")), full_page=True)
    cell = page.locator("#result_list td.field-requested").first
    assert cell.inner_text().replace("\xa0", " ") == expected
    # Its text is inside the visible part of the results (admin scrolls what is wider).
    text_right = cell.evaluate(
        "td => { const r = document.createRange(); "
        "r.selectNodeContents(td); return r.getBoundingClientRect().right; }"
    )
    frame = page.locator("#changelist .results").bounding_box()
    assert text_right <= frame["x"] + frame["width"], "Requested is cut off"

    # The case links to its conversation, whose page names it and links back.
    page.locator("#result_list tbody a").first.click()
    page.locator("#case-conversation-link").click()
    page.wait_for_url(f"**/admin/memory/conversation/{pk}/change/")
    assert page.locator("h1").inner_text() == f"Conversation {pk}"
    heading = page.locator("#content h2").first.inner_text().replace("\xa0", " ")
    assert heading == f"E2E shop, started {expected}"
    page.locator("#conversation-case-link").click()
    page.wait_for_url("**/admin/handover/case/?conversation__exact=*")

    page.get_by_role("link", name="View site").click()
    page.wait_for_url(live_stack.widget_url + "/")
    assert "signed in as root-e2e" in page.content()
