"""Shared fixtures: sites, the fake OpenAI-compatible server, websocket clients."""

import json
import os
import re
from pathlib import Path

import pytest

from tests import proccount

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken"))


REDIS_URL_DB = re.compile(r"(redis://[^/]*)/(\d+)")  # a Redis URL that names its database


def _redis_of_this_worker() -> None:
    """Under pytest-xdist (`make test` runs the suite in several processes) each worker gets
    its own Redis database, because some tests flush theirs: worker gwN uses the database
    number of TEST_REDIS_URL plus N, here and in every process its tests start. (PostgreSQL
    needs no hand: pytest-django gives each worker a test database of its own, the name with
    `_gwN` appended, and the processes the tests start are told that name.)"""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("TEST_REDIS_URL", "")
    match = REDIS_URL_DB.fullmatch(url)
    if not worker.startswith("gw") or not match or os.environ.get("TEST_REDIS_SHIFTED"):
        return
    from django.conf import settings

    shifted = f"{match.group(1)}/{int(match.group(2)) + int(worker[2:])}"
    os.environ["TEST_REDIS_URL"] = settings.TEST_REDIS_URL = shifted
    os.environ["TEST_REDIS_SHIFTED"] = "1"


REDIS_DATABASES = 16  # redis-server's default `databases`: numbers 0 to 15


def redis_databases_refused(url: str, workers: int) -> str | None:
    """Why `workers` processes cannot each take a Redis database from `url`'s number up (None:
    they can). Redis answers a SELECT beyond its last database with an error, which surfaced
    as one unrelated test failing (the readiness check on a real Redis) rather than as this."""
    match = REDIS_URL_DB.fullmatch(url)
    if not match or workers < 2:
        return None
    first = int(match.group(2))
    last = first + workers - 1
    if last < REDIS_DATABASES:
        return None
    return (
        f"{workers} test processes need Redis databases {first} to {last} (TEST_REDIS_URL's "
        f"number plus each process's index), but Redis has 0 to {REDIS_DATABASES - 1}: set "
        f"TEST_REDIS_URL to a number of at most {REDIS_DATABASES - workers} or run fewer "
        "processes (TEST_WORKERS)"
    )


def pytest_configure(config):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    workers = getattr(config.option, "numprocesses", None)
    refused = redis_databases_refused(
        os.environ.get("TEST_REDIS_URL", ""), workers if isinstance(workers, int) else 0
    )
    if refused:
        raise pytest.UsageError(refused)


_redis_of_this_worker()
proccount.install()

SHOP = "http://shop.test"


# Tests that start servers, workers or a browser, by folder: under pytest-xdist (`make test`)
# each group runs in one worker, so the processes a module or the session starts are started
# once, and two groups of heavy processes do not compete for a small machine's cores; the
# other tests go one by one to whichever worker is free. (A scheduler of our own: xdist's
# `xdist_group` marks do not reach its scheduler under pytest 9.)
XDIST_GROUPS = {"integration": "processes", "e2e": "browser"}
# The multi-process tests mostly wait on the processes they start: two groups of them, each
# module in one (a module's processes are started once), run side by side. Balanced by
# their `--durations` (about half each); a new module goes to the second group.
PROCESSES_FIRST = frozenset(
    {
        "test_multi_process.py",
        "test_demo.py",
        "test_uploads_two_process.py",
        "test_webhooks_worker.py",
        "test_continuation_worker.py",
        "test_knowledge_embed_worker.py",
    }
)


# Modules whose tests share a module-scoped fixture that costs seconds (the house move's
# migrations, the planted copy of the code and its import graph): each kept to one worker,
# so the fixture is made once rather than once per worker that gets one of its tests.
WHOLE_MODULES = frozenset({"tests/project/test_migrations_house_move.py", "tests/test_layers.py"})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        """The groups first (the largest first), then single tests."""

        def _split_scope(self, nodeid: str) -> str:
            parts = nodeid.split("::", 1)[0].split("/")
            group = XDIST_GROUPS.get(parts[1]) if len(parts) > 2 and parts[0] == "tests" else None
            if group == "processes":
                group += "-1" if parts[-1] in PROCESSES_FIRST else "-2"
            if group is None and nodeid.split("::", 1)[0] in WHOLE_MODULES:
                group = nodeid.split("::", 1)[0]
            return group or nodeid

    return GroupScheduling(config, log)


def pytest_runtest_setup(item):
    """A test on a transactional database (flushed after it) is one line of TEST_PROCESS_LOG."""
    marker = item.get_closest_marker("django_db")
    if "transactional_db" in item.fixturenames or (marker and marker.kwargs.get("transaction")):
        proccount.note("flush")


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    from chatwidget.platform.memo import memos_clear

    cache.clear()
    memos_clear()  # the process's memo of cached values (chatwidget.platform.memo)
    yield


@pytest.fixture(autouse=True)
def _rate_windows_held(monkeypatch):
    """Every rate-limit window stays the one the test began in (chatwidget.platform.ratelimit
    counts in fixed windows): a test that sends three messages against "2/60" saw the third
    answered when the minute turned between the second and the third. A test about windows
    passes `at` itself."""
    import time
    from types import SimpleNamespace

    from chatwidget.platform import ratelimit

    began = time.time()
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: began))
    yield


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the default language: a request with a German Accept-Language
    leaves German active in the thread (LocaleMiddleware activates, nothing deactivates), and
    text a later test rendered in that thread came out German."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _celery_app_given_back():
    """A test that points the process's Celery app elsewhere puts it back as it was
    (tests.celery_app.publishing_to): a broker one test left pinned once kept a later test's
    task from its worker."""
    from tests.celery_app import celery_settings

    before = celery_settings()
    yield
    assert celery_settings() == before, "the test left the Celery app changed"


@pytest.fixture(autouse=True)
def _fresh_socket_counts():
    """Every test starts with no open visitor sockets counted (chatwidget.widget.limits): a test that
    leaves its communicators open never runs their disconnect, which gives the place back."""
    from chatwidget.widget.limits import SOCKETS

    SOCKETS.counts.clear()
    SOCKETS.total = 0
    yield


@pytest.fixture(scope="session")
def django_db_setup(
    request, django_test_environment, django_db_blocker, django_db_modify_db_settings
):
    """The test database: pytest-django's set-up, except that on PostgreSQL the database is a
    copy of one migrated template (tests/pgtemplate.py), dropped at the end. The groups
    (roles) are noted so that a transactional test's flush can have them back
    (tests.factories.roles_ensure), and the content types and permissions so that the flush
    can keep them (tests/fastflush.py)."""
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _get_databases_for_setup

    from tests import fastflush, pgtemplate
    from tests.factories import roles_snapshot_take

    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    verbosity = request.config.option.verbose
    with django_db_blocker.unblock():
        copied = pgtemplate.copies_made(aliases)
        db_cfg = setup_databases(
            verbosity=verbosity,
            interactive=False,
            aliases=set(aliases) - copied,
            serialized_aliases=set(serialized_aliases) - copied,
        )
        for alias in copied & set(serialized_aliases):
            connections[alias]._test_serialized_contents = connections[
                alias
            ].creation.serialize_db_to_string()
        roles_snapshot_take()
        fastflush.snapshot()
    fastflush.install()
    yield
    with django_db_blocker.unblock():
        # dropped at once (Django's DROP waits 5 s for a straggling connection, then fails)
        pgtemplate.copies_dropped(copied)
        try:
            teardown_databases(db_cfg, verbosity=verbosity)
        except Exception as exc:  # as pytest-django: a warning, not a failed run
            request.node.warn(
                pytest.PytestWarning(f"Error when trying to teardown test databases: {exc!r}")
            )


def redis_cache_use(settings, prefix: str) -> None:
    """The default cache on this worker's Redis database (TEST_REDIS_URL), its keys under
    `prefix`; skips the test where no Redis answers."""
    if not settings.TEST_REDIS_URL:
        pytest.skip("needs Redis (TEST_REDIS_URL)")
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": settings.TEST_REDIS_URL,
            "KEY_PREFIX": prefix,
        }
    }


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
    default = fake_llm_server.default  # a test may set its own; the next gets the echo again
    settings.OPENAI_API_KEY = "test-key"
    settings.OPENAI_BASE_URL = fake_llm_server.base_url
    settings.DEMO_MODE = False
    settings.LLM_MAX_RETRIES = 1
    settings.LLM_FIRST_TOKEN_TIMEOUT_SECONDS = 2.0
    settings.LLM_TIMEOUT_SECONDS = 5.0
    llm._client.cache_clear()
    yield fake_llm_server
    fake_llm_server.default = default
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

    async def hello(self, session=None, last_seq=None, lang=None) -> dict:
        frame = {"type": "hello", "session": session, "last_seq": last_seq}
        if lang is not None:
            frame["lang"] = lang
        await self.send(frame)
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
        # the consumer's connect reads the database: 1 s (the default) failed a busy machine
        connected, _ = await comm.connect(timeout=10)
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
        # CancelledError too: a `recv` that timed out cancelled the socket's application, and
        # the communicator re-raises that cancellation on every later call. It is a
        # BaseException, which pytest's teardown does not catch: it skipped the finalizers
        # after this one (the database's rollback) and every later test on the worker saw
        # the rows this one left ("previous item was not torn down properly").
        with contextlib.suppress(Exception, asyncio.CancelledError):
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
    from django.conf import settings

    # the name pytest-django used: under xdist TEST_DB_NAME with the worker's `_gwN`
    name = settings.DATABASES["default"].get("TEST", {}).get("NAME") or ""
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
