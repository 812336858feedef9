"""An open socket cannot revive an expired conversation (issue 15): a message written into a
conversation whose session period passed while the socket stayed open starts a new one; the
model never sees the expired turns."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from memory.models import Conversation, Turn
from memory.selectors import token_hash
from tests.fakellm import Reply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _age(conv_id: int, hours: int) -> None:
    Conversation.objects.filter(pk=conv_id).update(
        last_activity_at=timezone.now() - timedelta(hours=hours)
    )


async def test_a_write_to_an_expired_conversation_starts_a_new_one(site, connect, fake_llm):
    fake_llm.script.extend([Reply("Size L is in stock."), Reply("Hello again.")])
    c = await connect(site.key)
    await c.hello()
    first = await c.say("Is the kurta KU-2291-M in size L?", "m1")
    await c.answer()
    old = await database_sync_to_async(Conversation.objects.get)(
        token_hash=token_hash(first["session"])
    )
    await database_sync_to_async(_age)(old.pk, 25)  # session period: 24 hours

    second = await c.say("Hello?", "m2")  # the same socket, still open
    assert second["session"] != first["session"], "a new conversation, a new token"
    assert second["seq"] == 1
    await c.answer()
    assert "KU-2291-M" not in str(fake_llm.requests[-1]["messages"]), "no expired turn sent"
    old_after = await database_sync_to_async(Conversation.objects.get)(pk=old.pk)
    assert (
        old_after.last_activity_at
        == (await database_sync_to_async(Conversation.objects.get)(pk=old.pk)).last_activity_at
    )
    assert old_after.last_activity_at < timezone.now() - timedelta(hours=24), "not revived"
    assert await database_sync_to_async(Turn.objects.filter(conversation_id=old.pk).count)() == 2, (
        "nothing added to it"
    )


async def test_a_conversation_within_its_period_goes_on(site, connect, fake_llm):
    fake_llm.script.extend([Reply("Yes."), Reply("Also yes.")])
    c = await connect(site.key)
    await c.hello()
    first = await c.say("Do you ship to Austria?", "m1")
    await c.answer()
    conv = await database_sync_to_async(Conversation.objects.get)(
        token_hash=token_hash(first["session"])
    )
    await database_sync_to_async(_age)(conv.pk, 23)
    second = await c.say("And to Italy?", "m2")
    assert second["session"] == first["session"] and second["seq"] > first["seq"]
