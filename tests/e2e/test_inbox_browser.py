"""The live inbox in real Chromium (issue 18), two kinds of sessions: visitors in their own
browser contexts, staff in another. Staff presence decides availability (nobody online: the
widget says so and asks for an e-mail address; the inbox open: "a member of the team will
reply"); the inbox updates live (new case, visitor message, claim by reply); the case page
updates in place (no Claim button after the reply claimed it); a canned reply is inserted
with /shortcut + Tab and sent. This module runs its own stack with presence required."""

import pytest

from tests.e2e.conftest import artifact, shadow
from tests.e2e.stacks import stack_running

pytestmark = pytest.mark.e2e

STAFF_PASSWORD = "a-long-e2e-inbox-password"
NOBODY = "Nobody from our team is free right now."
CANNED = "Your parcel left our warehouse today; tracking follows by e-mail."


@pytest.fixture(scope="module")
def presence_stack():
    with stack_running({"STAFF_PRESENCE_REQUIRED": "1"}) as stack:
        stack.shell(
            "from chatwidget.sites.models import Site\n"
            "from django.contrib.auth.models import Group, User\n"
            "from handover.models import CannedReply\n"
            "Site.objects.update(staff_hours='')\n"
            "u, _ = User.objects.get_or_create(username='sam', defaults={'is_staff': True,"
            " 'first_name': 'Sam'})\n"
            f"u.set_password('{STAFF_PASSWORD}'); u.save()\n"
            "u.groups.add(Group.objects.get(name='Staff'))\n"
            "CannedReply.objects.create(site=Site.objects.get(), title='Parcel sent',"
            f" shortcut='sent', text='{CANNED}')\n"
        )
        yield stack


def ask_for_a_person(stack, page, text: str) -> None:
    page.goto(stack.shop_url + "/")
    shadow(page, "button.launcher").click()
    shadow(page, "form.composer textarea").fill(text)
    shadow(page, "form.composer textarea").press("Enter")
    shadow(page, ".message.assistant .bubble").first.wait_for()
    shadow(page, ".handover-bar button").click()


def test_inbox_presence_and_a_canned_reply(presence_stack, browser):
    stack = presence_stack
    first = browser.new_context()
    second = browser.new_context()
    staff_ctx = browser.new_context(
        viewport={"width": 1280, "height": 1000}, permissions=["notifications"]
    )
    # what the page hands the browser's Notification API (headless shows none), recorded
    staff_ctx.add_init_script(
        "window.__notes = [];"
        "window.Notification = function (title, opts) { window.__notes.push(title); };"
        "window.Notification.permission = 'granted';"
        "window.Notification.requestPermission = () => Promise.resolve('granted');"
    )
    try:
        # --- nobody online: the widget says so and asks for an e-mail address ------------------
        visitor1 = first.new_page()
        visitor1.set_default_timeout(15_000)
        ask_for_a_person(stack, visitor1, "Where is my parcel 4711?")
        shadow(visitor1, ".message.system").filter(has_text=NOBODY).wait_for()

        # --- staff open the inbox: they are present, the waiting case is listed ----------------
        inbox = staff_ctx.new_page()
        inbox.set_default_timeout(15_000)
        inbox.goto(stack.widget_url + "/admin/login/?next=/admin/handover/case/inbox/")
        inbox.fill("#id_username", "sam")
        inbox.fill("#id_password", STAFF_PASSWORD)
        inbox.click("input[type=submit]")
        inbox.wait_for_url("**/admin/handover/case/inbox/")
        inbox.locator(".inbox[data-live='1']").wait_for()
        assert inbox.locator("#inbox-rows tr").count() == 1

        # --- a second visitor now reaches a person; the inbox shows the case live --------------
        visitor2 = second.new_page()
        visitor2.set_default_timeout(15_000)
        ask_for_a_person(stack, visitor2, "My parcel 4712 has not arrived.")
        shadow(visitor2, ".message.system").filter(
            has_text="A member of the team will reply here."
        ).wait_for()
        # no address yet: the widget offers the answer by e-mail (issue 32)
        offer = shadow(visitor2, ".email-offer")
        assert offer.is_visible() and "e-mail address" in offer.inner_text()
        row = inbox.locator("#inbox-rows tr[data-status='waiting']").nth(1)
        row.wait_for()
        assert inbox.evaluate("window.__notes") == ["A visitor is waiting for a person"]
        assert row.locator(".unread").inner_text() == "0"
        shadow(visitor2, "form.composer textarea").fill("Hello? It was sent last week.")
        shadow(visitor2, "form.composer textarea").press("Enter")
        inbox.locator("#inbox-rows tr").nth(1).locator(".unread[data-n='1']").wait_for()
        inbox.screenshot(path=str(artifact("inbox-live.png")), full_page=True)
        case_id = inbox.locator("#inbox-rows tr").nth(1).get_attribute("data-case")

        # --- the case page: everything said so far, a canned reply by keystroke ----------------
        case_page = staff_ctx.new_page()
        case_page.set_default_timeout(15_000)
        case_page.goto(f"{stack.widget_url}/admin/handover/case/{case_id}/change/")
        live = case_page.locator("#live-turns")
        live.locator("li.visitor").filter(has_text="4712").wait_for()  # said before it opened
        assert case_page.locator("#claim").count() == 1
        case_page.fill("#reply-text", "Hi, Sam here. /sent")
        case_page.locator("#reply-text").press("Tab")
        assert case_page.locator("#reply-text").input_value() == f"Hi, Sam here. {CANNED}"
        case_page.click("#reply-form button[type=submit]")
        live.locator("li.staff").filter(has_text="warehouse").wait_for()
        # the reply claimed the case: the page changed in place, no Claim button, no reload note
        case_page.locator("#case-state[data-state='human']").wait_for()
        case_page.locator("#resolve-form").wait_for()
        assert case_page.locator("#claim").count() == 0
        assert "Reload" not in (case_page.locator("#case-live-note").text_content() or "")
        case_page.screenshot(path=str(artifact("inbox-case-page-after-reply.png")), full_page=True)

        # --- the visitor got the canned reply; the inbox row shows the claim --------------------
        shadow(visitor2, ".message.staff .bubble").filter(has_text="warehouse").wait_for()
        claimed = inbox.locator(f"#inbox-rows tr[data-case='{case_id}'][data-status='human']")
        claimed.wait_for()
        assert claimed.locator(".unread").inner_text() == "0"
        assert "Sam" in claimed.locator(".assignee").inner_text()

        # --- staff leave: nobody is available again --------------------------------------------
        inbox.close()
        case_page.close()
        third = browser.new_context()
        try:
            visitor3 = third.new_page()
            visitor3.set_default_timeout(15_000)
            ask_for_a_person(stack, visitor3, "Parcel 4713?")
            shadow(visitor3, ".message.system").filter(has_text=NOBODY).wait_for()
        finally:
            third.close()
    finally:
        staff_ctx.close()
        first.close()
        second.close()


def test_the_email_link_reopens_the_conversation_in_the_widget(presence_stack, browser):
    """The continuation e-mail's link (its code made here as the worker makes it) is the
    shop's page with the code in the fragment; the widget exchanges the code (POST body) and
    shows the same conversation, the staff reply included. The code works once; the address
    bar keeps no code."""
    stack = presence_stack
    visitor_ctx = browser.new_context()
    try:
        visitor = visitor_ctx.new_page()
        visitor.set_default_timeout(15_000)
        ask_for_a_person(stack, visitor, "Where is parcel 4720? Write to anna@example.com")
        shadow(visitor, ".message.system").filter(has_text=NOBODY).wait_for()
        code = (
            stack.shell(
                "from handover import services\n"
                "from handover.models import Case\n"
                "from django.contrib.auth.models import User\n"
                "from handover.services.continuation import continuation_code\n"
                "case = Case.objects.order_by('-pk').first()\n"
                "sam = User.objects.get(username='sam')\n"
                "services.staff_reply(case_id=case.pk, user=sam, text='Parcel 4720 arrives Monday.')\n"
                "print(continuation_code(case=case, address='anna@example.com'))\n"
            )
            .strip()
            .splitlines()[-1]
        )
    finally:
        visitor_ctx.close()  # the visitor has left

    returning = browser.new_context()  # another browser: no session cookie
    try:
        page = returning.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{stack.shop_url}/#cw-continue={code}")
        shadow(page, ".message.staff .bubble").filter(has_text="arrives Monday").wait_for()
        shadow(page, ".message.visitor .bubble").filter(has_text="parcel 4720").wait_for()
        assert "cw-continue" not in page.url
        page.screenshot(path=str(artifact("continuation-reopened.png")))
        # the transcript by e-mail, to the address the link went to (verified by the link)
        shadow(page, "button[aria-controls='cw-menu']").click()
        shadow(page, "#cw-menu button").filter(has_text="E-mail me the conversation").click()
        shadow(page, "[aria-live='polite']").filter(has_text="on its way").first.wait_for(
            state="attached"
        )

        other = browser.new_context()  # the same link a second time, elsewhere: used up
        try:
            again = other.new_page()
            again.set_default_timeout(15_000)
            again.goto(f"{stack.shop_url}/#cw-continue={code}")
            again.wait_for_timeout(1500)
            assert shadow(again, ".message.staff").count() == 0
        finally:
            other.close()
    finally:
        returning.close()


def test_assign_from_the_inbox_the_filters_and_the_installable_inbox(presence_stack, browser):
    """Issue 32: "Assign to me" on a row gives the case to the user (the row comes back over
    the socket with the assignee), "Mine" and "Unassigned" filter the rows; the inbox links its
    web app manifest and the service worker registers for the whole admin (/admin/)."""
    stack = presence_stack
    visitor_ctx = browser.new_context()
    staff_ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        inbox = staff_ctx.new_page()
        inbox.set_default_timeout(15_000)
        inbox.goto(stack.widget_url + "/admin/login/?next=/admin/handover/case/inbox/")
        inbox.fill("#id_username", "sam")
        inbox.fill("#id_password", STAFF_PASSWORD)
        inbox.click("input[type=submit]")
        inbox.wait_for_url("**/admin/handover/case/inbox/")
        inbox.locator(".inbox[data-live='1']").wait_for()

        visitor = visitor_ctx.new_page()
        visitor.set_default_timeout(15_000)
        ask_for_a_person(stack, visitor, "Parcel 4730 is late.")
        # the earlier tests' cases are in the inbox too: this visitor's row by its request
        row = inbox.locator("#inbox-rows tr[data-status='waiting']").filter(has_text="4730")
        row.wait_for()
        case_id = row.get_attribute("data-case")
        row.locator("button[data-assign='me']").click()
        mine = inbox.locator(f"#inbox-rows tr[data-case='{case_id}'][data-status='human']")
        mine.wait_for()
        assert "Sam" in mine.locator(".assignee").inner_text()
        assert mine.locator("button[data-assign='me']").count() == 0
        shadow(visitor, ".message.system").filter(has_text="Sam").wait_for()

        inbox.click(".inbox-show a[href='?show=mine']")
        inbox.locator(".inbox[data-live='1'][data-show='mine']").wait_for()
        assert inbox.locator(f"#inbox-rows tr[data-case='{case_id}']").count() == 1
        inbox.click(".inbox-show a[href='?show=unassigned']")
        inbox.locator(".inbox[data-live='1'][data-show='unassigned']").wait_for()
        assert inbox.locator(f"#inbox-rows tr[data-case='{case_id}']").count() == 0
        inbox.screenshot(path=str(artifact("inbox-unassigned.png")), full_page=True)

        manifest = inbox.locator("link[rel=manifest]").get_attribute("href")
        answer = inbox.evaluate(
            "async (href) => { const r = await fetch(href); const m = await r.json();"
            " const reg = await navigator.serviceWorker.register('/admin/handover/sw.js',"
            " {scope: '/admin/'}); return [r.status, m.start_url, m.scope, reg.scope]; }",
            manifest,
        )
        assert answer[:3] == [200, "/admin/handover/case/inbox/", "/admin/"]
        assert answer[3].endswith("/admin/")

        alerts = staff_ctx.new_page()
        alerts.goto(stack.widget_url + "/admin/handover/alertpreference/")
        alerts.locator("#alerts-push").wait_for()
        alerts.screenshot(path=str(artifact("alerts-page.png")), full_page=True)
    finally:
        staff_ctx.close()
        visitor_ctx.close()
