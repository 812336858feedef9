"""Deletion with nobody intervening by hand: a real Celery worker with embedded beat
(`celery -A chatwidget worker -B`, Redis broker, the PostgreSQL test database) purges
expired transcripts on its own schedule (CHATWIDGET_PURGE_INTERVAL_SECONDS=2). The test
only back-dates the clock in the database and waits (bounded) for the store to be clean."""

import asyncio
import os
import time
from datetime import timedelta
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection
from django.utils import timezone

from handover.models import Case
from memory.models import ContextTrace, Conversation, Core, Profile, Turn
from memory.retention import conversation_hold_set
from tests.integration.cluster import Worker

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 90

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _needs_real_services() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL: set TEST_DATABASE_URL=postgres://... (the worker "
            "process must share the test database)"
        )
    if not settings.TEST_REDIS_URL:
        pytest.skip("needs Redis as the Celery broker: set TEST_REDIS_URL=redis://...")


def _setup(site) -> dict:
    from memory.services import conversation_start, turn_append

    now = timezone.now()

    def conversation(hours_ago: float, text: str):
        conv, token = conversation_start(site_id=site.pk)
        turn_append(conversation_id=conv.pk, role="visitor", text=text)
        turn_append(conversation_id=conv.pk, role="assistant", text="Noted.")
        version = 1 + max(conv.cores.values_list("version", flat=True), default=0)
        Core.objects.create(
            conversation=conv,
            version=version,
            data={"request": text},
            covers_through_seq=1,
            source="extractive",
        )
        ContextTrace.objects.create(
            conversation=conv, request_seq=1, budget=8000, reserve=500, total_tokens=50
        )
        Conversation.objects.filter(pk=conv.pk).update(
            last_activity_at=now - timedelta(hours=hours_ago)
        )
        return conv, token

    expired, expired_token = conversation(25, "expired session: blue kettle")
    live, live_token = conversation(1, "live session: red kettle")
    held, _ = conversation(24 * 5, "open case: green kettle")
    Case.objects.create(site=site, conversation=held, trigger="visitor", status="human")
    conversation_hold_set(conversation_id=held.pk, open=True)  # what handover writes
    run_off, _ = conversation(24 * 40, "resolved case: black kettle")
    case = Case.objects.create(
        site=site,
        conversation=run_off,
        trigger="visitor",
        status="resolved",
        resolved_at=now - timedelta(days=31),
        reason="broken lid",
        note="replacement sent",
        contact=[{"kind": "email", "value": "k@example.org"}],
        core={"request": "broken lid"},
    )
    profile = Profile.objects.create(site=site, token_hash="c" * 64)
    Profile.objects.filter(pk=profile.pk).update(last_visit_at=now - timedelta(days=400))
    return {
        "expired": expired.pk,
        "expired_token": expired_token,
        "live": live.pk,
        "live_token": live_token,
        "held": held.pk,
        "run_off": run_off.pk,
        "case": case.pk,
        "profile": profile.pk,
    }


def _state(ids: dict) -> dict:
    case = Case.objects.get(pk=ids["case"])
    return {
        "expired_turns": Turn.objects.filter(conversation_id=ids["expired"]).count(),
        "expired_rows": Conversation.objects.filter(pk=ids["expired"]).count()
        + Core.objects.filter(conversation_id=ids["expired"]).count()
        + ContextTrace.objects.filter(conversation_id=ids["expired"]).count(),
        "run_off_turns": Turn.objects.filter(conversation_id=ids["run_off"]).count(),
        "case_purged": case.transcript_purged_at is not None,
        "profile": Profile.objects.filter(pk=ids["profile"]).count(),
    }


def _clear_broker(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.delete("celery", "unacked", "unacked_index", "_kombu.binding.celery")
    finally:
        client.close()


def _start_worker(tmp_path: Path) -> Worker:
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k != "TEST_DB_NAME"}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.test",
            # the worker connects to the very database this test uses
            "TEST_DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}",
            "CHATWIDGET_PURGE_INTERVAL_SECONDS": "2",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    beat = ["-B", "-s", str(tmp_path / "beat-schedule"), "--pool", "solo"]
    return Worker(env, tmp_path, broker=settings.TEST_REDIS_URL, args=beat).start(wait=False)


async def test_real_worker_and_beat_purge_expired_transcripts(site, connect, tmp_path):
    await database_sync_to_async(_needs_real_services)()
    ids = await database_sync_to_async(_setup)(site)
    before = await database_sync_to_async(_state)(ids)
    assert before["expired_turns"] == 2 and before["run_off_turns"] == 2

    # reads treat the expired session as gone already, before any purge
    c = await connect(site.key)
    assert (await c.hello(session=ids["expired_token"]))["resumed"] is False
    await c.close()

    _clear_broker(settings.TEST_REDIS_URL)
    worker = _start_worker(tmp_path)
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        state = before
        while time.monotonic() < deadline:
            state = await database_sync_to_async(_state)(ids)
            if (
                state["expired_rows"] == 0
                and state["run_off_turns"] == 0
                and state["case_purged"]
                and state["profile"] == 0
            ):
                break
            assert worker.alive, worker.log_text()[-3000:]
            await asyncio.sleep(0.5)
        assert state == {
            "expired_turns": 0,
            "expired_rows": 0,
            "run_off_turns": 0,
            "case_purged": True,
            "profile": 0,
        }, worker.log_text()[-3000:]
        assert "chatwidget.tasks.purge_expired" in worker.log_text(), "beat sent the task"
    finally:
        worker.stop()

    def survivors():
        case = Case.objects.get(pk=ids["case"])
        return {
            "live_turns": Turn.objects.filter(conversation_id=ids["live"]).count(),
            "held_turns": Turn.objects.filter(conversation_id=ids["held"]).count(),
            "case": (case.reason, case.note, case.core, case.contact, case.conversation_id),
        }

    assert await database_sync_to_async(survivors)() == {
        "live_turns": 2,
        "held_turns": 2,
        # past its run-off the case keeps its note only: the reason went with the
        # transcript although memory's purge ran first (issue 25)
        "case": ("", "replacement sent", {}, [], None),
    }

    # a session resumed after expiry starts empty; the live one still resumes
    c = await connect(site.key, client=("10.0.0.5", 1))
    assert await c.hello(session=ids["expired_token"]) == {
        "type": "welcome",
        "session": None,
        "resumed": False,
        "state": "bot",
        "turns": [],
        "earlier": False,
    }
    c2 = await connect(site.key, client=("10.0.0.6", 1))
    resumed = await c2.hello(session=ids["live_token"])
    assert resumed["resumed"] is True and len(resumed["turns"]) == 2
