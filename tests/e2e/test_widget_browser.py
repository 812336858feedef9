"""The widget in real Chromium: the shop on one origin, the widget server on another."""

import re

import pytest

from tests.e2e.conftest import artifact, shadow
from tests.fakellm import Reply

pytestmark = pytest.mark.e2e

TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")  # secrets.token_urlsafe(32): 256 bits


def open_widget(page, url):
    page.goto(url)
    shadow(page, "button.launcher").click()
    shadow(page, "textarea").wait_for()


def send(page, text):
    shadow(page, "textarea").fill(text)
    shadow(page, "textarea").press("Enter")


def widget_cookies(context, live_stack):
    return [c for c in context.cookies(live_stack.shop_url)]


def test_chat_streams_survives_page_change_and_keeps_only_a_token(live_stack, fake, context, page):
    page.goto(live_stack.shop_url + "/")
    assert widget_cookies(context, live_stack) == [], "no cookie on page load"
    shadow(page, "button.launcher").click()
    assert widget_cookies(context, live_stack) == [], "no cookie on opening the panel"

    fake.script.append(
        Reply(
            "The mint kurta KU-2291-M ships in two to four working days.",
            first_token_ms=200,
            token_ms=60,
        )
    )
    send(page, "When does the mint kurta ship?")
    answer = shadow(page, ".message.assistant .bubble").last
    # streamed: partial text is visible before the whole answer has arrived
    page.wait_for_function(
        """() => { const r = document.querySelector('#cw-root').shadowRoot;
                   const b = [...r.querySelectorAll('.message.assistant .bubble')].pop();
                   return b && b.textContent.length > 0 && !b.textContent.endsWith('days.'); }"""
    )
    answer.filter(has_text="two to four working days.").wait_for()
    page.screenshot(path=str(artifact("widget-desktop.png")))

    cookies = widget_cookies(context, live_stack)
    assert len(cookies) == 1, "exactly one cookie from the widget"
    assert re.fullmatch(r"cw_session_[0-9a-f]{8}", cookies[0]["name"]), "named per site"
    assert TOKEN.match(cookies[0]["value"]), "the cookie holds only the random token"

    # a page change: the transcript comes back from the server
    page.click("text=Shipping and returns")
    page.wait_for_url("**/shipping")
    shadow(page, ".message.visitor .bubble").filter(
        has_text="When does the mint kurta ship?"
    ).wait_for()
    shadow(page, ".message.assistant .bubble").filter(
        has_text="two to four working days."
    ).wait_for()

    storage = page.evaluate(
        """async () => ({local: localStorage.length,
                         idb: (await indexedDB.databases()).length,
                         session: Object.keys(sessionStorage)})"""
    )
    assert storage["local"] == 0 and storage["idb"] == 0
    assert set(storage["session"]) <= {"cw_open"}, "sessionStorage holds only the open flag"
    assert len(widget_cookies(context, live_stack)) == 1


def test_markup_in_a_message_is_text_and_runs_nothing(live_stack, fake, page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_widget(page, live_stack.shop_url + "/")
    payload = "<img src=x onerror=alert(1)>"
    send(page, payload)
    shadow(page, ".message.visitor .bubble").filter(has_text=payload).wait_for()
    shadow(page, ".message.assistant .bubble").filter(has_text="You said: " + payload).wait_for()
    page.wait_for_timeout(300)
    assert dialogs == []
    assert (
        page.evaluate(
            "() => document.querySelector('#cw-root').shadowRoot.querySelectorAll('img').length"
        )
        == 0
    )


def test_two_tabs_of_one_session_show_every_message(live_stack, fake, context):
    a = context.new_page()
    open_widget(a, live_stack.shop_url + "/")
    send(a, "hello from the first tab")
    shadow(a, ".message.assistant .bubble").filter(has_text="hello from the first tab").wait_for()
    b = context.new_page()
    open_widget(b, live_stack.shop_url + "/product/kurta")
    shadow(b, ".message.visitor .bubble").filter(has_text="hello from the first tab").wait_for()
    send(b, "and from the second")
    shadow(a, ".message.visitor .bubble").filter(has_text="and from the second").wait_for()
    shadow(a, ".message.assistant .bubble").filter(
        has_text="You said: and from the second"
    ).wait_for()


def test_mobile_width_and_keyboard(live_stack, fake, browser):
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    page = ctx.new_page()
    try:
        page.goto(live_stack.shop_url + "/")
        launcher = shadow(page, "button.launcher")
        launcher.focus()
        page.keyboard.press("Enter")
        box = shadow(page, "#cw-panel").bounding_box()
        assert box["width"] >= 359 and box["x"] <= 1, "the panel takes the full width"
        focused = page.evaluate(
            "() => document.querySelector('#cw-root').shadowRoot.activeElement?.tagName"
        )
        assert focused == "TEXTAREA", "focus moves to the input on open"
        transcript = shadow(page, ".scroller")
        assert transcript.get_attribute("aria-live") is None, "no chunk-by-chunk announcements"
        assert transcript.get_attribute("tabindex") == "0", "the transcript scrolls by keyboard"
        send(page, "small screen")
        shadow(page, ".message.assistant .bubble").filter(has_text="small screen").wait_for()
        page.screenshot(path=str(artifact("widget-360px.png")))
        page.keyboard.press("Escape")
        assert shadow(page, "#cw-panel").is_hidden()
    finally:
        ctx.close()
