"""Limits a hostile client cannot walk around (issue 15): open sockets per address and per
IPv6 /64 with a clear close code, un-greeted and idle sockets closed, every frame type
rate-limited, X-Forwarded-For believed from trusted proxies only."""

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from chatwidget.asgi import application
from chatwidget.platform.client_address import client_address
from chatwidget.widget.limits import (
    CLOSE_HELLO_TIMEOUT,
    CLOSE_IDLE,
    CLOSE_TOO_MANY,
    SOCKETS,
    address_key,
)
from tests.conftest import SHOP, Client
from tests.fakellm import Reply

pytestmark = [pytest.mark.django_db(transaction=True)]  # asyncio_mode = "auto"


async def _open(site, address: str, forwarded_for: str | None = None):
    headers = [(b"origin", SHOP.encode())]
    if forwarded_for:
        headers.append((b"x-forwarded-for", forwarded_for.encode()))
    comm = WebsocketCommunicator(application, f"/ws/chat/{site.key}/", headers=headers)
    comm.scope["client"] = (address, 40000)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def _refused(comm) -> bool:
    """The server's answer to a socket over the limit: an error frame, then close 4429."""
    if await comm.receive_nothing(timeout=0.3):
        return False
    frame = await comm.receive_json_from()
    close = await comm.receive_output(timeout=2)
    return frame["code"] == "too_many_connections" and close == {
        "type": "websocket.close",
        "code": CLOSE_TOO_MANY,
    }


async def test_sockets_per_address_are_limited_and_freed_on_close(site, settings):
    settings.WS_MAX_SOCKETS_PER_ADDRESS = 3
    held = [await _open(site, "198.51.100.7") for _ in range(3)]
    fourth = await _open(site, "198.51.100.7")
    assert await _refused(fourth)
    other = await _open(site, "198.51.100.8")  # another address is not affected
    assert not await _refused(other)
    await held[0].disconnect()
    again = await _open(site, "198.51.100.7")
    assert not await _refused(again), "a closed socket gives its place back"
    for comm in (*held[1:], other, again):
        await comm.disconnect()
    assert not any("198.51.100" in key for key in SOCKETS.counts), "no entry left behind"


async def test_one_ipv6_64_counts_as_one_network(site, settings):
    settings.WS_MAX_SOCKETS_PER_NET64 = 2
    a = await _open(site, "2001:db8:1:2::1")
    b = await _open(site, "2001:db8:1:2:ffff::9")
    third = await _open(site, "2001:db8:1:2:abcd::1")  # a new address in the same /64
    assert await _refused(third)
    elsewhere = await _open(site, "2001:db8:1:3::1")
    assert not await _refused(elsewhere)
    for comm in (a, b, elsewhere):
        await comm.disconnect()


async def test_rotating_x_forwarded_for_from_a_direct_client_changes_nothing(site, settings):
    settings.WS_MAX_SOCKETS_PER_ADDRESS = 2
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    held = [await _open(site, "203.0.113.5", forwarded_for=f"10.9.0.{i}") for i in range(2)]
    third = await _open(site, "203.0.113.5", forwarded_for="10.9.0.99")
    assert await _refused(third), "the header of an untrusted peer is ignored"
    # behind the trusted proxy, each visitor is counted by the address the proxy saw
    proxied = [
        await _open(site, "127.0.0.1", forwarded_for=f"1.2.3.4, 10.8.0.{i}") for i in range(3)
    ]
    for comm in proxied:
        assert not await _refused(comm)
    for comm in (*held, *proxied):
        await comm.disconnect()


async def test_a_socket_that_never_says_hello_is_closed(site, settings):
    settings.WS_HELLO_TIMEOUT_SECONDS = 0.3
    silent = await _open(site, "198.51.100.20")
    assert await silent.receive_output(timeout=3) == {
        "type": "websocket.close",
        "code": CLOSE_HELLO_TIMEOUT,
    }
    greeted = Client(await _open(site, "198.51.100.21"))
    await greeted.hello()
    assert await greeted.nothing(0.8), "a greeted socket stays"
    await greeted.close()


async def test_an_idle_socket_is_closed_with_the_resume_code(site, settings):
    settings.WS_IDLE_TIMEOUT_SECONDS = 0.5
    c = Client(await _open(site, "198.51.100.30"))
    await c.hello()
    await asyncio.sleep(0.3)
    await c.send({"type": "profile"})  # activity moves the deadline
    assert (await c.recv())["type"] == "profile"
    assert await c.nothing(0.35)
    assert await c.c.receive_output(timeout=3) == {"type": "websocket.close", "code": CLOSE_IDLE}


@pytest.mark.parametrize(
    "frame", [{"type": "hello"}, {"type": "profile"}, {"type": "consent", "recognition": False}]
)
async def test_every_frame_type_is_rate_limited_per_socket(site, settings, frame):
    settings.WS_FRAME_RATE = "4/60"
    c = Client(await _open(site, "198.51.100.40"))
    await c.hello()  # one of the four
    for _ in range(3):
        await c.send(frame)
        assert (await c.recv())["type"] != "error"
    await c.send(frame)
    error = await c.recv()
    assert error["type"] == "error" and error["code"] == "rate_limited"
    await c.close()


def test_client_address_and_address_key(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    assert client_address("203.0.113.1", "1.1.1.1") == "203.0.113.1"  # untrusted peer
    assert client_address("127.0.0.1", "1.1.1.1") == "1.1.1.1"
    # the client's own claim on the left is ignored: the rightmost untrusted entry wins
    assert client_address("127.0.0.1", "6.6.6.6, 2.2.2.2, 10.1.1.1") == "2.2.2.2"
    assert client_address("127.0.0.1", "not-an-address") == "127.0.0.1"
    assert client_address("::ffff:127.0.0.1", "3.3.3.3") == "3.3.3.3"
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_key("192.0.2.1") == "192.0.2.1"
    assert address_key("::ffff:192.0.2.1") == "192.0.2.1"


async def test_the_message_rate_limit_counts_an_ipv6_64_as_one_address(site, settings, fake_llm):
    settings.RATE_LIMIT_PER_ADDRESS = "2/60"
    fake_llm.script.extend([Reply("Fine."), Reply("Fine.")])
    results = []
    for i in range(3):  # three addresses of one /64, one socket and one message each
        c = Client(await _open(site, f"2001:db8:7:7::{i + 1}"))
        await c.hello()
        await c.send({"type": "message", "id": f"v6-{i}", "text": "Hello?"})
        frame, _ = await c.recv_until("error" if i == 2 else "ack", timeout=10)
        results.append(frame.get("code", frame["type"]))
        if i < 2:
            await c.answer()  # no answer left running into the next test's database flush
        await c.close()
    assert results == ["ack", "ack", "rate_limited"]


def test_the_history_frame_budget_stays_below_daphnes_message_limit(settings):
    from chatwidget.widget.limits import history_turns_budget

    settings.WS_HISTORY_FRAME_BYTES = 8 * 1024 * 1024
    assert history_turns_budget() < 1024 * 1024
    settings.WS_HISTORY_FRAME_BYTES = 64 * 1024
    assert history_turns_budget() < 64 * 1024
