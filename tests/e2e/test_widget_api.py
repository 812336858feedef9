"""The widget's public JavaScript API in real Chromium: commands pushed before the loader
ran, methods after, and the events a shop page can listen to."""

import pytest

from tests.e2e import widget_pages
from tests.e2e.conftest import shadow
from tests.e2e.widget_pages import (
    RECORD_ANNOUNCEMENTS,
    announcements,
    assert_no_violations,
    send,
    session_cookies,
    shop_page,
    staff_reply_in_admin,
)
from tests.fakellm import Reply

pytestmark = pytest.mark.e2e
page_server = widget_pages.page_server  # fixtures
shop = widget_pages.shop

LISTEN = """
window.seen = [];
window.ChatWidget = window.ChatWidget || [];
["ready", "open", "close", "message", "unread", "handover", "state"].forEach(
  (name) => ChatWidget.push(["on", name, (detail) => seen.push([name, detail])]));
"""


def seen(page, name=None):
    events = page.evaluate("window.seen")
    return [detail for event, detail in events if event == name] if name else events


def test_commands_pushed_before_the_loader_run_in_order_once_it_is_ready(
    live_stack, fake, page_server, page
):
    before = LISTEN + 'ChatWidget.push(["prefill", "Do you ship to Austria?"]);'
    widget_pages.allow_origin(live_stack, live_stack.site_key, page_server.origin)
    url = page_server.add(
        "/before-load/", shop_page(live_stack, live_stack.site_key, before=before)
    )
    page.goto(url)
    composer = shadow(page, "textarea")
    composer.wait_for()
    assert composer.input_value() == "Do you ship to Austria?", "prefill opened the panel"
    assert page.evaluate("window.__cwWidget.open")
    names = [event for event, _ in seen(page)]
    assert names[:2] == ["ready", "open"], names
    assert seen(page, "ready") == [{"lang": "en"}]
    # a listener added after ready is called at once
    page.evaluate("ChatWidget.on('ready', (d) => seen.push(['late-ready', d]))")
    assert seen(page, "late-ready") == [{"lang": "en"}]


def test_methods_after_load_and_message_open_close_events(live_stack, fake, shop, page):
    page.goto(shop)
    page.evaluate(LISTEN)  # the API object is in place: push and methods both work
    page.wait_for_function("window.ChatWidget && !Array.isArray(window.ChatWidget)")
    fake.script.append(Reply("We ship to Austria in three to five days."))
    page.evaluate("ChatWidget.send('Do you ship to Austria?')")
    page.wait_for_function("window.seen.filter(e => e[0] === 'message').length >= 2")
    visitor, assistant = seen(page, "message")[:2]
    assert visitor["role"] == "visitor" and visitor["text"] == "Do you ship to Austria?"
    assert assistant == {
        "role": "assistant",
        "seq": visitor["seq"] + 1,
        "text": "We ship to Austria in three to five days.",
    }
    assert page.evaluate("window.__cwWidget.open"), "send opens the panel"

    page.evaluate("ChatWidget.close()")
    page.wait_for_function("window.seen.some(e => e[0] === 'close')")
    assert shadow(page, "#cw-panel").is_hidden()
    page.evaluate("ChatWidget.toggle()")
    page.wait_for_function("window.__cwWidget.open")
    page.evaluate("ChatWidget.push(['close'])")
    page.wait_for_function("!window.__cwWidget.open")
    names = [event for event, _ in seen(page) if event in ("open", "close")]
    assert names == ["open", "close", "open", "close"], names

    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.evaluate("ChatWidget.push(['explode'])")
    page.wait_for_timeout(100)
    assert any("unknown command" in w for w in warnings), warnings


def test_set_language_relabels_the_widget_and_keeps_the_conversation(live_stack, fake, shop, page):
    page.goto(shop)
    widget_pages.open_panel(page)
    send(page, "hello in English")
    shadow(page, ".message.assistant .bubble").filter(has_text="You said: hello").wait_for()
    page.evaluate("ChatWidget.setLanguage('de')")
    shadow(page, "#cw-title").filter(has_text="Chatten Sie mit uns").wait_for()
    assert shadow(page, "#cw-panel").get_attribute("lang") == "de"
    assert shadow(page, "button.launcher").get_attribute("aria-label") == "Chat schließen"
    shadow(page, ".message.visitor .bubble").filter(has_text="hello in English").wait_for()
    assert shadow(page, "#cw-disclosure").inner_text().startswith("Sie chatten mit einem KI")


def test_set_language_keeps_a_prefilled_draft_and_the_empty_field_has_no_scroll_bar(
    live_stack, fake, shop, page
):
    page.goto(shop)
    widget_pages.open_panel(page)
    field = shadow(page, "textarea")
    assert field.evaluate("f => getComputedStyle(f).overflowY") == "hidden"
    page.evaluate("ChatWidget.prefill('Wo ist meine Bestellung 10453?')")
    page.evaluate("ChatWidget.setLanguage('de')")
    shadow(page, "#cw-title").filter(has_text="Chatten Sie mit uns").wait_for()
    assert shadow(page, "textarea").input_value() == "Wo ist meine Bestellung 10453?"


def test_handover_state_unread_events_and_a_staff_reply_announced_while_closed(
    live_stack, fake, shop, browser, context, page
):
    live_stack.shell(
        "from chatwidget.sites.models import Site\nSite.objects.update(staff_hours='')"
    )
    page.goto(shop)
    page.evaluate(LISTEN)
    widget_pages.open_panel(page)
    send(page, "My parcel has not arrived")
    shadow(page, ".message.assistant .bubble").filter(has_text="parcel").wait_for()
    shadow(page, ".handover-bar button").click()
    page.wait_for_function("window.seen.some(e => e[0] === 'handover')")
    assert seen(page, "handover") == ["waiting"]
    assert seen(page, "state") == ["waiting"]

    page.keyboard.press("Escape")
    assert shadow(page, "#cw-panel").is_hidden()
    page.evaluate(RECORD_ANNOUNCEMENTS)
    token = next(iter(session_cookies(context, shop).values()))
    staff_reply_in_admin(live_stack, browser, token, "Wendy here: it left our warehouse today.")

    page.wait_for_function("(window.__announced || []).some(t => t.includes('warehouse'))")
    assert "Support team: Wendy here: it left our warehouse today." in announcements(page)
    counts = seen(page, "unread")  # the staff member's joining notice and the reply
    assert counts and counts == list(range(1, len(counts) + 1)), counts
    assert seen(page, "state") == ["waiting", "human"]
    launcher = shadow(page, "button.launcher")
    assert "has-unread" in launcher.get_attribute("class")
    assert f"{counts[-1]} new message" in launcher.get_attribute("aria-label")

    launcher.click()
    shadow(page, ".message.staff .bubble").filter(has_text="warehouse").wait_for()
    page.wait_for_function("window.seen.some(e => e[0] === 'unread' && e[1] === 0)")
    assert "has-unread" not in launcher.get_attribute("class")
    assert_no_violations(page, "with a staff reply")
