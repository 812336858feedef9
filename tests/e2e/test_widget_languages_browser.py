"""The widget's language in real Chromium (issue 28): `setLanguage` first, then the page's
`<html lang>`, then the browser's languages, else English; a region subtag counts as its
language (fr-CA is French). The model is told the language the widget chose."""

import pytest

from tests.e2e import widget_pages
from tests.e2e.conftest import shadow
from tests.e2e.widget_pages import allow_origin, open_panel, send, shop_page
from tests.fakellm import Reply

pytestmark = pytest.mark.e2e
page_server = widget_pages.page_server  # fixture


def shop_in(stack, server, name: str, *, lang: str, before: str = "") -> str:
    allow_origin(stack, stack.site_key, server.origin)
    return server.add(f"/{name}/", shop_page(stack, stack.site_key, lang=lang, before=before))


def panel_texts(page) -> dict:
    open_panel(page)
    return {
        "launcher": shadow(page, "button.launcher").get_attribute("aria-label"),
        "placeholder": shadow(page, "textarea").get_attribute("placeholder"),
        "disclosure": shadow(page, "#cw-disclosure").inner_text(),
        "first": shadow(page, ".message.assistant .bubble").first.inner_text(),
        "handover": shadow(page, ".handover-bar button").inner_text(),
    }


def test_a_french_page_gets_a_french_widget_and_the_model_is_told(
    live_stack, fake, page_server, page
):
    page.goto(shop_in(live_stack, page_server, "fr-page", lang="fr"))
    texts = panel_texts(page)
    assert texts["launcher"] == "Fermer le chat"  # the panel is open
    assert texts["placeholder"] == "Écrivez votre message…"
    assert texts["disclosure"].startswith("Vous discutez avec un assistant IA.")
    assert texts["first"].startswith("Bonjour\u202f! Comment puis-je vous aider")
    assert texts["handover"] == "Parler à une personne"

    fake.script.append(Reply("Oui, nous livrons à Lyon.", first_token_ms=20))
    send(page, "Livrez-vous à Lyon ?")
    shadow(page, ".message.assistant .bubble").filter(has_text="nous livrons").wait_for()
    asked = [r for r in fake.requests if r.get("stream")][-1]
    system = [m["content"] for m in asked["messages"] if m["role"] == "system"]
    assert any(
        "Answer in French unless the visitor writes in another language" in s for s in system
    )


def test_set_language_before_load_wins_over_the_page(live_stack, fake, page_server, page):
    configs = []
    page.on("request", lambda r: "config.json" in r.url and configs.append(r.url))
    url = shop_in(
        live_stack,
        page_server,
        "set-es",
        lang="fr",
        before="window.ChatWidget = [['setLanguage', 'es-MX']];",
    )
    page.goto(url)
    texts = panel_texts(page)
    assert texts["placeholder"] == "Escriba su mensaje…"
    assert [u.rsplit("lang=", 1)[1] for u in configs] == ["es"], "asked once, in Spanish"
    # later, at run time: a new language, the panel rebuilt in it
    page.evaluate("window.ChatWidget.setLanguage('pl')")
    shadow(page, "textarea[placeholder='Wpisz wiadomość…']").wait_for()


def test_without_a_page_language_the_browsers_languages_count(
    live_stack, fake, page_server, browser
):
    url = shop_in(live_stack, page_server, "no-lang", lang="")
    ctx = browser.new_context(locale="nl-BE")
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(url)
        assert panel_texts(page)["placeholder"] == "Typ je bericht…"
    finally:
        ctx.close()


def test_a_language_the_widget_does_not_speak_falls_through_to_english(
    live_stack, fake, page_server, browser
):
    url = shop_in(live_stack, page_server, "ja-page", lang="ja")
    ctx = browser.new_context(locale="pt-BR")
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(url)
        assert panel_texts(page)["placeholder"] == "Type your message…"
    finally:
        ctx.close()
