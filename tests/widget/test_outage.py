"""A database blip while a visitor chats (issue 25): an answer whose store fails once still
reaches the open page; an outage that lasts gets `unavailable` with the message's id, and
asking again works; resends of one message after an outage count once against the limits."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from memory.models import Turn
from tests.fakellm import Reply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class Blip:
    """PostgreSQL refuses the next `refuse(n)` turn inserts with admin_shutdown (57P01), what
    a failover or a restart answers: the statement fails, the next one works. A trigger in
    the test database, so every connection of every thread meets it; the count lives in a
    sequence, which the failing transaction's rollback does not undo."""

    SETUP = [
        "CREATE TABLE test_blip (n integer NOT NULL)",
        "INSERT INTO test_blip VALUES (0)",
        "CREATE SEQUENCE test_blip_calls",
        """CREATE FUNCTION test_blip_turn() RETURNS trigger AS $$
        BEGIN
            IF (SELECT n FROM test_blip) > 0
               AND nextval('test_blip_calls') <= (SELECT n FROM test_blip) THEN
                RAISE EXCEPTION 'terminating connection due to administrator command'
                    USING ERRCODE = '57P01';
            END IF;
            RETURN NEW;
        END $$ LANGUAGE plpgsql""",
        "CREATE TRIGGER test_blip BEFORE INSERT ON memory_turn"
        " FOR EACH ROW EXECUTE FUNCTION test_blip_turn()",
    ]
    TEARDOWN = [
        "DROP TRIGGER IF EXISTS test_blip ON memory_turn",
        "DROP FUNCTION IF EXISTS test_blip_turn()",
        "DROP SEQUENCE IF EXISTS test_blip_calls",
        "DROP TABLE IF EXISTS test_blip",
    ]

    @staticmethod
    def _run(*statements: str) -> list:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
            return cursor.fetchall() if cursor.description else []

    async def refuse(self, n: int) -> None:
        """The next `n` turn inserts fail (0: none)."""
        await database_sync_to_async(self._run)(
            f"UPDATE test_blip SET n = {int(n)}", "SELECT setval('test_blip_calls', 1, false)"
        )

    async def refused(self) -> int:
        rows = await database_sync_to_async(self._run)(
            "SELECT last_value, is_called, (SELECT n FROM test_blip) FROM test_blip_calls"
        )
        last, called, n = rows[0]
        return min(last, n) if called else 0


@pytest.fixture
def blip(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("the database's own refusal needs PostgreSQL (TEST_DATABASE_URL)")
    Blip._run(*Blip.TEARDOWN, *Blip.SETUP)
    yield Blip()
    Blip._run(*Blip.TEARDOWN)


def answers():
    return list(Turn.objects.filter(role="assistant").values_list("seq", "text"))


async def test_an_answer_whose_store_fails_once_still_reaches_the_open_page(
    site, connect, fake_llm, blip
):
    fake_llm.script.append(Reply("The kurta ships in two days.", first_token_ms=300))
    c = await connect(site.key)
    await c.hello()
    await c.say("When does the kurta ship?", "m1")
    await blip.refuse(1)  # the next turn insert is the answer's
    final, frames = await c.answer(timeout=15)
    assert final["text"] == "The kurta ships in two days."
    assert await blip.refused() == 1, "the database did refuse the first store"
    assert not [f for f in frames if f["type"] == "error"]
    assert await database_sync_to_async(answers)() == [(2, "The kurta ships in two days.")]


async def test_an_outage_that_lasts_gives_unavailable_with_the_id_and_asking_again_answers(
    site, connect, fake_llm, blip
):
    fake_llm.script.extend([Reply("Lost in the outage.", first_token_ms=300), Reply("Here.")])
    c = await connect(site.key)
    await c.hello()
    ack = await c.say("Where is my parcel?", "m1")
    await blip.refuse(100)
    error, frames = await c.recv_until("error", timeout=20)
    assert error["code"] == "unavailable" and error["id"] == "m1", "the widget can ask again"
    assert any(f["type"] == "delta" for f in frames), "it failed after streaming"
    await blip.refuse(0)
    await c.send({"type": "message", "id": "m1", "text": "Where is my parcel?"})  # Ask again
    again, _ = await c.recv_until("ack", id="m1")
    assert again["seq"] == ack["seq"], "no second turn"
    final, _ = await c.answer(timeout=15)
    assert final["text"] == "Here."
    assert [t for _, t in await database_sync_to_async(answers)()] == ["Here."]


async def test_resending_a_message_refused_in_an_outage_counts_once(
    site, connect, fake_llm, blip, settings
):
    settings.RATE_LIMIT_PER_SESSION = "2/60"
    fake_llm.default = lambda body: Reply("ok")
    c = await connect(site.key)
    await c.hello()
    await blip.refuse(100)
    for _ in range(4):  # the widget resends after each `unavailable`
        await c.send({"type": "message", "id": "m1", "text": "Hello?"})
        error = await c.recv()
        assert error["type"] == "error" and error["code"] == "unavailable"
        assert error["id"] == "m1"
    await blip.refuse(0)
    await c.say("Hello?", "m1")
    await c.answer()
    await c.say("And my order?", "m2")  # the second message of the window: allowed
    await c.answer()
    await c.send({"type": "message", "id": "m3", "text": "A third?"})
    limited, _ = await c.recv_until("error")
    assert limited["code"] == "rate_limited", "the limit still holds for new messages"


async def test_a_lost_ack_resent_once_is_not_counted_again(site, connect, fake_llm, settings):
    settings.RATE_LIMIT_PER_SESSION = "2/60"
    fake_llm.default = lambda body: Reply("ok")
    c = await connect(site.key)
    await c.hello()
    ack = await c.say("Hello?", "m1")
    await c.answer()
    again = await c.say("Hello?", "m1")  # the widget's ack was lost: the same id again
    assert again["seq"] == ack["seq"]
    await c.say("Second message", "m2")
    await c.answer()
    await c.send({"type": "message", "id": "m1", "text": "Hello?"})  # resent once more
    limited, _ = await c.recv_until("error")
    assert limited["code"] == "rate_limited", "free once per message, not forever"


async def test_a_channel_layer_caught_reconnecting_does_not_close_the_socket(
    site, connect, fake_llm, monkeypatch
):
    """Redis restarting: the client's reconnect and the layer's listener read one connection
    at once, and group_add raises RuntimeError (tests/integration/test_multi_process.py saw
    it close a tab saying hello with 1011). The hello and the answer go on; the membership is
    renewed later."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    group_add = layer.group_add
    calls = []

    async def racing(group, channel):
        calls.append(group)
        if len(calls) == 1:
            raise RuntimeError(
                "readuntil() called while another coroutine is already waiting for incoming data"
            )
        await group_add(group, channel)

    monkeypatch.setattr(layer, "group_add", racing)
    fake_llm.script.append(Reply("We ship to Vienna.", first_token_ms=20))
    fake_llm.script.append(Reply("In three to six days.", first_token_ms=20))
    c = await connect(site.key)
    assert (await c.hello())["type"] == "welcome"
    await c.say("Do you ship to Vienna?", "m1")  # its join meets the race
    assert calls, "the join was tried"
    delta, _ = await c.recv_until("delta")
    assert delta["text"].startswith("We")
    await c.say("How long does it take?", "m2")  # joined again: the whole answer arrives
    final, _ = await c.recv_until(
        "message", timeout=10, role="assistant", text="In three to six days."
    )
    assert final["seq"] > delta["seq"]


async def _second_tab_whose_join_fails(site, connect, fake_llm, monkeypatch, retry: float):
    """One tab asked and was answered; a second tab's hello meets the Redis client's race
    (its group join fails once) and its retry comes after `retry` seconds. Returns the
    first tab, the second, the second's welcome and the failed joins."""
    from channels.layers import get_channel_layer

    import chatwidget.widget.membership as membership

    monkeypatch.setattr(membership, "GROUP_RETRY_SECONDS", retry)
    fake_llm.script.append(Reply("We ship to Vienna.", first_token_ms=20))
    fake_llm.script.append(Reply("In three to six days.", first_token_ms=20))
    first = await connect(site.key)
    await first.hello()
    ack = await first.say("Do you ship to Vienna?", "m1")
    await first.answer()

    layer = get_channel_layer()
    group_add = layer.group_add
    failed: list = []

    async def racing(group, channel):
        if not failed:
            failed.append(group)
            raise RuntimeError(
                "readuntil() called while another coroutine is already waiting for incoming data"
            )
        await group_add(group, channel)

    monkeypatch.setattr(layer, "group_add", racing)
    second = await connect(site.key)
    welcome = await second.hello(session=ack["session"])
    return first, second, welcome, failed


async def test_a_tab_whose_join_meets_the_race_joins_again_soon(
    site, connect, fake_llm, monkeypatch
):
    """A second tab says hello while Redis restarts: its join fails, and it tries again
    after GROUP_RETRY_SECONDS instead of the half-minute renewal, so the answers the other
    tab's questions get reach it without it sending anything (tests/integration/
    test_multi_process.py's Redis restart met this on a busy machine)."""
    first, second, welcome, failed = await _second_tab_whose_join_fails(
        site, connect, fake_llm, monkeypatch, retry=0.2
    )
    assert welcome["type"] == "welcome" and failed, "the hello's join met the race"
    await asyncio.sleep(0.6)  # the retry, well before the 30 s renewal
    await first.say("How long does it take?", "m2")
    final, _ = await second.recv_until(
        "message", timeout=5, role="assistant", text="In three to six days."
    )
    assert final["text"] == "In three to six days."


async def test_what_was_published_before_the_retry_reaches_the_tab_after_it(
    site, connect, fake_llm, monkeypatch
):
    """The other tab's question and its answer come while this tab is outside the group
    (its hello's join failed, the retry not yet due): the group keeps nothing for it, so
    the retry's join sends it the turns it missed (a clean-clone CI run met this)."""
    first, second, welcome, failed = await _second_tab_whose_join_fails(
        site, connect, fake_llm, monkeypatch, retry=1.0
    )
    assert failed and [t["seq"] for t in welcome["turns"]] == [1, 2]
    await first.say("How long does it take?", "m2")  # before the retry, a second from now
    await first.answer()
    asked, _ = await second.recv_until("message", timeout=5, role="visitor")
    final, _ = await second.recv_until("message", timeout=5, role="assistant")
    assert (asked["seq"], asked["text"]) == (3, "How long does it take?")
    assert (final["seq"], final["text"]) == (4, "In three to six days.")


async def test_failed_joins_are_tried_again_less_and_less_often(monkeypatch):
    """Redis away for long: each socket's retries double up to the half-minute renewal
    (a warning each), and a join that works goes back to the renewal's pace."""
    import chatwidget.widget.membership as membership

    class Layer:
        up = False

        async def group_add(self, group, channel):
            if not self.up:
                raise TimeoutError

    class Tab(membership.ConversationMembership):
        channel_layer = Layer()
        channel_name = "tab"

    tab = Tab()
    waits = []
    for _ in range(7):
        await tab._group("add", 7, presence=False)
        waits.append(tab.group_retry)
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 30, 30]
    Tab.channel_layer.up = True
    await tab._group("add", 7, presence=False)
    assert tab.group_retry is None
