"""Recognition in a real browser: the opt-in in the widget's menu sets the first-party
recognition cookie on the shop's origin and creates a profile on the server; unticking
deletes the cookie at once, and the server's profile with its transcript."""

import hashlib
import time

import pytest

from tests.e2e.conftest import artifact, shadow

pytestmark = pytest.mark.e2e

COOKIE = "cw_recognition"


def cookie(page, name: str) -> str | None:
    for part in page.evaluate("document.cookie").split("; "):
        key, _, value = part.partition("=")
        if key == name or key.startswith(name + "_"):  # the name is per site: name_<hash>
            return value
    return None


def server_count(stack, model: str, where: str = "") -> int:
    """Rows on the server; `where` narrows it (the live stack is shared by the e2e tests)."""
    out = stack.shell(
        f"from memory.models import {model}; print({model}.objects.filter({where}).count())"
    )
    return int(out.strip().splitlines()[-1])


def wait_for_count(stack, model: str, expected: int, timeout: float = 15, where: str = "") -> int:
    deadline = time.monotonic() + timeout
    while True:
        n = server_count(stack, model, where)
        if n == expected or time.monotonic() > deadline:
            return n
        time.sleep(0.3)


def open_menu(page) -> None:
    shadow(page, 'button[aria-controls="cw-menu"]').click()
    shadow(page, "#cw-menu").wait_for(state="visible")


def test_grant_and_withdraw_recognition(live_stack, page, fake):
    page.goto(live_stack.shop_url + "/")
    shadow(page, "button.launcher").click()
    composer = shadow(page, "textarea")
    composer.fill("My order 55-1031 has not arrived")
    composer.press("Enter")
    shadow(page, ".message.assistant .bubble").last.wait_for()
    assert cookie(page, COOKIE) is None, "no recognition cookie without consent"
    assert server_count(live_stack, "Profile") == 0

    open_menu(page)
    box = shadow(page, '#cw-menu input[type="checkbox"]')
    assert not box.is_checked(), "off by default"
    assert shadow(page, "#cw-recognition-note a").get_attribute("href"), "links the privacy page"
    box.check()
    page.wait_for_function(f"document.cookie.includes('{COOKIE}_')")
    token = cookie(page, COOKIE)
    assert token and len(token) >= 40
    assert wait_for_count(live_stack, "Profile", 1) == 1
    hashed = (
        live_stack.shell(
            "from memory.models import Profile; print(Profile.objects.get().token_hash)"
        )
        .strip()
        .splitlines()[-1]
    )
    assert hashed == hashlib.sha256(token.encode()).hexdigest(), "only the hash is stored"

    # a later page load: the box shows the consent, and the server recognises the cookie
    page.reload()
    page.wait_for_function("window.__cwWidget && window.__cwWidget.open")  # reopens itself
    page.wait_for_function("window.__cwWidget.connected")
    open_menu(page)
    assert shadow(page, '#cw-menu input[type="checkbox"]').is_checked()
    shadow(page, "#cw-menu > button").filter(has_text="What do you know about me").click()
    card = shadow(page, ".profile-card")
    card.wait_for()
    assert card.locator("dl").count() == 1, "the profile lists what is stored"
    assert "55-1031" in card.inner_text(), "the order number given before consent"
    page.screenshot(path=str(artifact("recognition-profile.png")))

    open_menu(page)
    box = shadow(page, '#cw-menu input[type="checkbox"]')
    session = cookie(page, "cw_session")
    assert session, "the conversation's own session cookie"
    box.uncheck()
    page.wait_for_function(f"!document.cookie.includes('{COOKIE}_')")
    assert cookie(page, COOKIE) is None, "withdrawal deletes the cookie at once"
    assert wait_for_count(live_stack, "Profile", 0) == 0, "and the profile on the server"
    this_one = f"token_hash='{hashlib.sha256(session.encode()).hexdigest()}'"
    assert wait_for_count(live_stack, "Conversation", 0, where=this_one) == 0, (
        "with the linked transcript"
    )
    assert server_count(live_stack, "ProfileFact") == 0
    shadow(
        page, ".transcript > .note"
    ).last.wait_for()  # the widget says the conversation is deleted
    page.screenshot(path=str(artifact("recognition-withdrawn.png")))
