"""The widget after a failure (issue 15), in real Chromium: a message the model could not
answer offers "Ask again", which asks once more with the same message id and shows the
answer; nothing is stored twice."""

import pytest

from tests.e2e.conftest import shadow
from tests.fakellm import Reply, Status

pytestmark = pytest.mark.e2e
COMPOSER = 'textarea[aria-label="Your message"]'


def send(page, text):
    shadow(page, COMPOSER).fill(text)
    shadow(page, COMPOSER).press("Enter")


def test_ask_again_after_the_model_failed(live_stack, fake, page):
    page.goto(live_stack.shop_url + "/")
    shadow(page, "button.launcher").click()
    shadow(page, COMPOSER).wait_for()
    fake.script.extend([Status(500), Reply("The linen shirt comes in white and sand.")])
    send(page, "Which colours does the linen shirt come in?")
    again = shadow(page, "button.retry")
    again.wait_for()
    assert shadow(page, ".note.error").count() == 1
    again.click()
    shadow(page, ".message.assistant .bubble").filter(has_text="white and sand.").wait_for()
    assert shadow(page, "button.retry").count() == 0
    assert shadow(page, ".note.error").count() == 0
    assert shadow(page, ".message.visitor").count() == 1, "the question is not stored twice"
