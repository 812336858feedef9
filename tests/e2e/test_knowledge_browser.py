"""The demo in real Chromium: demo mode (no API key), the demo shop's catalogue imported as
`make demo` does, and a follow-up turn answered from memory and knowledge together: "What
about size L?" after "Cotton kurta in mint" shows the kurta's sizes."""

import os
import re
import shutil
import tempfile
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, ROOT, artifact, managing, serving, shadow
from tests.procs import free_port

pytestmark = pytest.mark.e2e
DEMO_DATA = ROOT / "chatwidget" / "demo_data"


@pytest.fixture(scope="module")
def demo_stack():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    tmp = Path(tempfile.mkdtemp(prefix="cw-e2e-knowledge-"))
    port, shop_port = free_port(), free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
        "DATABASE_URL": f"sqlite:///{tmp / 'demo.sqlite3'}",
        "OPENAI_API_KEY": "",
        "CELERY_BROKER_URL": "memory://",
        "DEBUG": "1",
        "PYTHONUNBUFFERED": "1",
        "TIKTOKEN_CACHE_DIR": os.environ.get(
            "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
        ),
    }
    env.pop("REDIS_URL", None)

    with ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, tmp, ignore_errors=True)
        manage = cleanup.enter_context(managing(env, tmp / "demo.sqlite3")).command
        shop_url = f"http://127.0.0.1:{shop_port}"
        key = re.search(
            r"Site key: (\S+)", manage("createsite", "--name", "Demo shop", "--origin", shop_url)
        ).group(1)
        imported = manage(
            "knowledge_import",
            f"--site={key}",
            str(DEMO_DATA / "catalogue.jsonl"),
            str(DEMO_DATA / "pages"),
        )
        assert "33 documents" in imported
        log = cleanup.enter_context(open(tmp / "server.log", "w"))
        with serving(env=env, port=port, shop_port=shop_port, site_key=key, log=log):
            yield shop_url


def test_demo_answers_a_follow_up_from_memory_and_the_catalogue(demo_stack, page):
    page.goto(demo_stack + "/product/kurta")
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
    text = answer.inner_text()
    assert "size L: in stock" in text, "the kurta's sizes, not a generic size chart"
    assert "Cotton kurta, mint" in text
    assert answer.locator("a").first.get_attribute("href").endswith("/product/KU-2291-M")
    assert text.startswith("From Cotton kurta, mint"), "the answer first, not the accounting"
    assert re.search(r"Remembered: KU-2291-M", text)
    page.screenshot(path=str(artifact("knowledge-demo.png")))
