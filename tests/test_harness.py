"""The suite's own fixtures: a failing test must not leave state for the next one."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from tests.conftest import Client, redis_databases_refused, sockets_settle


async def _accepts_then_hangs(scope, receive, send):
    await receive()
    await send({"type": "websocket.accept"})
    await asyncio.Event().wait()


async def test_settling_a_socket_whose_receive_timed_out_does_not_raise_a_cancellation():
    """A timed-out `recv` cancels the socket's application, and the communicator raises that
    cancellation on every later call. Raised from a fixture's teardown, a CancelledError skips
    pytest's remaining finalizers (the database rollback among them): the worker's later
    tests then failed on the rows this one left."""
    comm = WebsocketCommunicator(_accepts_then_hangs, "/ws/chat/x/")
    connected, _ = await comm.connect(timeout=2)
    assert connected
    with pytest.raises(asyncio.TimeoutError):
        await comm.receive_from(timeout=0.05)
    assert comm.future.cancelled()
    await sockets_settle([Client(comm)])  # returns; before the fix it raised CancelledError


def test_more_processes_than_redis_has_databases_is_refused_before_any_test_runs():
    """Under `-n 6` with TEST_REDIS_URL ending in /12 the fifth and sixth processes asked for
    databases 16 and 17: one unrelated test failed. The run now stops at once and says why."""
    assert redis_databases_refused("redis://127.0.0.1:6379/12", 4) is None
    assert redis_databases_refused("redis://127.0.0.1:6379/12", 0) is None  # no xdist
    assert redis_databases_refused("", 8) is None  # no Redis: its tests skip
    refused = redis_databases_refused("redis://127.0.0.1:6379/12", 6)
    assert refused and "12 to 17" in refused and "at most 10" in refused


def test_browser_tests_take_debians_headless_shell_where_it_is_installed(tmp_path):
    """The same Chromium build without the browser's window layer: about half the browser
    tests' CPU. The full browser where only it is installed; E2E_CHROMIUM names another."""
    from tests.e2e.stacks import chromium_path

    shell, full = tmp_path / "chromium-headless-shell", tmp_path / "chromium"
    builds = (str(shell), str(full))
    full.touch()
    assert chromium_path({}, builds) == str(full)
    shell.touch()
    assert chromium_path({}, builds) == str(shell)
    assert chromium_path({"E2E_CHROMIUM": "/opt/other"}, builds) == "/opt/other"


def test_a_test_servers_port_is_below_the_ephemeral_range():
    """An outgoing connection of the suite takes its local port from the ephemeral range;
    a server's port chosen there could be taken before the server binds it (procs.free_port)."""
    import socket

    from tests.procs import PORTS_FROM, _ephemeral_low, free_port

    low = _ephemeral_low()
    port = free_port()
    if low > PORTS_FROM + 1000:
        assert PORTS_FROM <= port < low
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))  # and it is free
