"""The suite's own fixtures: a failing test must not leave state for the next one."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from tests.conftest import Client, sockets_settle


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
