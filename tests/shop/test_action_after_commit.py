"""A shop lookup in an answer started before its turn committed (issue 30) runs after the
commit: the answer's model request overlaps the commit, but the lookup's checks read the
stored conversation (the order number must be one the visitor wrote), so they must see the
visitor's turn. PostgreSQL holds the commit half a second (a deferred trigger) while the
fake model asks for the lookup at once; before the gate the lookup found no order number
in the conversation and answered `missing_args`."""

import pytest

from tests.shop.test_action_protection import ask, lookup, order_action, outcomes
from tests.widget.test_answer_overlap import slow_commit  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_lookup_asked_before_the_commit_runs_after_it(
    site,
    connect,
    shop,
    obeying,
    slow_commit,  # noqa: F811
):
    await order_action(site, shop)
    await slow_commit.set(seconds=0.5)
    obeying.script.append(lookup(order_number="10452", postcode="10115"))
    final = await ask(connect, site, "Order 10452, postcode 10115.")
    assert await outcomes() == ["ok"]
    assert final["text"] == "Your order is shipped."
