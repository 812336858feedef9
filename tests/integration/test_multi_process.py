"""Beyond one machine, with real processes: two Daphne processes, a Celery worker and
redis-server started here, PostgreSQL (the test database pytest-django created), the fake
model as a real HTTP server on 127.0.0.1.

What a visitor and a shop would notice:
- a staff reply posted on process B reaches the visitor whose socket is held by process A;
- the worker condenses a conversation; killed with SIGKILL in the middle of it and
  restarted, it loses no turn and the core catches up;
- Redis restarted during a conversation: the conversation continues after reconnecting,
  no turn lost or duplicated;
- Daphne stopped with SIGTERM: a clean close; reconnecting to the other process with
  `last_seq` gives exactly the missing turns;
- the database briefly unreachable: the visitor gets `unavailable`, nothing is half-written,
  and the same client id succeeds once afterwards;
- the broker down: replies continue, condensation catches up once it is back;
- the production settings on real PostgreSQL and Redis: probes without a Host header, HSTS
  and CSP on pages, compressed and immutable static files.

Two redis-server processes: one for the channel layer and cache, one as Celery's broker, so
each can go down alone.

Needs PostgreSQL (TEST_DATABASE_URL) and the redis-server binary; skips with a message
otherwise. Logs of every process are printed when a test fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import connection
from websockets.exceptions import ConnectionClosed

from tests.fakellm import FakeLLM, Hang, JsonReply, Reply
from tests.integration.cluster import (
    ROOT,
    Daphne,
    RedisServer,
    TcpProxy,
    Visitor,
    Worker,
    admin_staff_reply,
    await_until,
    database_url,
)
from tests.procs import collected_static, started_together

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

VISIBILITY_TIMEOUT = 3  # seconds until a task of a dead worker is delivered again (test value)
CORE = {
    "request": "help choosing a cotton kurta for the office",
    "objects": [],
    "constraints": [],
    "open_points": [],
    "promises": [],
    "corrections": [],
    "settled": [],
}
CONDENSE_RECEIVED = re.compile(r"memory\.tasks\.condense_conversation\[([0-9a-f-]+)\] received")
_INHERITED_NOT = {
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "DJANGO_SETTINGS_MODULE",
    "TEST_DATABASE_URL",
    "TEST_DB_NAME",
    "TEST_REDIS_URL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ALLOWED_HOSTS",
}


class ModelPolicy:
    """The fake model's answers: streamed replies for the visitor; for condensation (the
    non-streaming structured call) a valid core, or, while `hold` is set, a request that
    hangs (`held` tells the test it arrived)."""

    def __init__(self) -> None:
        self.hold = threading.Event()
        self.held = threading.Event()

    def __call__(self, body: dict):
        if body.get("stream"):
            return Reply("Noted. A cotton kurta for the office, we will look at it together.")
        if self.hold.is_set():
            self.held.set()
            return Hang(600)
        return JsonReply(CORE)


class Cluster:
    def __init__(self, log_dir: Path, db_settings: dict) -> None:
        self.log_dir = log_dir
        self.policy = ModelPolicy()
        self.fake = FakeLLM(default=self.policy).start()
        self.redis = RedisServer(log_dir, "redis")  # channel layer and cache
        self.broker = RedisServer(log_dir, "broker")  # Celery's, so it can go down alone
        self.db_settings = db_settings
        env = {k: v for k, v in os.environ.items() if k not in _INHERITED_NOT}
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
                "DEBUG": "0",
                "DATABASE_URL": database_url(db_settings),
                "REDIS_URL": self.redis.url,
                "CELERY_BROKER_URL": self.broker.url,
                "OPENAI_API_KEY": "test-key",
                "OPENAI_BASE_URL": self.fake.base_url,
                "TIKTOKEN_CACHE_DIR": os.environ.get(
                    "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
                ),
                "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
                "MEMORY_CONDENSE_LOCK_SECONDS": "5",
                "RATE_LIMIT_PER_ADDRESS": "1000/60",
                "RATE_LIMIT_PER_SESSION": "1000/60",
                "PYTHONUNBUFFERED": "1",
            }
        )
        self.env = env
        self.a = Daphne("daphne-a", env, log_dir)
        self.b = Daphne("daphne-b", env, log_dir)
        self.worker = Worker(env, log_dir)
        self.extra: list = []

    def ensure(self) -> None:
        """Start whatever is not running (a previous test may have stopped it)."""
        for redis in (self.redis, self.broker):
            if redis.process is None or not redis.process.alive:
                redis.start()
        starts = [daphne.start for daphne in (self.a, self.b) if not daphne.process.alive]
        if not self.worker.alive:
            starts.append(self.worker.start)
        started_together(*starts)  # side by side: most of a start is waiting
        self.policy.hold.clear()
        self.policy.held.clear()
        self.fake.script.clear()

    def processes(self):
        yield self.redis.process
        yield self.broker.process
        yield self.a.process
        yield self.b.process
        if self.worker.process is not None:
            yield self.worker.process
        for item in self.extra:
            yield item.process

    def logs(self) -> str:
        parts = []
        for process in self.processes():
            if process is not None:
                new = process.new_log()
                if new.strip():
                    parts.append(f"----- {process.name} -----\n{new[-6000:]}")
        return "\n".join(parts)

    def shutdown(self) -> None:
        for process in self.processes():
            if process is not None:
                process.kill()
        self.fake.stop()


@pytest.fixture(scope="module")
def cluster(django_db_setup, django_db_blocker, tmp_path_factory):
    if connection.vendor != "postgresql":
        pytest.skip(
            "multi-process tests need PostgreSQL (set TEST_DATABASE_URL): SQLite in "
            "memory cannot be shared by several processes"
        )
    if shutil.which("redis-server") is None:
        pytest.skip(
            "multi-process tests need the redis-server binary (apt install "
            "redis-server): they start, stop and restart their own Redis"
        )
    log_dir = tmp_path_factory.mktemp("multi-process-logs")
    c = Cluster(log_dir, dict(connection.settings_dict))
    try:
        # As a release does: hashed, compressed static files for the admin's pages.
        c.env["STATIC_ROOT"] = str(collected_static(c.env))
        c.redis.start()
        c.broker.start()
        yield c
    finally:
        c.shutdown()


@pytest.fixture
def running(cluster):
    """The cluster with every process up; prints their new log lines when a test fails."""
    cluster.logs()  # skip what earlier tests logged
    try:
        cluster.ensure()
        yield cluster
    finally:
        print(cluster.logs())


# --- database reads (the test's own connection, never through the proxy) -------------------


@sync_to_async
def turns_of(session: str) -> list[tuple[int, str, str | None]]:
    from memory.models import Turn
    from memory.selectors import token_hash

    return list(
        Turn.objects.filter(conversation__token_hash=token_hash(session))
        .order_by("seq")
        .values_list("seq", "role", "client_id")
    )


@sync_to_async
def conversation_of(session: str):
    from memory.models import Conversation
    from memory.selectors import token_hash

    return Conversation.objects.get(token_hash=token_hash(session))


@sync_to_async
def cores_of(session: str) -> list[tuple[int, int]]:
    from memory.models import Core
    from memory.selectors import token_hash

    return list(
        Core.objects.filter(conversation__token_hash=token_hash(session))
        .order_by("version")
        .values_list("version", "covers_through_seq")
    )


def assert_acks_stored_once(turns: list[tuple[int, str, str | None]], acks: dict[str, int]):
    seqs = [seq for seq, _, _ in turns]
    assert len(seqs) == len(set(seqs)), f"a seq appears twice: {seqs}"
    by_client = {}
    for seq, role, client_id in turns:
        if client_id:
            assert client_id not in by_client, f"client id {client_id} stored twice"
            by_client[client_id] = (seq, role)
    for client_id, seq in acks.items():
        assert by_client.get(client_id) == (seq, "visitor"), (
            f"acked {client_id} as seq {seq}, stored: {by_client.get(client_id)}"
        )


async def exchange(visitor: Visitor, text: str, cid: str, acks: dict[str, int]) -> int:
    ack = await visitor.say(text, cid)
    assert ack["type"] == "ack", ack
    acks[cid] = ack["seq"]
    answer = await visitor.answer()
    return answer["seq"]


# --- the scenarios ------------------------------------------------------------------------


async def test_staff_reply_on_process_b_reaches_visitor_on_process_a(running, site):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from django.urls import NoReverseMatch, reverse

    from handover.models import Case

    site.staff_hours = ""  # staff are always there: no call-back offer in between
    await sync_to_async(site.save)(update_fields=["staff_hours"])
    password = uuid.uuid4().hex
    # Hashed with a hasher the servers know (the test settings' MD5 is not in theirs).
    encoded = PBKDF2PasswordHasher().encode(password, uuid.uuid4().hex[:12], iterations=1000)
    await sync_to_async(get_user_model().objects.create)(
        username="staff",
        email="staff@example.com",
        password=encoded,
        is_staff=True,
        is_superuser=True,
    )

    visitor = await Visitor().open(running.a.ws_url(site.key))
    try:
        await visitor.hello()
        acks: dict[str, int] = {}
        await exchange(visitor, "Is the cotton kurta good for the office?", "m1", acks)
        await visitor.send({"type": "handover", "reason": "I would like to ask a person"})
        await visitor.recv_until("state", state="waiting")
        case = await sync_to_async(Case.objects.get)(conversation__site=site)
        try:
            reply_path = reverse("admin:handover_case_action", args=[case.pk, "reply"])
        except NoReverseMatch:
            pytest.skip("the admin's staff reply action (handover) is not installed")

        answer = await asyncio.to_thread(
            admin_staff_reply,
            running.b.http,
            username="staff",
            password=password,
            path=reply_path,
            text="Hello, this is Maria from the shop team.",
        )
        staff_seq = answer["seq"]

        message = await visitor.recv_until("message", role="staff")
        assert message["seq"] == staff_seq
        assert message["text"] == "Hello, this is Maria from the shop team."
        turns = await turns_of(visitor.session)
        assert (staff_seq, "staff", None) in turns
        assert_acks_stored_once(turns, acks)
    finally:
        await visitor.close()


async def test_worker_condenses_and_catches_up_after_sigkill_mid_condensation(running, site):
    from chatwidget.sites.models import Site

    if not await sync_to_async(_condensation_task_exists)():
        pytest.skip("memory.tasks.condense_conversation is not there yet")
    # Condense as soon as one turn has left a window of six.
    await sync_to_async(Site.objects.filter(pk=site.pk).update)(
        verbatim_window_turns=6, condense_after_turns=1
    )
    running.policy.hold.set()  # the first condensation request hangs in the model

    visitor = await Visitor().open(running.a.ws_url(site.key))
    acks: dict[str, int] = {}
    try:
        await visitor.hello()
        for n, text in enumerate(
            [
                "I look for a cotton kurta.",
                "It is for the office.",
                "Mint or white would be fine.",
                "Which one ships sooner?",
            ]
        ):
            await exchange(visitor, text, f"m{n}", acks)
        # turn 7 left the window of 6 -> the worker asks the model, which hangs
        held = await asyncio.to_thread(running.policy.held.wait, 60)
        assert held, "the worker never asked the model to condense:\n" + running.logs()
        held_at = time.monotonic()
        killed = running.worker.process
        killed.kill()  # SIGKILL, the whole process group, mid-condensation
        delivered = set(CONDENSE_RECEIVED.findall(killed.log_text()))
        assert delivered, "the killed worker had received no condensation task"
        assert await cores_of(visitor.session) == [], "nothing may be stored by a killed run"
        turns_before = await turns_of(visitor.session)
        assert len(turns_before) == 8

        running.policy.hold.clear()
        # The broker hands the unacknowledged task out again VISIBILITY_TIMEOUT after it was
        # delivered; the restarted worker looks for such tasks when it starts.
        await asyncio.sleep(max(0.0, held_at + VISIBILITY_TIMEOUT + 1 - time.monotonic()))
        await asyncio.to_thread(running.worker.start)

        async def core_stored():
            return await cores_of(visitor.session)

        cores = await await_until(
            core_stored, timeout=120, interval=0.5, what="the restarted worker to store the core"
        )
        # acks_late: the very task the killed worker held was delivered again.
        assert delivered & set(CONDENSE_RECEIVED.findall(running.worker.process.log_text()))
        assert cores[-1][1] >= 1, cores
        turns_after = await turns_of(visitor.session)
        assert turns_after == turns_before, "condensation must not touch a turn"
        assert_acks_stored_once(turns_after, acks)
        conv = await conversation_of(visitor.session)
        assert conv.condensed_through_seq == cores[-1][1]
    finally:
        await visitor.close()


def _condensation_task_exists() -> bool:
    from chatwidget.celery import app

    app.loader.import_default_modules()
    return "memory.tasks.condense_conversation" in app.tasks


async def test_redis_restart_mid_conversation_loses_and_duplicates_nothing(running, site):
    visitor = await Visitor().open(running.a.ws_url(site.key))
    other_tab = None
    acks: dict[str, int] = {}
    try:
        await visitor.hello()
        await exchange(visitor, "Do you ship the kurta to Vienna?", "r1", acks)

        running.redis.stop()
        running.redis.start()  # same port, empty: groups, queues and rate limits are gone

        # Daphne's Redis connections reconnect by themselves (a retry within about a second).
        # Had Redis stayed away longer, the socket would close cleanly (CLOSE_RECONNECT) and
        # the widget would reconnect and resume: accept either, as the widget does.
        resumed_from = visitor.last_complete_seq
        try:
            await visitor.send({"type": "ping-after-restart"})
            frame = await visitor.recv_until("error", timeout=10)
            assert frame["code"] == "unknown_type"  # the socket is alive and answering
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4503, closed
            visitor = await Visitor.resume(visitor, running.a.ws_url(site.key))
            welcome = visitor.frames[-1]
            assert welcome["resumed"] is True and welcome["turns"] == []

        # The conversation continues, on both processes: the answer to a message sent on
        # A reaches a second tab on B through the (restarted) Redis channel layer.
        other_tab = Visitor()
        other_tab.session = visitor.session
        await other_tab.open(running.b.ws_url(site.key))
        await other_tab.hello(last_seq=resumed_from)
        answer_seq = await exchange(visitor, "And how long does it take?", "r2", acks)
        seen_elsewhere = await other_tab.recv_until("message", role="assistant", seq=answer_seq)
        assert seen_elsewhere["seq"] == answer_seq

        # The widget retries a message whose ack it did not see: the same turn, no second one.
        again = await visitor.say("And how long does it take?", "r2")
        assert again["type"] == "ack" and again["seq"] == acks["r2"]
        turns = await turns_of(visitor.session)
        assert_acks_stored_once(turns, acks)
        assert [seq for seq, _, _ in turns] == sorted(visitor.complete), (
            "the widget holds exactly what is stored"
        )
    finally:
        await visitor.close()
        if other_tab is not None:
            await other_tab.close()


async def test_broker_down_replies_continue_and_condensation_catches_up(running, site):
    from chatwidget.sites.models import Site

    if not await sync_to_async(_condensation_task_exists)():
        pytest.skip("memory.tasks.condense_conversation is not there yet")
    await sync_to_async(Site.objects.filter(pk=site.pk).update)(
        verbatim_window_turns=6, condense_after_turns=1
    )
    visitor = await Visitor().open(running.a.ws_url(site.key))
    acks: dict[str, int] = {}
    try:
        await visitor.hello()
        await exchange(visitor, "I look for a cotton kurta.", "b1", acks)
        await exchange(visitor, "It is for the office.", "b2", acks)
        running.a.process.new_log()

        running.broker.stop()
        # Turn 8 (an answer) makes a condensation due; enqueueing it fails fast, after the
        # answer was published, and the visitor is answered all the same.
        await exchange(visitor, "Mint or white would be fine.", "b3", acks)
        await exchange(visitor, "Which one ships sooner?", "b4", acks)
        seen: list[str] = []

        async def enqueue_failed():
            seen.append(running.a.process.new_log())
            return "condensation not enqueued" in "".join(seen)

        await await_until(enqueue_failed, timeout=30, what="the failed enqueue to be logged")
        status, body = await asyncio.to_thread(running.a.readyz)
        # the broker is shared by every pod: not a reason to leave the load balancer
        assert status == 200 and "broker" not in body["checks"], body
        assert await cores_of(visitor.session) == []

        # The broker is back: the worker reconnects, and the next turn enqueues again.
        running.broker.start()
        await exchange(visitor, "White, please.", "b5", acks)

        async def core_stored():
            return await cores_of(visitor.session)

        cores = await await_until(
            core_stored,
            timeout=120,
            interval=0.5,
            what="the condensation to catch up after the broker is back",
        )
        assert cores[-1][1] >= 1
        assert_acks_stored_once(await turns_of(visitor.session), acks)
    finally:
        await visitor.close()


async def test_database_unreachable_gives_unavailable_and_nothing_half_written(running, site):
    db = running.db_settings
    proxy = TcpProxy(db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432)).start()
    env = dict(running.env)
    env["DATABASE_URL"] = database_url({**db, "HOST": "127.0.0.1", "PORT": proxy.port})
    daphne = Daphne("daphne-c-via-proxy", env, running.log_dir)
    running.extra.append(daphne)
    visitor = Visitor()
    acks: dict[str, int] = {}
    try:
        await asyncio.to_thread(daphne.start)
        await visitor.open(daphne.ws_url(site.key))
        await visitor.hello()
        await exchange(visitor, "Is the mint kurta in stock?", "d1", acks)
        conv_before = await conversation_of(visitor.session)
        turns_before = await turns_of(visitor.session)
        await asyncio.sleep(0.5)  # the answer's last writes are done

        # The connection breaks while the visitor's turn is being committed: the COMMIT
        # never reaches PostgreSQL, and the database stays unreachable.
        proxy.set_mode("cut_on_commit")
        error = await visitor.say("Please reserve it for me.", "d2")
        assert error["type"] == "error" and error["code"] == "unavailable", error
        assert error["id"] == "d2" and error["message"]
        assert proxy.commits_cut == 1, "the cut should have hit the turn's COMMIT"
        assert await turns_of(visitor.session) == turns_before, "a partial turn was stored"
        conv = await conversation_of(visitor.session)
        assert conv.next_seq == conv_before.next_seq

        status, body = await asyncio.to_thread(daphne.readyz)
        assert status == 503 and body["checks"]["database"] != "ok", body
        assert body["checks"]["channel_layer"] == "ok"

        # The socket survived the outage. Once the database is back, the same client id
        # is stored once and answered; a further retry changes nothing.
        proxy.set_mode("pass")
        ack = await visitor.say("Please reserve it for me.", "d2")
        assert ack["type"] == "ack", ack
        acks["d2"] = ack["seq"]
        await visitor.answer()
        again = await visitor.say("Please reserve it for me.", "d2")
        assert again["type"] == "ack" and again["seq"] == ack["seq"]
        turns = await turns_of(visitor.session)
        assert_acks_stored_once(turns, acks)
        assert len(turns) == len(turns_before) + 2  # the visitor's turn and the answer
        status, body = await asyncio.to_thread(daphne.readyz)
        assert status == 200, body
    finally:
        await visitor.close()
        daphne.process.kill()
        proxy.stop()


async def test_daphne_sigterm_closes_cleanly_and_the_other_process_resumes(running, site):
    visitor = await Visitor().open(running.a.ws_url(site.key))
    other_tab = None
    acks: dict[str, int] = {}
    try:
        await visitor.hello()
        await exchange(visitor, "Hello, I look for a linen shirt.", "s1", acks)

        # An answer is streaming when process A is told to stop.
        running.fake.script.append(
            Reply(
                "We have linen shirts in white, blue and sand, all in sizes S to XL, and they "
                "ship within two working days from our store.",
                first_token_ms=200,
                token_ms=60,
            )
        )
        ack = await visitor.say("Which colours do you have?", "s2")
        acks["s2"] = ack["seq"]
        streaming_seq = (await visitor.recv_until("delta"))["seq"]
        running.a.process.signal(signal.SIGTERM)
        closed = await visitor.closed(timeout=30)
        assert closed.rcvd is not None and closed.rcvd.code == 4503, (
            f"not a clean close: {closed!r}"
        )
        exit_code = await asyncio.to_thread(running.a.process.wait_exit, 30)
        assert exit_code == 0, f"daphne A exited with {exit_code}"
        resume_after = visitor.last_complete_seq

        # Meanwhile the conversation goes on in another tab, on process B.
        other_tab = Visitor()
        other_tab.session = visitor.session
        await other_tab.open(running.b.ws_url(site.key))
        await other_tab.hello(last_seq=None)
        await exchange(other_tab, "Do you have it in blue?", "s3", acks)

        # The first tab reconnects to B and gets exactly what it is missing.
        visitor = await Visitor.resume(visitor, running.b.ws_url(site.key))
        welcome = visitor.frames[-1]
        turns = await turns_of(visitor.session)
        missing = [seq for seq, _, _ in turns if seq > resume_after]
        assert [t["seq"] for t in welcome["turns"]] == missing
        assert missing, "the reply stored during the shutdown grace and the other tab's turns"
        roles = {seq: role for seq, role, _ in turns}
        assert roles.get(streaming_seq) == "assistant", (
            "the answer streaming at SIGTERM is finished and stored within the grace"
        )
        assert_acks_stored_once(turns, acks)
    finally:
        await visitor.close()
        if other_tab is not None:
            await other_tab.close()


async def test_production_settings_serve_probes_static_files_and_security_headers(running):
    """One Daphne with chatwidget.settings.production against the real PostgreSQL and Redis:
    the container's health check and the probes need no Host header; pages get HSTS and the
    CSP; collected static files are served compressed, hashed ones cached for good."""
    env = dict(running.env)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.production",
            "SECRET_KEY": uuid.uuid4().hex + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "chat.example.com",
            # the proxy in front (these requests come from it): its X-Forwarded-Proto counts
            "TRUSTED_PROXIES": "127.0.0.1",
        }
    )
    env.pop("DEBUG", None)
    env.pop("CELERY_VISIBILITY_TIMEOUT", None)  # the cluster's test value fails long_tasks_check
    daphne = Daphne("daphne-production", env, running.log_dir)
    running.extra.append(daphne)
    try:
        await asyncio.to_thread(daphne.start)  # polls /healthz without a configured host
        check = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, str(ROOT / "deploy" / "docker" / "healthcheck.py")],
            env={"HEALTHCHECK_PORT": str(daphne.port), "PATH": os.environ.get("PATH", "")},
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert check.returncode == 0, check.stderr
        status, body = await asyncio.to_thread(daphne.readyz)
        assert status == 200, body

        def get(path: str, **headers: str):
            request = urllib.request.Request(
                f"{daphne.http}{path}",
                headers={"Host": "chat.example.com", "X-Forwarded-Proto": "https", **headers},
            )
            try:
                with urllib.request.urlopen(request, timeout=15) as response:
                    return response.status, response.headers, response.read()
            except urllib.error.HTTPError as exc:
                return exc.code, exc.headers, exc.read()

        status, headers, _ = await asyncio.to_thread(get, "/privacy/")
        assert status == 200
        assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        status, _, _ = await asyncio.to_thread(get, "/privacy/", Host="10.0.0.9")
        assert status == 400, "other URLs still check ALLOWED_HOSTS"

        manifest = json.loads((Path(env["STATIC_ROOT"]) / "staticfiles.json").read_text())
        hashed = manifest["paths"]["widget/v1/loader.js"]
        status, headers, _ = await asyncio.to_thread(
            get, f"/static/{hashed}", **{"Accept-Encoding": "br, gzip"}
        )
        assert status == 200
        assert headers["Content-Encoding"] in ("br", "gzip")
        assert "immutable" in headers["Cache-Control"]
    finally:
        daphne.process.kill()
