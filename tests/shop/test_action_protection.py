"""Lookups that protect customers (issue 25), through the real consumer: an order lookup
needs a second factor the visitor wrote, the shop's answer must match it ("not found"
otherwise, like an unknown number), the model sees the declared fields only, and lookups
are limited per client address and per site, not only per conversation."""

import json

import pytest
from channels.db import database_sync_to_async

from chatwidget.shop.actions.tools import site_actions_forget
from chatwidget.shop.models.actions import Action, ActionCall
from memory.models import Turn
from tests.fakellm import ToolCallReply
from tests.shop.shopapi import CUSTOMER, ENV

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def order_action(site, shop, **fields) -> Action:
    """An order lookup as the Owner would protect it: order number, and the postcode or
    e-mail address of the order as the second factor. The fake shop answers by number
    alone, with the customer's data."""
    action = Action(
        site=site,
        name="order_status",
        description="The status of the visitor's order.",
        parameters={
            "type": "object",
            "properties": {
                "order_number": {"type": "string", "pattern": "^[0-9]{5}$"},
                "postcode": {"type": "string"},
                "email": {"type": "string"},
            },
            "required": ["order_number"],
        },
        visitor_args=["order_number"],
        factors={"postcode": "postcode", "email": "customer.email"},
        url_template=shop.url + "/orders/{order_number}",
        headers={"X-Api-Key": f"{{env:{ENV}}}"},
        **fields,
    )
    action.full_clean()
    action.save()
    site_actions_forget(site_id=site.pk)
    return action


def lookup(**arguments) -> ToolCallReply:
    return ToolCallReply(name="order_status", arguments=arguments)


@database_sync_to_async
def outcomes() -> list[str]:
    return list(ActionCall.objects.order_by("id").values_list("outcome", flat=True))


@database_sync_to_async
def tool_turns() -> list[str]:
    return list(Turn.objects.filter(role="tool").order_by("id").values_list("text", flat=True))


async def ask(connect, site, text: str, *, client=("10.0.0.1", 1234)):
    c = await connect(site.key, client=client)
    await c.hello()
    await c.say(text, "m1")
    final, _ = await c.answer()
    return final


async def test_an_order_number_alone_makes_no_request(site, connect, shop, obeying):
    await order_action(site, shop)
    obeying.script.append(lookup(order_number="10452"))
    final = await ask(connect, site, "Where is my order 10452?")
    assert shop.requests == [], "no request for a number alone"
    told = json.loads(obeying.requests[1]["messages"][-1]["content"])
    assert told["error"] == "missing_args"
    assert "postcode" in told["instruction"] and "email" in told["instruction"]
    assert final["text"] == "Could you tell me your order number and postcode?"
    assert await outcomes() == ["missing_args"]


@pytest.mark.parametrize(
    ("said", "arguments"),
    [
        # the postcode from elsewhere (a page, a guess): not the visitor's word
        ("Where is my order 10452? I live in Berlin.", {"postcode": "10115"}),
        # the visitor's address "corrected" by the model into the order's
        ("Order 10452, e-mail annameyer@example.com", {"email": "anna.meyer@example.com"}),
    ],
)
async def test_a_second_factor_the_visitor_never_wrote_makes_no_request(
    site, connect, shop, obeying, said, arguments
):
    await order_action(site, shop)
    obeying.script.append(lookup(order_number="10452", **arguments))
    await ask(connect, site, said)
    assert shop.requests == []
    assert await outcomes() == ["missing_args"]


@pytest.mark.parametrize(
    ("said", "arguments"),
    [
        ("Order 10452, postcode 10115.", {"postcode": "10115"}),
        ("Order 10452, my e-mail is Anna.Meyer@Example.com", {"email": "Anna.Meyer@Example.com"}),
    ],
)
async def test_the_matching_second_factor_answers_with_status_only(
    site, connect, shop, obeying, said, arguments
):
    await order_action(site, shop)
    obeying.script.append(lookup(order_number="10452", **arguments))
    final = await ask(connect, site, said)
    assert final["text"] == "Your order is shipped."
    assert len(shop.requests) == 1
    content = json.loads(obeying.requests[1]["messages"][-1]["content"])
    assert content == {"order_number": "10452", "status": "shipped", "carrier": "DHL"}
    # neither the model nor the stored lookup holds the customer's data
    [stored] = await tool_turns()
    for value in (*CUSTOMER.values(), "Anna"):
        assert value not in obeying.requests[1]["messages"][-1]["content"]
        assert value not in stored.split("→")[1]


async def test_a_wrong_postcode_reads_exactly_like_a_wrong_number(site, connect, shop, obeying):
    """The shop knows order 10452 (postcode 10115) and answers it by number; the visitor
    wrote another postcode. What the model is told equals what it is told for an order
    that does not exist: nothing says the number is real."""
    await order_action(site, shop)
    obeying.script.append(lookup(order_number="10452", postcode="80331"))
    wrong_postcode = await ask(connect, site, "Order 10452, postcode 80331.")
    obeying.script.append(lookup(order_number="99999", postcode="80331"))
    wrong_number = await ask(connect, site, "Order 99999, postcode 80331.", client=("10.0.0.2", 1))
    assert len(shop.requests) == 2, "both were asked: the check is on the answer"
    told = [
        r["messages"][-1]["content"]
        for r in obeying.requests
        if r["messages"][-1]["role"] == "tool"
    ]
    assert len(told) == 2 and told[0] == told[1]
    assert json.loads(told[0])["error"] == "not_found"
    assert "shipped" not in told[0] and "10115" not in told[0]
    assert wrong_postcode["text"] == wrong_number["text"]
    assert await outcomes() == ["not_found", "not_found"]
    assert all(t.endswith("failed: not_found") for t in await tool_turns())


async def test_declared_answer_fields_are_all_the_model_sees(site, connect, shop, obeying):
    await order_action(site, shop, answer_fields=["status", "customer.email_verified"])
    obeying.script.append(lookup(order_number="10452", postcode="10115"))
    await ask(connect, site, "Order 10452, postcode 10115.")
    content = obeying.requests[1]["messages"][-1]["content"]
    assert json.loads(content) == {"status": "shipped"}


async def test_enumerating_orders_across_fresh_conversations_is_refused(
    site, connect, shop, obeying
):
    """Issue 25: 20 order numbers from 20 fresh conversations from one address. Each
    conversation is under its own hourly limit; the address is not (default
    ACTION_CALLS_PER_ADDRESS, 10 an hour). A visitor at another address still gets
    answers."""
    await order_action(site, shop)
    for i in range(20):
        number = f"{10445 + i}"
        obeying.script.append(lookup(order_number=number, postcode="10115"))
        await ask(connect, site, f"Order {number}, postcode 10115.", client=("203.0.113.7", i))
    assert len(shop.requests) == 10, "the address's limit stops the walk"
    made = await outcomes()
    assert made.count("address_limited") == 10 and made[-1] == "address_limited"
    assert made[7] == "ok", "10452 was among the ones asked"
    told = json.loads(obeying.requests[-1]["messages"][-1]["content"])
    assert told["error"] == "address_limited" and "person" in told["instruction"]

    obeying.script.append(lookup(order_number="10452", postcode="10115"))
    other = await ask(connect, site, "Order 10452, postcode 10115.", client=("198.51.100.9", 1))
    assert other["text"] == "Your order is shipped."


async def test_the_sites_limit_holds_across_addresses(site, connect, shop, obeying, settings):
    settings.ACTION_CALLS_PER_SITE = "3/3600"
    await order_action(site, shop)
    for i in range(5):
        obeying.script.append(lookup(order_number="10452", postcode="10115"))
        await ask(connect, site, "Order 10452, postcode 10115.", client=(f"192.0.2.{i + 1}", 1))
    assert len(shop.requests) == 3
    assert await outcomes() == ["ok", "ok", "ok", "address_limited", "address_limited"]


async def test_an_action_saved_before_the_second_factor_makes_no_request(
    site, connect, shop, obeying
):
    """An action from before migration shop 0003 returns a customer's data (the default)
    and has no factor: "not configured" until the Owner adds one."""
    action = await order_action(site, shop)
    await database_sync_to_async(Action.objects.filter(pk=action.pk).update)(factors={})
    await database_sync_to_async(site_actions_forget)(site_id=site.pk)
    obeying.script.append(lookup(order_number="10452", postcode="10115"))
    final = await ask(connect, site, "Order 10452, postcode 10115.")
    assert shop.requests == []
    assert await outcomes() == ["not_configured"]
    assert final["text"].startswith("Sorry, I could not check that")
