"""Accessibility of the widget in real Chromium: axe-core (from npm, run in the page) finds
no violations in any state; the full-screen panel on a phone is modal and keeps the focus;
answers are announced once, when finished."""

import pytest

from tests.e2e import widget_pages
from tests.e2e.conftest import artifact, shadow
from tests.e2e.widget_pages import (
    RECORD_ANNOUNCEMENTS,
    allow_origin,
    announcements,
    assert_no_violations,
    open_panel,
    send,
    shop_page,
)
from tests.fakellm import Reply

pytestmark = pytest.mark.e2e
page_server = widget_pages.page_server  # fixtures
shop = widget_pages.shop

MARKDOWN_ANSWER = (
    "The **mint kurta** ships in *two to four* working days.\n\n"
    "- Sizes S to XL\n- Cotton, machine-washable\n\n"
    "See [shipping and returns](https://shop.example/shipping) or call `+49 30 123`."
)


#: the start of the AI disclosure in each visitor language (chatwidget/locale)
DISCLOSURE = {
    "en": "You are chatting with an AI assistant.",
    "de": "Sie chatten mit einem KI-Assistenten.",
    "fr": "Vous discutez avec un assistant IA.",
    "es": "Está chateando con un asistente de IA.",
    "it": "Sta chattando con un assistente IA.",
    "nl": "Je chat met een AI-assistent.",
    "pl": "Rozmawiasz z asystentem AI.",
}


@pytest.mark.parametrize("lang", list(DISCLOSURE))
def test_no_violations_closed_open_after_an_exchange_with_the_menu_and_in_handover(
    live_stack, fake, page_server, page, lang
):
    """In every language the widget speaks (the page's `<html lang>` chooses it)."""
    allow_origin(live_stack, live_stack.site_key, page_server.origin)
    shop = page_server.add(f"/a11y-{lang}/", shop_page(live_stack, live_stack.site_key, lang=lang))
    page.goto(shop)
    shadow(page, "button.launcher").wait_for()
    assert_no_violations(page, f"panel closed ({lang})")

    open_panel(page)
    disclosure = shadow(page, "#cw-disclosure")
    assert disclosure.inner_text().startswith(DISCLOSURE[lang])
    assert DISCLOSURE[lang] in shadow(page, ".message.assistant .bubble").first.inner_text()
    assert shadow(page, ".widget").get_attribute("lang") == lang
    assert_no_violations(page, f"panel open ({lang})")

    fake.script.append(Reply(MARKDOWN_ANSWER, first_token_ms=50, token_ms=10))
    send(page, "When does the mint kurta ship?")
    shadow(page, ".message.assistant .bubble li").last.wait_for()
    shadow(page, ".message.assistant .bubble").filter(has_text="call +49 30 123").wait_for()
    assert_no_violations(page, f"after an exchange ({lang})")

    shadow(page, 'button[aria-controls="cw-menu"]').click()
    shadow(page, "#cw-menu").wait_for(state="visible")
    assert_no_violations(page, f"menu open ({lang})")
    page.keyboard.press("Escape")
    assert shadow(page, "#cw-menu").is_hidden()

    shadow(page, ".handover-bar button").click()
    shadow(page, ".banner.waiting").wait_for()
    assert_no_violations(page, f"in handover ({lang})")
    page.screenshot(path=str(artifact(f"widget-a11y-handover-{lang}.png")))

    roles = page.evaluate("""() => [...document.querySelector('#cw-root').shadowRoot
        .querySelectorAll('.message')].map(m => m.getAttribute('role'))""")
    assert set(roles) == {None}, "messages carry no made-up role attribute"


def test_phone_width_panel_is_modal_traps_focus_and_returns_it(live_stack, fake, browser, shop):
    ctx = browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(shop)
        launcher = shadow(page, "button.launcher")
        launcher.focus()
        page.keyboard.press("Enter")
        shadow(page, "textarea").wait_for()
        assert shadow(page, "#cw-panel").get_attribute("aria-modal") == "true"
        send(page, "narrow screen")
        shadow(page, ".message.assistant .bubble").filter(has_text="narrow screen").wait_for()
        assert_no_violations(page, "at 375 px")

        inside = """() => { const root = document.querySelector('#cw-root').shadowRoot;
            return !!root.activeElement && root.querySelector('#cw-panel')
                .contains(root.activeElement); }"""
        for _ in range(20):
            page.keyboard.press("Tab")
            assert page.evaluate(inside), "Tab stays in the full-screen panel"
        for _ in range(8):
            page.keyboard.press("Shift+Tab")
            assert page.evaluate(inside), "Shift+Tab stays in the full-screen panel"

        page.keyboard.press("Escape")
        assert shadow(page, "#cw-panel").is_hidden()
        focused = page.evaluate("""() => document.querySelector('#cw-root').shadowRoot
            .activeElement?.className""")
        assert focused == "launcher", "focus returns to the launcher"
    finally:
        ctx.close()


def test_a_finished_answer_is_announced_once_and_not_chunk_by_chunk(live_stack, fake, shop, page):
    page.goto(shop)
    open_panel(page)
    page.evaluate(RECORD_ANNOUNCEMENTS)
    answer = "Yes, the kurta is cotton and it can go in the washing machine at 30 degrees."
    fake.script.append(Reply(answer, first_token_ms=100, token_ms=40))
    send(page, "Is it washable?")
    shadow(page, ".message.assistant .bubble").filter(has_text="30 degrees.").wait_for()
    page.wait_for_timeout(400)
    said = [text for text in announcements(page) if text.strip()]
    assert said == ["Assistant: " + answer], said
    live = page.evaluate("""() => [...document.querySelector('#cw-root').shadowRoot
        .querySelectorAll('[aria-live]')].map(e => e.getAttribute('aria-live'))""")
    assert live == ["polite"], "one live region, outside the transcript"
