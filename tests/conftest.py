"""Shared fixtures: sites, the fake OpenAI-compatible server, websocket clients."""

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken"))

SHOP = "http://shop.test"


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _fresh_socket_counts():
    """Every test starts with no open visitor sockets counted (chatwidget.widget.limits): a test that
    leaves its communicators open never runs their disconnect, which gives the place back."""
    from chatwidget.widget.limits import SOCKETS

    SOCKETS.counts.clear()
    SOCKETS.total = 0
    yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database as migrations made it; the groups (roles) are noted so that a
    transactional test's flush can have them back (tests.factories.roles_ensure)."""
    from tests.factories import roles_snapshot_take

    with django_db_blocker.unblock():
        roles_snapshot_take()


@pytest.fixture
def site(db):
    from chatwidget.sites.services import site_create
    from memory.retention import retention_policy_ensure

    made = site_create(name="Test shop", origins=[SHOP])
    retention_policy_ensure(site_id=made.pk)  # its periods as a row tests may change
    return made


@pytest.fixture(scope="session")
def fake_llm_server():
    from tests.fakellm import FakeLLM

    server = FakeLLM().start()
    yield server
    server.stop()


@pytest.fixture
def fake_llm(fake_llm_server, settings):
    """The fake model, wired in: real openai client, real HTTP, on 127.0.0.1."""
    from chatwidget.platform import llm

    fake_llm_server.script.clear()
    fake_llm_server.requests.clear()
    settings.OPENAI_API_KEY = "test-key"
    settings.OPENAI_BASE_URL = fake_llm_server.base_url
    settings.DEMO_MODE = False
    settings.LLM_MAX_RETRIES = 1
    settings.LLM_FIRST_TOKEN_TIMEOUT_SECONDS = 2.0
    settings.LLM_TIMEOUT_SECONDS = 5.0
    llm._client.cache_clear()
    yield fake_llm_server
    llm._client.cache_clear()


class Client:
    """A widget stand-in over `WebsocketCommunicator`."""

    def __init__(self, communicator) -> None:
        self.c = communicator

    async def send(self, frame) -> None:
        await self.c.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def recv(self, timeout: float = 5) -> dict:
        return json.loads(await self.c.receive_from(timeout=timeout))

    async def recv_until(self, kind: str, timeout: float = 5, **match) -> tuple[dict, list[dict]]:
        seen = []
        while True:
            frame = await self.recv(timeout)
            seen.append(frame)
            if frame.get("type") == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame, seen

    async def nothing(self, timeout: float = 0.3) -> bool:
        return await self.c.receive_nothing(timeout=timeout)

    async def hello(self, session=None, last_seq=None) -> dict:
        await self.send({"type": "hello", "session": session, "last_seq": last_seq})
        return await self.recv()

    async def say(self, text: str, cid: str) -> dict:
        await self.send({"type": "message", "id": cid, "text": text})
        ack, _ = await self.recv_until("ack", id=cid)
        return ack

    async def answer(self, timeout: float = 10) -> tuple[dict, list[dict]]:
        """Frames up to the complete assistant message."""
        return await self.recv_until("message", timeout=timeout, role="assistant")

    async def close(self) -> None:
        await self.c.disconnect()


@pytest.fixture
async def connect():
    """Open widget sockets against the real ASGI application. At the end of the test every
    socket is closed and what its background tasks started (answers, handovers, their
    database work) has finished: nothing a test left running may hold the database thread
    when the next test connects."""
    from channels.testing import WebsocketCommunicator

    from chatwidget.asgi import application

    opened: list[Client] = []

    async def _connect(site_key: str, origin: str | None = SHOP, client=("10.0.0.1", 1234)):
        headers = [(b"origin", origin.encode())] if origin else []
        comm = WebsocketCommunicator(application, f"/ws/chat/{site_key}/", headers=headers)
        comm.scope["client"] = client
        connected, _ = await comm.connect()
        assert connected
        c = Client(comm)
        opened.append(c)
        return c

    yield _connect
    await sockets_settle(opened)


async def sockets_settle(opened: list) -> None:
    """Close the test's sockets, let the tasks they spawned end (cancel what is still running
    after a while), then wait until the database thread is free."""
    import asyncio
    import contextlib

    from channels.db import database_sync_to_async

    from chatwidget.platform import db

    for c in opened:
        with contextlib.suppress(Exception):
            await c.c.disconnect(timeout=2)
    current = asyncio.current_task()
    pending = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
    if pending:
        _done, late = await asyncio.wait(pending, timeout=10)
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late, timeout=2)
    await database_sync_to_async(lambda: None)()  # queued after whatever they handed over
    # Database work that the sockets' background tasks handed to the pool (an answer, its
    # trace) ends before the test's flush: a flush racing it deadlocks in PostgreSQL.
    if db._pool is not None:
        db._pool.shutdown(wait=True)
        db._pool = None


def pytest_sessionfinish(session, exitstatus):
    """Drop this run's PostgreSQL test database even when a straggling connection (a worker
    or server a test started) kept Django's own teardown from dropping it, so that unique
    per-run names do not pile up on a shared server."""
    name = os.environ.get("TEST_DB_NAME", "")
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not name.startswith("test_chatwidget_") or not url.startswith("postgres"):
        return
    try:
        import psycopg

        base = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(base, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except Exception:  # best effort clean-up, never fails the run
        pass
