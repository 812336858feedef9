"""Product cards and quick replies in real Chromium (issue 33): a product answer shows the
catalogue's card (its price, not the model's), quick replies work by keyboard and go away
once used, "Add to cart" fires `cart_add` with the product, at 390 px too, and axe finds no
violations with cards and quick replies shown."""

import json

import pytest

from tests.e2e import widget_pages
from tests.e2e.conftest import ROOT, artifact, shadow
from tests.e2e.widget_pages import assert_no_violations, create_site, open_panel, send, shop_page
from tests.fakellm import ToolCallReply

pytestmark = pytest.mark.e2e
page_server = widget_pages.page_server  # fixtures

CATALOGUE = ROOT / "chatwidget" / "demo_data" / "catalogue.jsonl"
CARTS = "window.__carts = []; window.ChatWidget = window.ChatWidget || [];" + (
    'ChatWidget.push(["on", "cart_add", (d) => window.__carts.push(d)]);'
)


@pytest.fixture(scope="module")
def cards_site(live_stack, page_server):
    key = create_site(
        live_stack, "Cards shop", page_server.origin, starter_choices="Track my order\nSizes"
    )
    out = live_stack.manage("knowledge_import", f"--site={key}", str(CATALOGUE))
    assert "documents" in out
    return key


@pytest.mark.parametrize("width", [1280, 390])
def test_a_product_answer_shows_its_card_quick_replies_and_cart_add(
    live_stack, fake, page_server, cards_site, page, width
):
    page.set_viewport_size({"width": width, "height": 844})
    url = page_server.add(f"/cards-{width}/", shop_page(live_stack, cards_site, before=CARTS))
    page.goto(url)
    open_panel(page)
    # the owner's suggested questions under the greeting; the conversation starts typed
    assert shadow(page, ".choice").all_inner_texts() == ["Track my order", "Sizes"]
    fake.script.append(
        ToolCallReply(
            name="offer_choices",
            arguments={"choices": ["Size S", "Size M", "<b>bold</b>"]},
            text="The mint kurta KU-2291-M is 19.99 EUR. Which size? ZZ-9999-Q is not ours.",
        )
    )
    send(page, "Do you have a mint kurta?")
    card = shadow(page, ".cards .card")
    card.first.wait_for()
    assert card.count() == 1, "the unknown ZZ-9999-Q has no card"
    assert shadow(page, ".card-title").inner_text() == "Cotton kurta, mint"
    assert shadow(page, ".card-price").inner_text() == "49.90 EUR", "the catalogue's price"
    assert shadow(page, ".card-stock").inner_text() == "In stock"
    box = card.first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, "the card fits the screen"

    group = shadow(page, '.choices[role="group"]')
    assert group.get_attribute("aria-label") == "Suggested replies"
    assert shadow(page, ".choice").all_inner_texts() == ["Size S", "Size M"]
    assert_no_violations(page, f"cards and quick replies ({width} px)")
    page.screenshot(path=str(artifact(f"widget-cards-{width}.png")))

    # the catalogue's sizes: XXL is sold out; L chosen by keyboard is the cart's variant
    picker = shadow(page, ".card-variant")
    assert picker.get_attribute("aria-label") == "Variant: Cotton kurta, mint"
    assert picker.locator("option[disabled]").all_inner_texts() == ["XXL (Out of stock)"]
    picker.select_option(label="L")
    shadow(page, ".card-add").click()
    carts = page.evaluate("() => window.__carts")
    assert [{k: d[k] for k in ("id", "sku", "variant", "title")} for d in carts] == [
        {"id": "KU-2291-M", "sku": "KU-2291-M", "variant": "L", "title": "Cotton kurta, mint"}
    ]
    assert carts[0]["url"].endswith("/product/KU-2291-M")

    # by keyboard: focus the second reply, Enter sends its label; the group goes away
    fake.script.append(ToolCallReply(name="offer_choices", arguments={}, text="Size M it is."))
    shadow(page, ".choice").nth(1).focus()
    page.keyboard.press("Enter")
    shadow(page, ".message.visitor .bubble").filter(has_text="Size M").wait_for()
    assert shadow(page, ".choices").count() == 0, "used: gone"
    assert (
        page.evaluate("() => document.querySelector('#cw-root').shadowRoot.activeElement?.tagName")
        == "TEXTAREA"
    ), "the focus goes to the composer, not to the page"
    shadow(page, ".message.assistant .bubble").filter(has_text="Size M it is.").wait_for()
    sent = [m for r in fake.requests if r.get("stream") for m in r["messages"]]
    assert json.dumps(sent).count("Size M") >= 1
