"""Quick replies (issue 33): the model's `offer_choices` labels are checked on the server
(at most five, at most 40 characters, plain text) and stored with the answer, so every tab
and a later welcome shows them."""

import pytest

from chatwidget.assistant.tools import choices_clean
from tests.fakellm import ToolCallReply


def test_labels_are_plain_short_unique_and_at_most_five():
    raw = [
        "S",
        "  M\n ",
        "<b>L</b>",
        "x" * 41,
        "s",
        "[XL](https://evil.test)",
        "Size\u202eXXL",
        7,
        "L",
        "XL",
        "XXL",
        "4XL",
    ]
    assert choices_clean({"choices": raw}) == ["S", "M", "Size XXL", "L", "XL"]
    assert choices_clean({"choices": "S, M"}) == []
    assert choices_clean(None) == []
    assert choices_clean({"choices": ["x" * 40]}) == ["x" * 40]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_offered_choices_ride_on_the_answer_and_the_welcome(site, connect, fake_llm):
    fake_llm.script.append(
        ToolCallReply(
            name="offer_choices",
            arguments={"choices": ["Size S", "Size M", "<script>x</script>"]},
            text="Which size would you like?",
        )
    )
    c = await connect(site.key)
    await c.hello()
    ack = await c.say("I want the kurta", "m1")
    message, _ = await c.answer()
    assert message["text"] == "Which size would you like?"
    assert message["choices"] == ["Size S", "Size M"]
    offered = fake_llm.requests[0]["tools"]
    assert any(t["function"]["name"] == "offer_choices" for t in offered)

    again = await connect(site.key)
    back = await again.hello(session=ack["session"])
    answer = next(t for t in back["turns"] if t["role"] == "assistant")
    assert answer["choices"] == ["Size S", "Size M"]
