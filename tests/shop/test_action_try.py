"""'Try it' for a shop action in admin (issue 27): the request as sent (secrets as dots) and
the answer as the assistant would get it, against the fake shop on 127.0.0.1; nothing stored."""

import pytest
from django.urls import reverse

from chatwidget.shop.models.actions import Action, ActionCall
from tests.shop.shopapi import ENV, SECRET

pytestmark = pytest.mark.django_db


@pytest.fixture
def action(site, shop):
    action = Action(
        site=site,
        name="order_status",
        description="The status of the visitor's order.",
        parameters={
            "type": "object",
            "properties": {
                "order_number": {"type": "string", "pattern": "^[0-9]{5}$"},
                "postcode": {"type": "string", "description": "the order's postcode"},
            },
            "required": ["order_number"],
        },
        factors={"postcode": "postcode"},
        answer_fields=["status", "carrier"],
        url_template=shop.url + "/orders/{order_number}",
        headers={"X-Api-Key": f"{{env:{ENV}}}"},
    )
    action.full_clean()
    action.save()
    return action


def test_the_owner_tries_an_action_and_sees_request_and_answer_without_secrets(
    admin_client, action, shop
):
    change = admin_client.get(reverse("admin:shop_action_change", args=[action.pk]))
    url = reverse("admin:shop_action_try", args=[action.pk])
    assert url in change.content.decode()
    form = admin_client.get(url).content.decode()
    assert 'name="order_number"' in form and "the order&#x27;s postcode" in form
    page = admin_client.post(url, {"order_number": "10452"}).content.decode()
    assert f"GET {shop.url}/orders/10452" in page
    assert "X-Api-Key: •••" in page and SECRET not in page
    assert '<strong id="action-try-outcome">ok</strong>' in page and "HTTP 200" in page
    answer = page.split('id="action-try-answer">', 1)[1].split("</pre>", 1)[0]
    assert "shipped" in answer and "Anna Meyer" not in answer and "anna.meyer" not in answer
    assert shop.requests[-1]["headers"]["X-Api-Key"] == SECRET, "the real key was sent"
    assert ActionCall.objects.count() == 0, "a trial is not a visitor's call"


def test_a_value_outside_the_schema_is_not_sent(admin_client, action, shop):
    shop.requests.clear()
    page = admin_client.post(
        reverse("admin:shop_action_try", args=[action.pk]), {"order_number": "../admin"}
    ).content.decode()
    assert "Not sent" in page and "order_number" in page
    assert shop.requests == []


def test_staff_cannot_try_actions(client, action):
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="sam", role="Staff"))
    response = client.get(reverse("admin:shop_action_try", args=[action.pk]))
    assert response.status_code in (302, 403)
