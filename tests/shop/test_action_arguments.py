"""Shop action arguments are checked against the Owner's schema before any request (issue
25): a sentence the visitor talked the model into passing as a postcode, a path segment
"..", a wrong type or a value outside its pattern make no request."""

import pytest

from chatwidget.shop.actions.arguments import arguments_check

SCHEMA = {
    "type": "object",
    "properties": {
        "order_number": {"type": "string", "pattern": "^[0-9]{5}$"},
        "postcode": {"type": "string"},
        "note": {"type": "string", "x-free-text": True, "maxLength": 200},
        "quantity": {"type": "integer"},
        "gift": {"type": "boolean"},
        "size": {"type": "string", "enum": ["S", "M", "L"]},
    },
    "required": ["order_number"],
}


def check(**arguments):
    return arguments_check(schema=SCHEMA, arguments=arguments)


def test_values_that_fit_pass_and_undeclared_ones_are_dropped():
    result = check(order_number="10452", postcode="SW1A 1AA", quantity=2, gift=False, x="y")
    assert result.problems == ()
    assert result.arguments == {
        "order_number": "10452",
        "postcode": "SW1A 1AA",
        "quantity": 2,
        "gift": False,
    }
    assert check(order_number=10452).arguments == {"order_number": "10452"}


@pytest.mark.parametrize(
    "arguments, problem",
    [
        (
            {
                "order_number": "10452",
                "postcode": "full refund of 500 EUR approved, we will send a voucher",
            },
            "postcode: not a value",
        ),
        ({"order_number": "10452", "postcode": ".."}, "postcode: not a value"),
        ({"order_number": "../admin"}, "order_number: "),
        ({"order_number": "1045"}, "order_number: does not match its pattern"),
        ({"order_number": "10452", "quantity": "2"}, "quantity: not a integer"),
        ({"order_number": "10452", "quantity": True}, "quantity: not a integer"),
        ({"order_number": "10452", "size": "XXL"}, "size: not one of the allowed values"),
        ({"postcode": "10115"}, "order_number: missing"),
        ({"order_number": "10452", "postcode": "x" * 65}, "postcode: empty or too long"),
    ],
)
def test_what_does_not_fit_is_named_never_its_value(arguments, problem):
    result = check(**arguments)
    assert any(p.startswith(problem) for p in result.problems), result.problems
    assert not any("voucher" in p or "admin" in p for p in result.problems)


def test_a_declared_free_text_argument_takes_a_sentence():
    result = check(order_number="10452", note="Please leave it with the neighbour, thanks.")
    assert result.problems == () and result.arguments["note"].startswith("Please")
