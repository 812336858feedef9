"""Across processes: a staff reply sent from this process reaches a visitor whose socket is
held by a separate Daphne process, through the Redis channel layer and PostgreSQL."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from handover import services
from handover.models import Case
from tests.factories import UserFactory
from tests.procs import free_port, wait_port

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def recv_until(ws, kind: str, timeout: float = 10, **match) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {kind} frame {match} within {timeout}s")
        frame = json.loads(ws.recv(timeout=left))
        if frame.get("type") == kind and all(frame.get(k) == v for k, v in match.items()):
            return frame


def test_staff_reply_from_another_process_reaches_the_visitor(site, settings, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (TEST_DATABASE_URL) shared by two processes")
    if not settings.TEST_REDIS_URL:
        pytest.skip("needs Redis (TEST_REDIS_URL) for the channel layer between processes")
    from websockets.sync.client import connect

    site.staff_hours = ""
    site.save(update_fields=["staff_hours"])
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    )
    # this process publishes through the same Redis as the Daphne process
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [settings.TEST_REDIS_URL]},
        }
    }
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
        "DATABASE_URL": database_url,
        "REDIS_URL": settings.TEST_REDIS_URL,
        "CELERY_BROKER_URL": "memory://",
        "OPENAI_API_KEY": "",
        "DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
    }
    log = open(tmp_path / "daphne.log", "w")
    daphne = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "chatwidget.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_port(port, daphne)
        with connect(
            f"ws://127.0.0.1:{port}/ws/chat/{site.key}/",
            origin="http://shop.test",
            open_timeout=10,
            close_timeout=2,
        ) as ws:
            ws.send(json.dumps({"type": "hello", "session": None, "last_seq": None}))
            recv_until(ws, "welcome")
            ws.send(json.dumps({"type": "message", "id": "m1", "text": "Is KU-2291-M in L?"}))
            recv_until(ws, "ack", id="m1")
            recv_until(ws, "message", role="assistant")  # demo mode in that process
            ws.send(json.dumps({"type": "handover", "reason": "a person please"}))
            recv_until(ws, "state", state="waiting")

            case = Case.objects.get()
            staff = UserFactory(username="sam", role="Staff", first_name="Sam")
            services.case_claim(case_id=case.pk, user=staff)  # this process, not Daphne's
            recv_until(ws, "state", state="human")
            joined = recv_until(ws, "message", role="system")
            assert joined["text"] == "Sam from the team has joined the conversation."
            services.staff_reply(case_id=case.pk, user=staff, text="Yes, L is in stock.")
            reply = recv_until(ws, "message", role="staff")
            assert reply["text"] == "Yes, L is in stock."
    finally:
        daphne.terminate()
        try:
            daphne.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daphne.kill()
            daphne.wait(timeout=5)
        log.close()
