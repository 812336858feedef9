"""A shop action takes the order e-mail from a verified identity (DESIGN.md,
`hello.identity`), through the real consumer: it counts as given by the visitor, so the
order is looked up without the visitor typing the address; an unverified identity's e-mail
never counts."""

import json

import pytest
from channels.db import database_sync_to_async

from chatwidget.assistant.sections import SIGNED_IN_NOTE
from chatwidget.shop.models.actions import ActionCall
from chatwidget.sites.identity import identity_secret_get, identity_signature
from tests.shop.shopapi import CUSTOMER
from tests.shop.test_action_protection import lookup, order_action

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def identity(secret: str, *, email: str = CUSTOMER["email"], forged: bool = False) -> dict:
    signature = identity_signature(secret=secret, customer_id="c-1", email=email)
    if forged:
        signature = identity_signature(secret="not the site's", customer_id="c-1", email=email)
    return {"id": "c-1", "email": email, "name": "Anna", "signature": signature}


async def ask(connect, site, text: str, ident: dict) -> tuple[dict, list[dict]]:
    c = await connect(site.key)
    await c.send({"type": "hello", "session": None, "last_seq": None, "identity": ident})
    await c.recv()
    await c.say(text, "m1")
    return await c.answer()


@database_sync_to_async
def outcomes() -> list[str]:
    return list(ActionCall.objects.order_by("id").values_list("outcome", flat=True))


async def test_the_verified_email_looks_the_order_up(site, connect, shop, obeying):
    await order_action(site, shop)
    secret = await database_sync_to_async(identity_secret_get)(site_id=site.pk)
    obeying.script.append(lookup(order_number="10452"))  # the model passes no e-mail
    final, _ = await ask(connect, site, "Where is my order 10452?", identity(secret))
    assert final["text"] == "Your order is shipped."
    assert len(shop.requests) == 1
    assert await outcomes() == ["ok"]
    content = json.loads(obeying.requests[1]["messages"][-1]["content"])
    assert content["status"] == "shipped"
    assert CUSTOMER["email"] not in obeying.requests[1]["messages"][-1]["content"]
    # the first message's call already knows the visitor is signed in (not the e-mail)
    first = json.dumps(obeying.requests[0]["messages"])
    assert SIGNED_IN_NOTE in first and CUSTOMER["email"] not in first


async def test_the_model_passing_the_verified_email_counts_as_given(site, connect, shop, obeying):
    await order_action(site, shop)
    secret = await database_sync_to_async(identity_secret_get)(site_id=site.pk)
    obeying.script.append(lookup(order_number="10452", email=CUSTOMER["email"]))
    final, _ = await ask(connect, site, "Where is my order 10452?", identity(secret))
    assert final["text"] == "Your order is shipped."
    assert await outcomes() == ["ok"]


async def test_another_customers_verified_email_finds_nothing(site, connect, shop, obeying):
    """The identity is verified, but the order is Anna's: the answer's e-mail differs,
    which reads like an unknown number."""
    await order_action(site, shop)
    secret = await database_sync_to_async(identity_secret_get)(site_id=site.pk)
    obeying.script.append(lookup(order_number="10452"))
    await ask(connect, site, "Where is my order 10452?", identity(secret, email="bob@example.com"))
    assert await outcomes() == ["not_found"]


async def test_an_unverified_identity_gives_no_email(site, connect, shop, obeying):
    await order_action(site, shop)
    secret = await database_sync_to_async(identity_secret_get)(site_id=site.pk)
    obeying.script.append(lookup(order_number="10452"))
    final, _ = await ask(connect, site, "Where is my order 10452?", identity(secret, forged=True))
    assert shop.requests == [], "no request without a factor"
    assert await outcomes() == ["missing_args"]
    assert final["text"] == "Could you tell me your order number and postcode?"
    assert SIGNED_IN_NOTE not in json.dumps(obeying.requests[0]["messages"])
    # nor may the model pass the unverified e-mail itself
    obeying.script.append(lookup(order_number="10452", email=CUSTOMER["email"]))
    await ask(connect, site, "Where is my order 10452?", identity(secret, forged=True))
    assert shop.requests == []
    assert await outcomes() == ["missing_args", "missing_args"]
