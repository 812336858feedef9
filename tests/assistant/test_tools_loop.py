"""Demo mode's deterministic lookup (chatwidget.assistant.tools_loop.demo_match): which
action a message asks for and with which values, now that an order lookup takes a second
factor that looks like an order number (two five-digit numbers in one message)."""

import pytest

from chatwidget.assistant.tools_loop import demo_match
from chatwidget.demo_shop import ORDER_STATUS, STOCK
from chatwidget.shop.actions.tools import SiteActions


def actions() -> SiteActions:
    return SiteActions(
        config={spec["name"]: {"parameters": spec["parameters"]} for spec in (ORDER_STATUS, STOCK)}
    )


@pytest.mark.parametrize(
    ("text", "before", "arguments"),
    [
        ("Where is my order 10452?", "", {"order_number": "10452"}),
        (
            "Where is my order 10452? My postcode is 10115.",
            "",
            {"order_number": "10452", "postcode": "10115"},
        ),
        (
            "Postcode 10115, and the order is 10452.",
            "",
            {"order_number": "10452", "postcode": "10115"},
        ),
        ("Order 10452 10115", "", {"order_number": "10452", "postcode": "10115"}),
        (
            "order 10453, mail j.keller@example.org.",
            "",
            {"order_number": "10453", "email": "j.keller@example.org"},
        ),
        # the postcode in the next message, the order in the one before
        (
            "The postcode is 10115.",
            "Where is my order 10452?",
            {"order_number": "10452", "postcode": "10115"},
        ),
    ],
)
def test_the_order_number_and_the_second_factor_are_told_apart(text, before, arguments):
    assert demo_match(text=text, actions=actions(), before=before) == ("order_status", arguments)


def test_a_message_that_adds_nothing_does_not_repeat_the_lookup():
    assert demo_match(text="Thanks!", actions=actions(), before="Where is my order 10452?") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wo ist meine Bestellung 10453?", ("order_status", {"order_number": "10453"})),
        (
            "Ist KU-2291-M in Größe L noch vorrätig?",
            ("stock_check", {"article": "KU-2291-M", "size": "L"}),
        ),
    ],
)
def test_a_german_question_finds_its_lookup(text, expected):
    found = demo_match(text=text, actions=actions())
    assert found is not None and found[0] == expected[0]
    assert expected[1].items() <= found[1].items()
