"""The order-status lookup a shop connection brings (issue 29), through the real consumer
and the fake model (an OpenAI-compatible server scripted to call the tool): the order
number AND the order's e-mail, both as the visitor wrote them, before anything is said;
status, items and tracking, never the address or payment; limits per conversation and
site as for every shop action."""

import json

import pytest
from channels.db import database_sync_to_async

from chatwidget.shop.connect.services import connection_connect
from chatwidget.shop.models.actions import ActionCall
from tests.fakellm import Reply, ToolCallReply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def order_model(body: dict) -> Reply:
    """A model that does what the tool message says: ask for what is missing, or answer."""
    last = body["messages"][-1]
    if last["role"] != "tool":
        return Reply("OK.")
    told = json.loads(last["content"])
    if told.get("ok") is False:
        if told["error"] == "missing_args":
            return Reply("Could you tell me the e-mail address of the order?")
        return Reply("I could not find an order with these details.")
    tracking = told["tracking"][0]
    return Reply(f"Your order is {told['status']}: {tracking['company']} {tracking['number']}.")


@pytest.fixture
def model(fake_llm):
    fake_llm.default = order_model
    yield fake_llm
    fake_llm.default = type(fake_llm)().default


@database_sync_to_async
def connected(site, fake):
    return connection_connect(
        site=site, platform="shopify", base_url=fake.url, token_env="SHOPIFY_TOKEN", check=False
    )


@database_sync_to_async
def outcomes() -> list[str]:
    return list(ActionCall.objects.order_by("id").values_list("outcome", flat=True))


def lookup(**arguments) -> ToolCallReply:
    return ToolCallReply(name="order_status", arguments=arguments)


def tool_messages(model) -> list[str]:
    return [
        r["messages"][-1]["content"] for r in model.requests if r["messages"][-1]["role"] == "tool"
    ]


async def test_where_is_my_order_asks_for_the_email_then_answers(site, connect, shopify, model):
    await connected(site, shopify)
    c = await connect(site.key)
    await c.hello()
    model.script.append(lookup(order_number="1042"))
    await c.say("Where is my order 1042?", "m1")
    asked, _ = await c.answer()
    assert asked["text"] == "Could you tell me the e-mail address of the order?"
    assert "Order" not in shopify.requests, "a number alone asks the shop nothing"
    told = json.loads(tool_messages(model)[0])
    assert told["error"] == "missing_args" and "email" in told["instruction"]

    model.script.append(lookup(order_number="1042", email="anna.meyer@example.com"))
    await c.say("It is anna.meyer@example.com", "m2")
    final, _ = await c.answer()
    assert final["text"] == "Your order is fulfilled: DHL 00340434161094042557."
    assert shopify.requests.count("Order") == 1
    seen = tool_messages(model)[-1]
    assert json.loads(seen)["items"] == [{"title": "Linen shirt 3", "quantity": 1, "sku": "LS-3-1"}]
    for private in ("Hauptstr", "Berlin", "paypal", "PAID", "anna.meyer"):
        assert private not in seen
    assert await outcomes() == ["missing_args", "ok"]


async def test_a_wrong_email_gets_no_detail(site, connect, shopify, model):
    await connected(site, shopify)
    c = await connect(site.key)
    await c.hello()
    model.script.append(lookup(order_number="1042", email="eve@example.com"))
    await c.say("Where is order 1042? My e-mail is eve@example.com", "m1")
    final, _ = await c.answer()
    assert final["text"] == "I could not find an order with these details."
    seen = tool_messages(model)[-1]
    assert "fulfilled" not in seen and "DHL" not in seen and "Linen" not in seen
    assert json.loads(seen)["error"] == "not_found"


async def test_an_email_the_visitor_never_wrote_makes_no_request(site, connect, shopify, model):
    await connected(site, shopify)
    c = await connect(site.key)
    await c.hello()
    model.script.append(lookup(order_number="1042", email="anna.meyer@example.com"))
    await c.say("Where is my order 1042?", "m1")
    await c.answer()
    assert "Order" not in shopify.requests
    assert await outcomes() == ["missing_args"]


async def test_lookups_are_limited_per_site(site, connect, shopify, model, settings):
    settings.ACTION_CALLS_PER_SITE = "1/3600"
    await connected(site, shopify)
    for n, address in enumerate(("10.0.0.1", "10.0.0.2")):
        c = await connect(site.key, client=(address, 1))
        await c.hello()
        model.script.append(lookup(order_number="1042", email="anna.meyer@example.com"))
        await c.say("Order 1042, anna.meyer@example.com", f"m{n}")
        await c.answer()
    assert shopify.requests.count("Order") == 1
    assert await outcomes() == ["ok", "address_limited"]
