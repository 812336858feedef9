"""Satisfaction in real Chromium (issue 18), two sessions: the visitor asks for a person in
the widget; an owner (who also answers cases) replies and resolves the case in admin; the
widget asks for a rating, the visitor gives one with a comment; the rating shows on the case
page and in the owners' dashboard. Screenshots go to test-artifacts/."""

import pytest

from tests.e2e.conftest import artifact, shadow
from tests.fakellm import JsonReply, Reply

pytestmark = pytest.mark.e2e

OWNER_PASSWORD = "a-long-e2e-owner-password"
CORE = {
    "request": "a parcel that has not arrived",
    "objects": [],
    "constraints": [],
    "open_points": [],
    "promises": [],
    "corrections": [],
    "settled": [],
}


@pytest.fixture(scope="module")
def owner_login(live_stack):
    live_stack.shell(
        "from chatwidget.sites.models import Site\n"
        "from django.contrib.auth.models import Group, User\n"
        "Site.objects.update(staff_hours='')\n"
        "u, _ = User.objects.get_or_create(username='olga', defaults={'is_staff': True,"
        " 'first_name': 'Olga'})\n"
        f"u.set_password('{OWNER_PASSWORD}'); u.save()\n"
        "u.groups.add(Group.objects.get(name='Owner'))\n"
    )
    return "olga", OWNER_PASSWORD


def test_visitor_rates_the_resolved_case_and_owner_sees_it(
    live_stack, fake, owner_login, browser, page
):
    # --- the visitor asks for a person ----------------------------------------------------------
    fake.script.extend([Reply("Let me check that for you."), JsonReply(CORE)])
    page.goto(live_stack.shop_url + "/")
    shadow(page, "button.launcher").click()
    shadow(page, "form.composer textarea").fill("My parcel has not arrived yet.")
    shadow(page, "form.composer textarea").press("Enter")
    shadow(page, ".message.assistant .bubble").filter(has_text="check that").wait_for()
    shadow(page, ".handover-bar button").click()
    shadow(page, ".message.system").filter(has_text="A member of the team").wait_for()
    assert shadow(page, ".rating").is_hidden(), "no rating while the case is open"

    # --- the owner replies and resolves -----------------------------------------------------------
    staff_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        admin = staff_ctx.new_page()
        admin.set_default_timeout(10_000)
        admin.goto(live_stack.widget_url + "/admin/login/?next=/admin/handover/case/")
        admin.fill("#id_username", owner_login[0])
        admin.fill("#id_password", owner_login[1])
        admin.click("input[type=submit]")
        admin.wait_for_url("**/admin/handover/case/")
        # this visitor's case: the newest waiting one (other browser tests leave cases too)
        case_id = (
            live_stack.shell(
                "from handover.models import Case\n"
                "print('case', Case.objects.filter(status='waiting').latest('requested_at').pk)"
            )
            .split("case ")[-1]
            .split()[0]
        )
        case_url = f"{live_stack.widget_url}/admin/handover/case/{case_id}/change/"
        admin.goto(case_url)
        admin.fill("#reply-text", "Hi, Olga here: it arrives tomorrow.")
        admin.click("#reply-form button[type=submit]")
        admin.locator("#live-turns li.staff").filter(has_text="arrives tomorrow").wait_for()
        admin.goto(case_url)
        admin.locator("#resolve-form textarea").fill("Parcel delayed one day; told the visitor.")
        admin.click("#resolve-form button[type=submit]")

        # --- the widget asks; the visitor rates ---------------------------------------------------
        shadow(page, ".rating .rating-form").wait_for()
        assert shadow(page, "form.composer textarea").is_disabled(), "the conversation is closed"
        shadow(page, ".rating .score").nth(3).click()  # 4 of 5
        assert shadow(page, ".rating .score").nth(3).get_attribute("aria-pressed") == "true"
        shadow(page, ".rating input").fill("Quick and friendly, mail me at anna@example.com")
        shadow(page, ".rating .pill-button").click()
        shadow(page, ".rating-thanks").wait_for()
        page.screenshot(path=str(artifact("rating-widget-thanks.png")))

        # a reload thanks again instead of asking a second time
        page.reload()
        shadow(page, ".panel").wait_for(state="attached")  # an existing conversation: at once
        if shadow(page, ".panel").is_hidden():  # the panel may be restored open
            shadow(page, "button.launcher").click()
        shadow(page, ".rating-thanks").wait_for()
        assert shadow(page, ".rating .rating-form").is_hidden()

        # --- the rating on the case page and in the dashboard -------------------------------------
        admin.goto(case_url)
        rating = admin.locator("#case-rating")
        rating.wait_for()
        assert "4 / 5" in rating.inner_text()
        assert "Quick and friendly" in rating.inner_text()
        assert "anna@example.com" not in admin.content(), "the comment is stored masked"
        admin.screenshot(path=str(artifact("rating-case-page.png")), full_page=True)

        admin.goto(live_stack.widget_url + "/admin/insights/dashboard/?days=7")
        # the stack's own site's row: other browser tests add sites of their own
        summary = admin.locator("#dashboard-summary tbody tr", has_text="E2E shop").first
        summary.wait_for()
        assert summary.locator("[data-field=ratings]").inner_text() == "1", "the one rating"
        assert int(summary.locator("[data-field=handovers]").inner_text()) >= 1
        assert admin.locator("#chart-ratings svg").count() == 1
        assert "Quick and friendly" not in admin.content(), "counts only in the dashboard"
        admin.screenshot(path=str(artifact("dashboard.png")), full_page=True)
        with admin.expect_download() as download:
            admin.click("#dashboard-csv")
        text = open(download.value.path(), encoding="utf-8").read()
        assert text.splitlines()[0].startswith("site_id,site,day,conversations,")
    finally:
        staff_ctx.close()
