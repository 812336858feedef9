"""Handover in real Chromium: the visitor asks for a person in the widget; a staff member
logs into admin, opens the case, sees the condensed core above the collapsed transcript,
expands it and replies; the visitor sees the reply. Screenshots go to test-artifacts/."""

import pytest

from tests.e2e.conftest import artifact, shadow
from tests.fakellm import JsonReply, Reply

pytestmark = pytest.mark.e2e

STAFF_PASSWORD = "a-long-e2e-staff-password"
CORE = {
    "request": "the mint cotton kurta KU-2291-M in size L",
    "objects": [{"kind": "article", "id": "KU-2291-M", "label": "cotton kurta, mint"}],
    "constraints": [{"what": "size", "value": "L", "turn": 1}],
    "open_points": ["whether size L fits a 104 cm chest"],
    "promises": [],
    "corrections": [],
    "settled": [],
}


@pytest.fixture(scope="module")
def staff_login(live_stack):
    live_stack.shell(
        "from chatwidget.sites.models import Site\n"
        "from django.contrib.auth.models import Group, User\n"
        "Site.objects.update(staff_hours='')\n"
        "u, _ = User.objects.get_or_create(username='sam', defaults={'is_staff': True,"
        " 'first_name': 'Sam'})\n"
        f"u.set_password('{STAFF_PASSWORD}'); u.save()\n"
        "u.groups.add(Group.objects.get(name='Staff'))\n"
    )
    return "sam", STAFF_PASSWORD


def test_visitor_asks_for_a_person_and_staff_replies_from_admin(
    live_stack, fake, staff_login, browser, page
):
    # cases other browser tests left waiting on this stack (their order is not fixed)
    waiting_before = int(
        live_stack.shell(
            "from django.contrib.auth.models import User\n"
            "from chatwidget.sites.access import staff_site_ids\n"
            "from handover.selectors import case_waiting_count\n"
            "sites = staff_site_ids(User.objects.get(username='sam'))\n"
            "print(case_waiting_count(site_ids=sites))\n"
        )
        .strip()
        .splitlines()[-1]
    )
    # --- the visitor --------------------------------------------------------------------------
    fake.script.extend([Reply("The mint kurta comes in S to XL."), JsonReply(CORE)])
    page.goto(live_stack.shop_url + "/")
    shadow(page, "button.launcher").click()
    shadow(page, "textarea").fill(
        "I need the mint kurta KU-2291-M in size L. Does L fit a 104 cm chest? "
        "Mail me at anna@example.com"
    )
    shadow(page, "textarea").press("Enter")
    shadow(page, ".message.assistant .bubble").filter(has_text="S to XL").wait_for()
    shadow(page, ".handover-bar button").click()
    shadow(page, ".message.system").filter(
        has_text="A member of the team will reply here."
    ).wait_for()
    assert shadow(page, ".handover-bar").is_hidden(), "the control goes once a person is asked for"
    # the address is in the chat already: no offer to leave one (issue 32)
    assert shadow(page, ".email-offer").is_hidden()

    # --- staff in admin -----------------------------------------------------------------------
    staff_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        admin = staff_ctx.new_page()
        admin.set_default_timeout(10_000)
        admin.goto(live_stack.widget_url + "/admin/login/?next=/admin/handover/case/")
        admin.fill("#id_username", staff_login[0])
        admin.fill("#id_password", staff_login[1])
        admin.click("input[type=submit]")
        admin.wait_for_url("**/admin/handover/case/")
        assert admin.locator("#handover-waiting-count").inner_text() == str(waiting_before + 1)
        # this visitor's case: the newest (other tests' cases may wait above it in the list)
        case_id = (
            live_stack.shell(
                "from handover.models import Case\nprint(Case.objects.latest('pk').pk)\n"
            )
            .strip()
            .splitlines()[-1]
        )
        admin.locator(f'#result_list tbody a[href$="/{case_id}/change/"]').first.click()
        admin.wait_for_url("**/admin/handover/case/*/change/")

        core = admin.locator("#case-core")
        core.filter(has_text="KU-2291-M").wait_for()
        assert "size: L" in core.inner_text()
        transcript = admin.locator("#case-transcript")
        assert admin.locator("#case-reason").bounding_box()["y"] < core.bounding_box()["y"]
        assert core.bounding_box()["y"] < transcript.bounding_box()["y"], "core above transcript"
        assert admin.locator("details#transcript").get_attribute("open") is None
        assert admin.locator("#transcript-turns").is_hidden(), "the transcript starts collapsed"
        reply_box = admin.locator("#reply-text").bounding_box()
        assert reply_box["y"] + reply_box["height"] <= 800, "the reply box in the first screen"
        assert "own words" not in admin.locator("#case-reason").inner_text(), "a button, no quote"
        assert "anna@example.com" not in admin.content(), "contact details are masked"
        admin.screenshot(path=str(artifact("handover-case-page.png")), full_page=True)

        admin.locator("details#transcript summary").click()
        first_turn = admin.locator("#transcript-turns li.visitor").first
        first_turn.wait_for()
        assert "KU-2291-M" in first_turn.inner_text()
        assert "a\u2022\u2022\u2022@e\u2022\u2022\u2022.com" in first_turn.inner_text()
        admin.screenshot(path=str(artifact("handover-case-transcript-open.png")), full_page=True)

        admin.fill("#reply-text", "Hi, Sam here: L fits up to a 106 cm chest.")
        admin.click("#reply-form button[type=submit]")
        # the reply comes back over the staff socket, like every turn
        admin.locator("#live-turns li.staff").filter(has_text="106 cm").wait_for()

        # --- the visitor sees the reply, and their next message appears live, masked -----------
        shadow(page, ".message.staff .bubble").filter(
            has_text="L fits up to a 106 cm chest."
        ).wait_for()
        page.screenshot(path=str(artifact("handover-widget-staff-reply.png")))
        shadow(page, "textarea").fill("Great, or call me on +49 30 1234567")
        shadow(page, "textarea").press("Enter")
        live = admin.locator("#live-turns li.visitor").filter(has_text="Great, or call me")
        live.wait_for()
        assert "1234567" not in live.inner_text()
        assert len([r for r in fake.requests if r.get("stream")]) == 1, "the bot stayed silent"
        admin.screenshot(path=str(artifact("handover-case-live.png")), full_page=True)
    finally:
        staff_ctx.close()
