"""The websocket protocol (DESIGN.md), frame by frame, with the real openai client path."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from memory.models import Conversation, Turn
from memory.selectors import token_hash
from tests.fakellm import Hang, Reply, Status

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def turns_of(conv_id):
    return list(
        Turn.objects.filter(conversation_id=conv_id)
        .order_by("seq")
        .values_list("seq", "role", "text")
    )


aturns = database_sync_to_async(turns_of)


async def test_hello_without_session_gives_empty_welcome(site, connect):
    c = await connect(site.key)
    welcome = await c.hello()
    assert welcome == {
        "type": "welcome",
        "session": None,
        "resumed": False,
        "state": "bot",
        "turns": [],
        "earlier": False,
    }
    assert await database_sync_to_async(Conversation.objects.count)() == 0


async def test_message_streams_answer_and_stores_both_turns(site, connect, fake_llm):
    fake_llm.script.append(Reply("The kurta ships in two days.", first_token_ms=50))
    c = await connect(site.key)
    await c.hello()
    ack = await c.say("When does the kurta ship?", "m1")
    assert ack["seq"] == 1 and len(ack["session"]) >= 22
    final, frames = await c.answer()
    deltas = [f for f in frames if f["type"] == "delta"]
    assert len(deltas) > 1, "the answer streams in parts"
    assert "".join(d["text"] for d in deltas) == "The kurta ships in two days."
    assert final["text"] == "The kurta ships in two days." and final["seq"] == deltas[0]["seq"]
    conv = await database_sync_to_async(Conversation.objects.get)()
    assert conv.token_hash == token_hash(ack["session"]), "only the hash is stored"
    assert ack["session"] not in str(
        await database_sync_to_async(lambda: list(Conversation.objects.values()))()
    )
    assert [(r, t) for _, r, t in await aturns(conv.pk)] == [
        ("visitor", "When does the kurta ship?"),
        ("assistant", "The kurta ships in two days."),
    ]
    # the model received the visitor's text through the real HTTP path
    assert fake_llm.requests[-1]["messages"][-1] == {
        "role": "user",
        "content": "When does the kurta ship?",
    }


async def test_visitor_turn_committed_before_ack_and_before_model(site, connect, fake_llm):
    seen_in_db = []

    def default(body):
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1) as pool:  # the fake server's loop is not the ORM's place
            seen_in_db.append(pool.submit(Turn.objects.filter(role="visitor").count).result())
        return Reply("ok")

    fake_llm.default = default
    try:
        c = await connect(site.key)
        await c.hello()
        await c.send({"type": "message", "id": "a", "text": "hello"})
        ack = await c.recv()
        assert ack["type"] == "ack"
        assert await database_sync_to_async(Turn.objects.filter(role="visitor").count)() == 1
        await c.answer()
        assert seen_in_db == [1]
    finally:
        from tests.fakellm import FakeLLM

        fake_llm.default = FakeLLM().default


async def test_resume_restores_transcript_and_after_last_seq(site, connect, fake_llm):
    c = await connect(site.key)
    await c.hello()
    token = (await c.say("first", "1"))["session"]
    await c.answer()
    await c.close()
    again = await connect(site.key)
    welcome = await again.hello(session=token)
    assert welcome["resumed"] is True and welcome["session"] == token
    assert [t["seq"] for t in welcome["turns"]] == [1, 2]
    assert welcome["turns"][0] == {
        "seq": 1,
        "role": "visitor",
        "text": "first",
        "at": welcome["turns"][0]["at"],
    }
    later = await connect(site.key)
    w2 = await later.hello(session=token, last_seq=1)
    assert [t["seq"] for t in w2["turns"]] == [2]


async def test_retry_with_same_id_is_idempotent(site, connect, fake_llm):
    c = await connect(site.key)
    await c.hello()
    ack1 = await c.say("only once", "same")
    await c.answer()
    await c.send({"type": "message", "id": "same", "text": "only once"})
    ack2, _ = await c.recv_until("ack")
    assert ack2 == ack1
    assert await c.nothing(0.5)
    conv = await database_sync_to_async(Conversation.objects.get)()
    assert [r for _, r, _ in await aturns(conv.pk)] == ["visitor", "assistant"]
    assert len(fake_llm.requests) == 1


async def test_every_tab_sees_every_message(site, connect, fake_llm):
    a = await connect(site.key)
    await a.hello()
    token = (await a.say("from tab A", "a1"))["session"]
    await a.answer()
    b = await connect(site.key)
    await b.hello(session=token, last_seq=2)
    await a.say("second from A", "a2")
    visitor_msg, _ = await b.recv_until("message", role="visitor")
    assert visitor_msg["text"] == "second from A"
    answer, _ = await b.recv_until("message", role="assistant")
    assert answer["text"] == "You said: second from A"


@pytest.mark.parametrize(
    "frame,code",
    [
        ("not json", "bad_frame"),
        ('{"no":"type"}', "bad_frame"),
        ('["a list"]', "bad_frame"),
        ('{"type":"teleport"}', "unknown_type"),
        ('{"type":"__init__"}', "unknown_type"),
    ],
)
async def test_bad_frames_get_error_and_connection_stays(site, connect, fake_llm, frame, code):
    c = await connect(site.key)
    await c.hello()
    await c.send(frame)
    err = await c.recv()
    assert err["type"] == "error" and err["code"] == code and err["message"]
    await c.say("still here", "x")  # the connection is still usable
    await c.answer()


async def test_message_before_hello_is_refused(site, connect):
    c = await connect(site.key)
    await c.send({"type": "message", "id": "1", "text": "hi"})
    assert (await c.recv())["code"] == "bad_frame"


async def test_too_long_and_empty_messages(site, connect):
    c = await connect(site.key)
    await c.hello()
    await c.send({"type": "message", "id": "long", "text": "x" * 4001})
    err = await c.recv()
    assert (err["code"], err["id"]) == ("too_long", "long")
    await c.send({"type": "message", "id": "empty", "text": "   "})
    assert (await c.recv())["code"] == "empty"
    assert await database_sync_to_async(Turn.objects.count)() == 0


async def test_oversized_frame(site, connect, settings):
    settings.WS_MAX_FRAME_BYTES = 1000
    c = await connect(site.key)
    await c.hello()
    await c.send({"type": "message", "id": "big", "text": "y" * 2000})
    assert (await c.recv())["code"] == "too_long"


async def test_rate_limit_per_session(site, connect, settings):
    settings.RATE_LIMIT_PER_SESSION = "3/60"
    c = await connect(site.key)
    await c.hello()
    codes = []
    for i in range(5):
        await c.send({"type": "message", "id": f"r{i}", "text": f"m{i}"})
        frame, _ = await c.recv_until("ack") if i < 3 else await c.recv_until("error")
        codes.append(frame["type"] if frame["type"] == "ack" else frame["code"])
    assert codes == ["ack", "ack", "ack", "rate_limited", "rate_limited"]
    assert await database_sync_to_async(Turn.objects.filter(role="visitor").count)() == 3


async def test_rate_limit_per_address_across_sessions(site, connect, settings):
    settings.RATE_LIMIT_PER_ADDRESS = "2/60"
    for i in range(2):
        c = await connect(site.key, client=("10.9.9.9", 1))
        await c.hello()
        await c.say(f"hi {i}", f"a{i}")
    c = await connect(site.key, client=("10.9.9.9", 1))
    await c.hello()
    await c.send({"type": "message", "id": "a3", "text": "third"})
    frame, _ = await c.recv_until("error")
    assert frame["code"] == "rate_limited"


@pytest.mark.parametrize("origin", ["http://evil.test", None, "http://shop.test.evil.test"])
async def test_wrong_origin_refused(site, connect, origin):
    c = await connect(site.key, origin=origin)
    err = await c.recv()
    assert err["code"] == "forbidden_origin"
    out = await c.c.receive_output(timeout=1)
    assert out["type"] == "websocket.close" and out["code"] == 4403


async def test_unknown_site_key(db, connect):
    c = await connect("no-such-key")
    assert (await c.recv())["code"] == "unknown_site"


async def test_forged_token_gets_fresh_session_and_nothing_else(site, connect, fake_llm):
    a = await connect(site.key)
    await a.hello()
    real = (await a.say("my secret order 55-1031", "s"))["session"]
    await a.answer()
    b = await connect(site.key)
    forged = real[:-2] + ("AA" if not real.endswith("AA") else "BB")
    welcome = await b.hello(session=forged)
    assert welcome["resumed"] is False and welcome["turns"] == [] and welcome["session"] is None
    ack = await b.say("hello", "n")
    assert ack["session"] not in (real, forged)
    assert ack["seq"] == 1


async def test_expired_token_starts_empty(site, connect, fake_llm):
    from datetime import timedelta

    from django.utils import timezone

    c = await connect(site.key)
    await c.hello()
    token = (await c.say("old", "o"))["session"]
    await c.answer()
    await database_sync_to_async(Conversation.objects.update)(
        last_activity_at=timezone.now() - timedelta(hours=25)
    )
    d = await connect(site.key)
    welcome = await d.hello(session=token)
    assert welcome["resumed"] is False and welcome["turns"] == []


@pytest.mark.parametrize("behaviour", [Status(500), Status(429, retry_after=0), Hang(30)])
async def test_model_failure_gives_model_unavailable_and_keeps_message(
    site, connect, fake_llm, behaviour, settings
):
    # a hang before the headers waits out the read timeout, once per attempt (two attempts)
    settings.LLM_TIMEOUT_SECONDS = 1.0
    fake_llm.script.extend([behaviour, behaviour, behaviour])
    c = await connect(site.key)
    await c.hello()
    await c.say("are you there?", "f1")
    err, _ = await c.recv_until("error", timeout=15)
    assert err["code"] == "model_unavailable" and err["id"] == "f1"
    conv = await database_sync_to_async(Conversation.objects.get)()
    assert [(r, t) for _, r, t in await aturns(conv.pk)] == [("visitor", "are you there?")]
    fake_llm.script.clear()
    await c.say("and now?", "f2")  # the connection stays usable
    final, _ = await c.answer()
    assert final["text"] == "You said: and now?"


async def test_retry_on_429_then_success(site, connect, fake_llm):
    fake_llm.script.extend([Status(429, retry_after=0), Reply("second try worked")])
    c = await connect(site.key)
    await c.hello()
    await c.say("hi", "r")
    final, _ = await c.answer()
    assert final["text"] == "second try worked"
    assert len(fake_llm.requests) == 2


async def test_forget_erases_and_closes_every_tab(site, connect, fake_llm):
    a = await connect(site.key)
    await a.hello()
    token = (await a.say("erase me", "e"))["session"]
    await a.answer()
    b = await connect(site.key)
    await b.hello(session=token)
    await a.send({"type": "forget"})
    assert (await a.recv_until("forgotten"))[0] == {"type": "forgotten"}
    assert (await b.recv_until("forgotten"))[0] == {"type": "forgotten"}
    assert await database_sync_to_async(Turn.objects.count)() == 0
    assert await database_sync_to_async(Conversation.objects.count)() == 0


async def test_demo_mode_says_it_is_the_demo_in_one_closing_line(site, connect):
    c = await connect(site.key)
    await c.hello()
    await c.say("hello demo", "d")
    final, _ = await c.answer()
    *answer, closing = final["text"].split("\n\n")
    assert answer and "Demo mode" not in "\n".join(answer), "the answer comes first"
    assert closing.startswith("*Demo mode: no language model is connected")
    assert "tokens" in closing and closing.count("\n") == 0, "the accounting in one line"


async def test_card_number_never_stored_and_visitor_told(site, connect, fake_llm):
    c = await connect(site.key)
    await c.hello()
    await c.say("my card is 4111 1111 1111 1111", "c")
    note, _ = await c.recv_until("message", role="system")
    assert "card" in note["text"].lower()
    final, _ = await c.answer()
    assert final["seq"] > note["seq"], "the answer comes after the hint"
    rows = await database_sync_to_async(lambda: list(Turn.objects.values_list("text", flat=True)))()
    assert not any("4111" in r for r in rows)
    assert "4111" not in str(fake_llm.requests)


async def test_handover_frame_sets_waiting_and_bot_falls_silent(site, connect, fake_llm):
    c = await connect(site.key)
    await c.hello()
    await c.say("hi", "h1")
    await c.answer()
    await c.send({"type": "handover", "reason": "visitor asked"})
    state, _ = await c.recv_until("state")
    assert state["state"] == "waiting"

    def answers():  # streamed calls answer the visitor; condensation calls are not streamed
        return [r for r in fake_llm.requests if r.get("stream")]

    n = len(answers())
    await c.say("hello? anyone?", "h2")
    await asyncio.sleep(0.5)
    assert len(answers()) == n, "the bot does not answer from waiting on"


async def test_answer_survives_a_page_change_mid_stream(site, connect, fake_llm):
    """The visitor leaves the page while the answer streams: the next page gets it whole."""
    fake_llm.script.append(
        Reply("one two three four five six seven eight", first_token_ms=50, token_ms=80)
    )
    a = await connect(site.key)
    await a.hello()
    token = (await a.say("tell me a story", "p1"))["session"]
    await a.recv_until("delta")
    await a.close()  # page change
    b = await connect(site.key)
    welcome = await b.hello(session=token, last_seq=1)
    stored = [t for t in welcome["turns"] if t["role"] == "assistant"]
    if not stored:  # still streaming when the next page said hello: it arrives as a message
        stored = [(await b.answer())[0]]
    assert stored[0]["text"] == "one two three four five six seven eight"
    assert len(fake_llm.requests) == 1


async def _stored_but_not_acked(site, connect):
    """A socket whose conversation holds the message "lost" ("second"), committed without
    its ack ever reaching the widget: the widget will send it again."""
    from memory.services import visitor_message_receive

    c = await connect(site.key)
    await c.hello()
    token = (await c.say("first", "l0"))["session"]
    await c.answer()
    await database_sync_to_async(visitor_message_receive)(
        site_id=site.pk, token=token, client_id="lost", text="second"
    )
    return c


async def test_retry_after_a_lost_ack_is_answered_once(site, connect, fake_llm):
    """The turn was committed but the ack never arrived (and no answer was started): the
    retry with the same id gets the same ack and one answer."""
    c = await _stored_but_not_acked(site, connect)
    await c.send({"type": "message", "id": "lost", "text": "second"})
    ack, _ = await c.recv_until("ack", id="lost")
    final, _ = await c.answer()
    assert final["text"] == "You said: second" and final["seq"] > ack["seq"]
    await c.send({"type": "message", "id": "lost", "text": "second"})  # and once more
    await c.recv_until("ack", id="lost")
    assert await c.nothing(0.5)
    assert sum(1 for r in fake_llm.requests if r.get("stream")) == 2


async def test_a_resend_the_locked_read_missed_is_answered_once(
    site, connect, fake_llm, monkeypatch
):
    """The same message twice at once: the locked read did not see it stored, so an answer
    was started for the next seq before the turn's statement, which then found it stored.
    That answer is cancelled; the stored turn gets one answer, right after it."""
    import memory.services

    read = memory.services.conversation_lock_read

    def unseen(**kwargs):
        found = read(**kwargs)
        if found is not None:
            found.client_id_stored = False
        return found

    c = await _stored_but_not_acked(site, connect)
    monkeypatch.setattr(memory.services, "conversation_lock_read", unseen)
    await c.send({"type": "message", "id": "lost", "text": "second"})
    ack, _ = await c.recv_until("ack", id="lost")
    final, _ = await c.answer()
    assert final["text"] == "You said: second" and final["seq"] == ack["seq"] + 1
    assert await c.nothing(0.5)
