"""The demo in real Chromium: demo mode (no API key), the demo shop's catalogue imported as
`make demo` does, and a follow-up turn answered from memory and knowledge together: "What
about size L?" after "Cotton kurta in mint" shows the kurta's sizes."""

import re

import pytest

from tests.e2e.conftest import ROOT, artifact, shadow

pytestmark = pytest.mark.e2e
DEMO_DATA = ROOT / "chatwidget" / "demo_data"


@pytest.fixture(scope="module")
def demo_site(demo_stack):
    """The demo stack's knowledge site with the demo's catalogue and pages: its shop's URL."""
    imported = demo_stack.steps.command(
        "knowledge_import",
        f"--site={demo_stack.knowledge_key}",
        str(DEMO_DATA / "catalogue.jsonl"),
        str(DEMO_DATA / "pages"),
    )
    assert "33 documents" in imported
    return demo_stack.knowledge_shop


def test_demo_answers_a_follow_up_from_memory_and_the_catalogue(demo_site, page):
    page.goto(demo_site + "/product/kurta")
    assert page.locator("h1").inner_text() == "Cotton kurta, mint", (
        "the product page is rendered from the catalogue"
    )
    shadow(page, "button.launcher").click()
    shadow(page, "textarea").fill("Cotton kurta in mint.")
    shadow(page, "textarea").press("Enter")
    bubbles = shadow(page, ".message.assistant .bubble")
    bubbles.filter(has_text="Demo mode").filter(has_text="Price: 49.90 EUR").first.wait_for()
    before = bubbles.count()  # the greeting and the first answer
    shadow(page, "textarea").fill("What about size L?")
    shadow(page, "textarea").press("Enter")
    answer = bubbles.nth(before)
    answer.filter(has_text="Price: 49.90 EUR").wait_for(timeout=15_000)  # the quote's end
    # the answer complete (its stored message ends the stream): the accounting follows the
    # quote, and read at the quote's end it was not always there yet
    shadow(page, ".message.assistant:not([aria-busy])").nth(before).wait_for(timeout=15_000)
    text = answer.inner_text()
    assert "size L: in stock" in text, "the kurta's sizes, not a generic size chart"
    assert "Cotton kurta, mint" in text
    assert answer.locator("a").first.get_attribute("href").endswith("/product/KU-2291-M")
    assert text.startswith("From Cotton kurta, mint"), "the answer first, not the accounting"
    assert re.search(r"Remembered: KU-2291-M", text)
    page.screenshot(path=str(artifact("knowledge-demo.png")))
