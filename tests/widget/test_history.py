"""A long conversation reopens (issue 25): the welcome frame carries the newest turns within
the history frame budget and says earlier ones exist; `history` pages back to the first."""

import json

import pytest
from channels.db import database_sync_to_async

from memory.models import Turn, TurnRole
from memory.services import conversation_start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TURN_CHARS = 3000  # 500 turns of about 3 KB: a conversation of about 1.5 MiB


def _long_conversation(site, *, turns: int, chars: int = TURN_CHARS) -> str:
    """A conversation whose stored turns add up to turns * chars characters (a shop lookup
    among them, never shown); its token."""
    conv, token = conversation_start(site_id=site.pk, language="en")
    roles = [TurnRole.VISITOR, TurnRole.ASSISTANT]
    rows = [
        Turn(
            conversation=conv,
            seq=seq,
            role=TurnRole.TOOL if seq == 3 else roles[seq % 2 == 0],
            text=f"#{seq} " + "Lange Nachricht über Kurtas – größe M. " * (chars // 40),
            token_count=chars // 4,
            client_id=f"c{seq}" if seq % 2 else None,
        )
        for seq in range(1, turns + 1)
    ]
    Turn.objects.bulk_create(rows, batch_size=200)
    conv.next_seq = turns + 1
    conv.save(update_fields=["next_seq"])
    return token


def frame_size(frame: dict) -> int:
    return len(json.dumps(frame, ensure_ascii=False).encode())


async def page_back(c, welcome: dict) -> tuple[list[dict], list[dict]]:
    """Every turn, from the welcome down with `history`; and the history frames."""
    seen = list(welcome["turns"])
    pages = []
    earlier = welcome["earlier"]
    while earlier:
        await c.send({"type": "history", "before_seq": seen[0]["seq"]})
        page, _ = await c.recv_until("history")
        pages.append(page)
        assert page["turns"], "a page is never empty while earlier turns exist"
        assert page["turns"][-1]["seq"] < seen[0]["seq"]
        seen = page["turns"] + seen
        earlier = page["earlier"]
    return seen, pages


async def test_a_conversation_of_1_5_mib_reopens_within_budget_and_pages_back_to_the_first(
    site, connect, settings
):
    token = await database_sync_to_async(_long_conversation)(site, turns=500)
    total = await database_sync_to_async(
        lambda: sum(len(t.encode()) for t in Turn.objects.values_list("text", flat=True))
    )()
    assert total > 1.5 * 1024 * 1024
    c = await connect(site.key)  # a new page: no last_seq
    welcome = await c.hello(session=token)
    assert welcome["type"] == "welcome" and welcome["resumed"] is True
    assert frame_size(welcome) <= settings.WS_HISTORY_FRAME_BYTES
    assert welcome["earlier"] is True and welcome["turns"][-1]["seq"] == 500
    seqs = [t["seq"] for t in welcome["turns"]]
    assert seqs == list(range(seqs[0], 501)), "the newest turns, in order, without a gap"
    everything, pages = await page_back(c, welcome)
    assert len(pages) >= 5
    assert all(frame_size(p) <= settings.WS_HISTORY_FRAME_BYTES for p in pages)
    assert [t["seq"] for t in everything] == [s for s in range(1, 501) if s != 3]
    assert everything[0]["text"].startswith("#1 "), "back to the first turn, whole"
    assert pages[-1]["earlier"] is False
    # the socket goes on as before
    await c.send({"type": "history", "before_seq": 1})
    empty, _ = await c.recv_until("history")
    assert empty == {"type": "history", "before_seq": 1, "turns": [], "earlier": False}


async def test_a_smaller_budget_pages_the_same_turns(site, connect, settings):
    settings.WS_HISTORY_FRAME_BYTES = 24 * 1024
    token = await database_sync_to_async(_long_conversation)(site, turns=40)
    c = await connect(site.key)
    welcome = await c.hello(session=token)
    assert frame_size(welcome) <= 24 * 1024 and welcome["earlier"] is True
    everything, pages = await page_back(c, welcome)
    assert [t["seq"] for t in everything] == [s for s in range(1, 41) if s != 3]
    assert all(frame_size(p) <= 24 * 1024 for p in pages)


async def test_reconnect_after_last_seq_says_when_turns_were_left_out(site, connect, settings):
    """A reconnecting widget asks for what came after its last seq; when that does not fit,
    `earlier` tells it that a gap lies below the turns it got."""
    settings.WS_HISTORY_FRAME_BYTES = 24 * 1024
    token = await database_sync_to_async(_long_conversation)(site, turns=40)
    c = await connect(site.key)
    recent = await c.hello(session=token, last_seq=37)
    assert [t["seq"] for t in recent["turns"]] == [38, 39, 40] and recent["earlier"] is False
    c2 = await connect(site.key)
    behind = await c2.hello(session=token, last_seq=2)
    assert behind["earlier"] is True and behind["turns"][-1]["seq"] == 40
    assert behind["turns"][0]["seq"] > 4


async def test_a_turn_larger_than_the_budget_is_cut_not_dropped(site, connect, settings):
    settings.WS_HISTORY_FRAME_BYTES = 16 * 1024
    token = await database_sync_to_async(_long_conversation)(site, turns=4, chars=40_000)
    c = await connect(site.key)
    welcome = await c.hello(session=token)
    assert frame_size(welcome) <= 16 * 1024
    (newest,) = welcome["turns"]
    assert newest["seq"] == 4 and newest["text"].startswith("#4 ")
    assert newest["text"].endswith("[…]") and welcome["earlier"] is True


async def test_history_needs_a_conversation_and_a_seq(site, connect):
    c = await connect(site.key)
    await c.hello()
    await c.send({"type": "history", "before_seq": 5})
    error = await c.recv()
    assert error["type"] == "error" and error["code"] == "no_conversation"
    for bad in (None, 0, -1, True, "5"):
        await c.send({"type": "history", "before_seq": bad})
        error = await c.recv()
        assert error["type"] == "error" and error["code"] == "bad_frame"


async def test_history_reads_only_the_sockets_own_conversation(site, connect):
    mine = await database_sync_to_async(_long_conversation)(site, turns=6, chars=100)
    await database_sync_to_async(_long_conversation)(site, turns=9, chars=100)
    c = await connect(site.key)
    await c.hello(session=mine)
    await c.send({"type": "history", "before_seq": 100})
    page, _ = await c.recv_until("history")
    assert [t["seq"] for t in page["turns"]] == [1, 2, 4, 5, 6]
