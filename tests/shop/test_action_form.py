"""The shop action form in words (issue 27): arguments one per line, headers as in a
request, the second factor as "argument = field", lists separated by commas; a schema the
lines cannot say stays JSON and is kept."""

import json

import pytest
from django.urls import reverse

from chatwidget.shop.actions.arguments import arguments_check
from chatwidget.shop.admin.action_form import EMAIL_SPEC, lines_schema, schema_lines
from chatwidget.shop.models.actions import Action
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FORM = {
    "name": "order_status",
    "enabled": "on",
    "description": "An order's status.",
    "method": "GET",
    "parameters": "order_number: the number on the confirmation (like 10452)\n"
    "email: the order's e-mail (an e-mail address)\nnote: anything else (optional)",
    "visitor_args": "order_number, email",
    "customer_data": "on",
    "factors": "email = customer.email",
    "answer_fields": "status, items, shipping.tracking",
    "timeout_seconds": "5",
    "url_template": "https://shop.example.com/api/orders/{order_number}",
    "headers": "Authorization: Bearer {env:SHOP_API_TOKEN}\nAccept: application/json",
}


@pytest.fixture
def owner_client(client):
    client.force_login(UserFactory(username="olga", role="Owner"))
    return client


def test_an_owner_writes_an_action_in_words_and_the_model_gets_its_schema(owner_client, site):
    response = owner_client.post(reverse("admin:shop_action_add"), {**FORM, "site": site.pk})
    assert response.status_code == 302, response.content.decode()[:3000]
    action = Action.objects.get()
    assert action.parameters == {
        "type": "object",
        "properties": {
            "order_number": {
                "type": "string",
                "description": "the number on the confirmation",
                "pattern": "^[0-9]{5}$",
                "examples": ["10452"],
            },
            "email": {"type": "string", "description": "the order's e-mail", **EMAIL_SPEC},
            "note": {"type": "string", "description": "anything else"},
        },
        "required": ["order_number", "email"],
    }
    assert action.visitor_args == ["order_number", "email"]
    assert action.factors == {"email": "customer.email"}
    assert action.answer_fields == ["status", "items", "shipping.tracking"]
    assert action.headers == {
        "Authorization": "Bearer {env:SHOP_API_TOKEN}",
        "Accept": "application/json",
    }

    page = owner_client.get(reverse("admin:shop_action_change", args=[action.pk])).content.decode()
    assert "order_number: the number on the confirmation (like 10452)" in page
    assert "email: the order&#x27;s e-mail (an e-mail address)" in page
    assert "note: anything else (optional)" in page
    assert "email = customer.email" in page
    assert "Authorization: Bearer {env:SHOP_API_TOKEN}" in page
    assert "{&quot;type&quot;" not in page, "no JSON for an action the lines can say"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("parameters", "order number: with a space", "Line 1"),
        ("parameters", "sku: one\nsku: twice", "named twice"),
        ("headers", "Authorization Bearer x", "Name: value"),
        ("factors", "email customer.email", "argument = field of the answer"),
        ("visitor_args", "order_number, postcode", "Names of arguments listed above"),
        ("headers", "Authorization: Bearer sk_live_typed_in", "looks like a secret"),
    ],
)
def test_a_wrong_line_is_named_and_nothing_is_stored(owner_client, site, field, value, message):
    response = owner_client.post(
        reverse("admin:shop_action_add"), {**FORM, "site": site.pk, field: value}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Action.objects.exists()


def test_a_schema_the_lines_cannot_say_stays_json_and_is_kept():
    schema = {
        "type": "object",
        "properties": {"quantity": {"type": "integer", "minimum": 1}},
        "required": ["quantity"],
    }
    assert schema_lines(schema) is None
    assert lines_schema(json.dumps(schema)) == schema
    lines = "sku: the article number\ncolour: (optional)"
    assert schema_lines(lines_schema(lines)) == lines


def test_a_value_shaped_unlike_the_example_makes_no_call():
    schema = lines_schema("order_number: the order (like 10452)\nemail: e-mail (an e-mail address)")
    assert not arguments_check(
        schema=schema, arguments={"order_number": "10452", "email": "a@b.de"}
    ).problems
    wrong = arguments_check(
        schema=schema, arguments={"order_number": "1045x", "email": "refund approved"}
    )
    assert len(wrong.problems) == 2
