"""The second factor and the answer's fields (chatwidget.shop.actions.protect), and what the
Owner may configure for them."""

import pytest
from django.core.exceptions import ValidationError

from chatwidget.shop.actions.protect import answer_fields_keep, answer_matches
from chatwidget.shop.models.actions import Action

ORDER = {
    "order_number": "10452",
    "status": "shipped",
    "tracking": "JD0146",
    "items": [{"sku": "KU-2291-M", "name": "Kurta", "price": 49}],
    "customer": {"name": "Anna Berg", "email": "Anna.Berg@example.com", "phone": "+49 30 1"},
    "shipping": {"street": "Invalidenstraße 117", "postcode": "SW1A 1AA", "city": "Berlin"},
    "billing_address": "Invalidenstraße 117, Berlin",
    "customer_email": "anna.berg@example.com",
}
FACTORS = {"postcode": "shipping.postcode", "email": "customer.email"}


@pytest.mark.parametrize(
    ("given", "matches"),
    [
        ({"postcode": "sw1a1aa"}, True),  # case and spaces do not count
        ({"email": " anna.berg@EXAMPLE.com"}, True),
        ({"postcode": "SW1A 1AA", "email": "anna.berg@example.com"}, True),
        ({"postcode": "SW1A 1AB"}, False),
        ({"postcode": "SW1A 1AA", "email": "someone@example.com"}, False),  # every one given
        ({"email": "annaberg@example.com"}, False),  # a dot is not nothing
        ({}, False),
    ],
)
def test_every_factor_given_must_equal_its_field(given, matches):
    assert answer_matches(data=ORDER, factors=FACTORS, given=given) is matches


@pytest.mark.parametrize(
    "data",
    [
        {"status": "shipped"},  # the field is missing
        {"shipping": {"postcode": ""}},
        {"shipping": {"postcode": {"value": "SW1A 1AA"}}},
        [{"shipping": {"postcode": "SW1A 1AA"}}],  # a list of orders: not one order
        "SW1A 1AA",
    ],
)
def test_an_answer_without_the_factor_does_not_match(data):
    assert not answer_matches(data=data, factors=FACTORS, given={"postcode": "SW1A 1AA"})


def test_without_declared_fields_personal_ones_are_dropped_at_every_depth():
    kept = answer_fields_keep(data=ORDER, fields=[])
    assert kept == {
        "order_number": "10452",
        "status": "shipped",
        "tracking": "JD0146",
        "items": [{"sku": "KU-2291-M", "price": 49}],
        "shipping": {},
    }


def test_declared_fields_are_all_that_is_kept():
    kept = answer_fields_keep(data=ORDER, fields=["status", "items.sku", "tracking", "nothing"])
    assert kept == {"status": "shipped", "items": [{"sku": "KU-2291-M"}], "tracking": "JD0146"}
    assert answer_fields_keep(data=[ORDER, ORDER], fields=["status"]) == [
        {"status": "shipped"},
        {"status": "shipped"},
    ]
    assert answer_fields_keep(data={"other": 1}, fields=["status"]) == {}


def action(site, **changes) -> Action:
    fields = {
        "site": site,
        "name": "order_status",
        "description": "An order's status.",
        "parameters": {
            "type": "object",
            "properties": {"order_number": {"type": "string"}, "email": {"type": "string"}},
        },
        "visitor_args": ["order_number"],
        "factors": {"email": "customer.email"},
        "url_template": "https://shop.example.com/api/orders/{order_number}",
    }
    return Action(**{**fields, **changes})


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"factors": {}}, "factors"),  # a customer's data needs a second factor
        ({"factors": {"postcode": "postcode"}}, "factors"),  # not an argument
        ({"factors": {"email": "customer email"}}, "factors"),
        ({"factors": ["email"]}, "factors"),
        ({"answer_fields": "status"}, "answer_fields"),
        ({"answer_fields": ["status", ""]}, "answer_fields"),
    ],
)
def test_an_unprotected_customer_lookup_is_refused(site, changes, field):
    action(site).full_clean()
    with pytest.raises(ValidationError) as error:
        action(site, **changes).full_clean()
    assert field in error.value.message_dict


@pytest.mark.django_db
def test_public_data_needs_no_second_factor(site):
    action(site, name="stock_check", customer_data=False, factors={}).full_clean()
    assert Action._meta.get_field("customer_data").default is True, "protected by default"
