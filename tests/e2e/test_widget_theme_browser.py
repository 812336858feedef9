"""Theme, rich answers and the rough edges, in real Chromium: the site's colours and position,
Markdown with inert javascript: links, a page whose origin is not allowed, two sites on one
host, and a new conversation after a closed case."""

import pytest

from tests.e2e import widget_pages
from tests.e2e.conftest import artifact, shadow
from tests.e2e.widget_pages import (
    assert_no_violations,
    create_site,
    open_panel,
    send,
    session_cookies,
    shop_page,
)
from tests.fakellm import Reply

pytestmark = pytest.mark.e2e
page_server = widget_pages.page_server  # fixtures
shop = widget_pages.shop

ROOT_JS = "document.querySelector('#cw-root').shadowRoot"


def test_theme_from_the_site_colour_position_label_and_dark_scheme(
    live_stack, fake, page_server, page
):
    key = create_site(
        live_stack,
        "Themed shop",
        page_server.origin,
        theme_primary="#8a1538",
        theme_position="left",
        launcher_label="Questions?",
        theme_scheme="dark",
    )
    page.goto(page_server.add("/themed/", shop_page(live_stack, key)))
    launcher = shadow(page, "button.launcher")
    launcher.filter(has_text="Questions?").wait_for()
    colour = page.evaluate(
        f"getComputedStyle({ROOT_JS}.querySelector('.launcher')).backgroundColor"
    )
    assert colour == "rgb(138, 21, 56)"
    assert launcher.bounding_box()["x"] < 100, "bottom left"
    assert_no_violations(page, "themed, closed")
    launcher.click()
    shadow(page, "textarea").wait_for()
    panel = page.evaluate(f"getComputedStyle({ROOT_JS}.querySelector('.panel')).backgroundColor")
    assert panel == "rgb(30, 31, 34)", "dark scheme"
    send(page, "dark mode question")
    shadow(page, ".message.assistant .bubble").filter(has_text="dark mode").wait_for()
    assert_no_violations(page, "themed, dark, after an exchange")
    page.screenshot(path=str(artifact("widget-theme-dark-left.png")))


def test_the_default_scheme_follows_the_visitors_device(live_stack, fake, shop, page):
    page.emulate_media(color_scheme="dark")
    page.goto(shop)
    open_panel(page)
    panel = page.evaluate(f"getComputedStyle({ROOT_JS}.querySelector('.panel')).backgroundColor")
    assert panel == "rgb(30, 31, 34)", "dark, as the device prefers"
    assert_no_violations(page, "device in dark mode")
    page.emulate_media(color_scheme="light")
    panel = page.evaluate(f"getComputedStyle({ROOT_JS}.querySelector('.panel')).backgroundColor")
    assert panel == "rgb(255, 255, 255)"


def test_markdown_answers_render_safely_and_javascript_links_stay_inert(
    live_stack, fake, shop, page
):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    fake.script.append(
        Reply(
            "**Mint kurta** is *in stock*:\n\n- size S\n- size M\n\n1. order\n2. pay\n\n"
            "Details: [the product page](https://shop.example/kurta?x=1), "
            "[click me](javascript:alert(1)), [data](data:text/html,<b>x</b>), "
            "`<img src=x onerror=alert(2)>` and https://shop.example/returns.\n\n"
            "```\nif a < b: print('<script>')\n```"
        )
    )
    page.goto(shop)
    open_panel(page)
    send(page, "Is the mint kurta in stock?")
    bubble = shadow(page, ".message.assistant .bubble").last
    bubble.locator("pre code").wait_for()
    assert bubble.locator("strong").first.inner_text() == "Mint kurta"
    assert bubble.locator("em").first.inner_text() == "in stock"
    assert bubble.locator("ul li").all_inner_texts() == ["size S", "size M"]
    assert bubble.locator("ol li").all_inner_texts() == ["order", "pay"]
    links = page.evaluate(f"""() => [...{ROOT_JS}.querySelectorAll('.bubble a')]
        .map(a => [a.textContent, a.getAttribute('href'), a.rel, a.target])""")
    assert links == [
        ["the product page", "https://shop.example/kurta?x=1", "noopener noreferrer", "_blank"],
        [
            "https://shop.example/returns",
            "https://shop.example/returns",
            "noopener noreferrer",
            "_blank",
        ],
    ]
    assert "click me" in bubble.inner_text() and "data" in bubble.inner_text()
    bubble.get_by_text("click me").click()
    assert bubble.locator("code").first.inner_text() == "<img src=x onerror=alert(2)>"
    assert "print('<script>')" in bubble.locator("pre").inner_text()
    page.wait_for_timeout(200)
    assert dialogs == []
    assert page.evaluate(f"{ROOT_JS}.querySelectorAll('img, script, [onerror]').length") == 0


def test_a_page_whose_origin_is_not_allowed_shows_no_bubble_and_says_why(
    live_stack, page_server, page
):
    warnings = []
    page.on("console", lambda m: warnings.append(m.text))
    url = page_server.add("/not-allowed/", shop_page(live_stack, live_stack.site_key))
    page.goto(url.replace(page_server.origin, page_server.other_origin))
    page.wait_for_function("!document.querySelector('#cw-root')")
    assert any("not allowed" in w and page_server.other_origin in w for w in warnings), warnings
    assert not any("CORS" in w for w in warnings), "a clear message, not a generic CORS error"


def test_two_sites_on_one_host_keep_separate_sessions(live_stack, fake, page_server, context, page):
    widget_pages.allow_origin(live_stack, live_stack.site_key, page_server.origin)
    other = create_site(live_stack, "Second shop", page_server.origin)
    first_url = page_server.add("/first/", shop_page(live_stack, live_stack.site_key))
    second_url = page_server.add("/second/", shop_page(live_stack, other))

    page.goto(first_url)
    open_panel(page)
    send(page, "question for the first shop")
    shadow(page, ".message.assistant .bubble").filter(has_text="first shop").wait_for()
    page.goto(second_url)
    open_panel(page)
    send(page, "question for the second shop")
    shadow(page, ".message.assistant .bubble").filter(has_text="second shop").wait_for()
    assert shadow(page, ".bubble").filter(has_text="first shop").count() == 0
    cookies = session_cookies(context, page_server.origin)
    assert len(cookies) == 2 and len(set(cookies.values())) == 2, cookies

    page.goto(first_url)
    shadow(page, ".message.visitor .bubble").filter(has_text="first shop").wait_for()
    assert shadow(page, ".bubble").filter(has_text="second shop").count() == 0


def test_start_a_new_conversation_after_the_case_was_closed(live_stack, fake, shop, context, page):
    page.goto(shop)
    open_panel(page)
    send(page, "I want to return my kurta")
    shadow(page, ".message.assistant .bubble").filter(has_text="return my kurta").wait_for()
    shadow(page, ".handover-bar button").click()
    shadow(page, ".banner.waiting").wait_for()
    (old_token,) = session_cookies(context, shop).values()
    widget_pages.staff_user(live_stack)
    live_stack.shell(
        "import hashlib\nfrom django.contrib.auth.models import User\n"
        "from handover.models import Case\nfrom handover.services import case_resolve\n"
        f"case = Case.objects.filter(conversation__token_hash=hashlib.sha256("
        f"{old_token!r}.encode()).hexdigest()).latest('pk')\n"
        "Case.objects.filter(pk=case.pk).update(status='human')\n"
        "case.conversation.__class__.objects.filter(pk=case.conversation_id)"
        ".update(state='human')\n"
        "case_resolve(case_id=case.pk, user=User.objects.get(username='wendy'), note='refund')\n"
    )
    page.reload()
    shadow(page, ".banner.closed").wait_for()
    assert shadow(page, "textarea").is_disabled()
    restart = shadow(page, ".restart-bar button")
    assert_no_violations(page, "closed case")
    restart.click()
    assert shadow(page, "textarea").is_enabled()
    assert session_cookies(context, shop) == {}, "the closed conversation's token is gone"
    assert shadow(page, ".message.visitor").count() == 0
    send(page, "a new question")
    shadow(page, ".message.assistant .bubble").filter(has_text="a new question").wait_for()
    (new_token,) = session_cookies(context, shop).values()
    assert new_token != old_token
    page.reload()
    shadow(page, ".message.visitor .bubble").filter(has_text="a new question").wait_for()
    assert shadow(page, ".banner.closed").count() == 0 or shadow(page, ".banner").is_hidden()
