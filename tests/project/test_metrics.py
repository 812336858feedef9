"""`/metrics` (issue 31): off without METRICS_TOKEN, a bearer token otherwise, and during a
test conversation the figures an operator pages on; beat's heartbeat goes stale when beat
stops writing it."""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from chatwidget import beat
from chatwidget.metrics import purge_ran
from tests.fakellm import Reply, Status

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "metrics-test-token"


def scrape(token: str | None = TOKEN):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return Client(HTTP_HOST="10.1.2.3:8000").get("/metrics", **headers)  # by address, no host


def value(text: str, name: str, labels: str = "") -> float:
    m = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.M)
    assert m, f"{name}{labels} missing"
    return float(m.group(1))


@pytest.mark.django_db
def test_off_without_a_token_and_refused_with_a_wrong_one(settings):
    settings.METRICS_TOKEN = ""
    assert scrape().status_code == 404
    settings.METRICS_TOKEN = TOKEN
    assert scrape(None).status_code == 401
    assert scrape("guess").status_code == 401


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_figures_during_a_conversation(site, connect, fake_llm, settings):
    settings.METRICS_TOKEN = TOKEN
    ascrape = database_sync_to_async(lambda: scrape().content.decode())
    before = await ascrape()
    answered = (
        value(before, "chatwidget_answers_total", '{outcome="answered"}')
        if ('outcome="answered"' in before)
        else 0.0
    )
    fake_llm.script.append(Reply("The kurta ships in two days.", first_token_ms=30))
    fake_llm.script.extend([Status(500)] * 3)  # the SDK's retries included
    c = await connect(site.key)
    await c.hello()
    await c.say("When does the kurta ship?", "m1")
    await c.answer()
    await c.say("And the scarf?", "m2")
    await c.recv_until("error", timeout=15)  # model_unavailable
    await database_sync_to_async(purge_ran)()
    await database_sync_to_async(beat.heartbeat_write)()
    text = await ascrape()
    assert value(text, "chatwidget_open_sockets") >= 1
    assert value(text, "chatwidget_answers_total", '{outcome="answered"}') == answered + 1
    assert value(text, "chatwidget_model_first_token_seconds_count") >= 1
    assert 'chatwidget_model_errors_total{error="' in text
    assert value(text, "chatwidget_dependency_up", '{dependency="cache"}') == 1
    # the test settings' broker is memory:// (what earlier tests of this process left in it)
    assert value(text, "chatwidget_task_queue_depth") >= 0
    assert value(text, "chatwidget_condensation_lagging_conversations") >= 0
    assert time.time() - value(text, "chatwidget_purge_last_run_timestamp_seconds") < 60
    assert time.time() - value(text, "chatwidget_beat_heartbeat_timestamp_seconds") < 60
    for private in ("When does the kurta ship?", site.key, "10.0.0.1"):
        assert private not in text


def _probe(stale_seconds: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "BEAT_HEARTBEAT_STALE_SECONDS": str(stale_seconds)}
    return subprocess.run(
        [sys.executable, "-m", "chatwidget.beat"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
    )


def test_the_beat_heartbeat_goes_stale_when_beat_stops(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the probe's and this process's temp folder
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert _probe(180).returncode == 1, "no heartbeat yet: not alive"
    beat.heartbeat_write()
    assert _probe(180).returncode == 0
    # beat stops: nothing writes; the stamp ages past the limit
    beat.heartbeat_write(now=time.time() - 200)
    assert _probe(180).returncode == 1


@pytest.mark.django_db
def test_the_scheduler_writes_the_heartbeat_on_its_ticks(tmp_path, monkeypatch, settings):
    import tempfile

    from chatwidget.celery import app

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    settings.BEAT_HEARTBEAT_SECONDS = 30
    scheduler = beat.HeartbeatScheduler(app, schedule_filename=str(tmp_path / "schedule"))
    try:
        assert scheduler.tick() <= 30, "beat never sleeps past its heartbeat"
        assert beat.heartbeat_age() < 5
    finally:
        scheduler.close()
