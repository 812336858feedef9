"""Condensation on a real Celery worker process: on the Redis broker, on the embedded
filesystem broker (started the way `manage.py demo` starts it), and a worker killed with
SIGKILL in the middle of a condensation.

The worker is a separate process, so it shares the PostgreSQL test database (these tests
skip on SQLite) and talks to the fake model over HTTP like the product does.
"""

import json
import os
import time

import pytest
from django.conf import settings
from django.db import connection

from memory.core.extractive import core_extract
from memory.models import Core, Turn
from memory.services import conversation_start, turn_append
from tests.fakellm import Hang, JsonReply
from tests.integration.cluster import Worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

WAIT = 90  # seconds: worker start-up on a loaded machine included


def needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL (TEST_DATABASE_URL): the worker process must share the test database"
        )


def needs_redis() -> str:
    if not settings.TEST_REDIS_URL:
        pytest.skip("needs Redis (TEST_REDIS_URL) for the Redis broker")
    return settings.TEST_REDIS_URL


def database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def workers(tmp_path):
    """`workers(env=..., args=[...])` starts a worker (not waiting for it: the task waits in
    the broker meanwhile); all are stopped in teardown. `workers.log_text()` is their log."""
    started: list[Worker] = []

    def make(*, env: dict, args: list[str]) -> Worker:
        worker = Worker(env, tmp_path, name=f"worker{len(started)}", args=args)
        started.append(worker)
        return worker.start(wait=False)

    make.log_text = lambda: "\n".join(w.log_text() for w in started)
    yield make
    for worker in started:
        worker.stop()


@pytest.fixture
def model(fake_llm):
    """The fake model condenses from what it is sent."""
    default = fake_llm.default

    def behaviour(body):
        payload = json.loads(body["messages"][-1]["content"])
        return JsonReply(core_extract(previous=payload["previous_core"], turns=payload["turns"]))

    fake_llm.default = behaviour
    yield fake_llm
    fake_llm.default = default


def worker_env(fake_llm, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEST_", "CELERY_"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
            "DATABASE_URL": database_url(),
            "OPENAI_API_KEY": "test-key",
            "OPENAI_BASE_URL": fake_llm.base_url,
            "LLM_MAX_RETRIES": "0",
            "LLM_TIMEOUT_SECONDS": "60",
            "TIKTOKEN_CACHE_DIR": settings.TIKTOKEN_CACHE_DIR,
            "PYTHONUNBUFFERED": "1",
            "DEBUG": "0",
        }
    )
    env.update({k: str(v) for k, v in extra.items()})
    return env


def wait_for(predicate, *, what: str, log, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{log()[-4000:]}")


def enqueue(conversation_id: int, *, broker: str, transport_options: dict | None = None):
    """What the web process does after commit (memory.condense.scheduling._enqueue), on that broker."""
    from kombu import Connection

    from memory.tasks import condense_conversation

    with Connection(broker, transport_options=transport_options or {}) as conn:
        condense_conversation.apply_async(args=[conversation_id], connection=conn)


def conversation(site, turns: int = 14):
    site.verbatim_window_turns = 8
    site.condense_after_turns = 2
    site.save()
    conv, _ = conversation_start(site_id=site.pk)
    turn_append(
        conversation_id=conv.pk, role="visitor", text="I need the cotton kurta KU-2291-M in size L."
    )
    for i in range(turns - 1):
        turn_append(
            conversation_id=conv.pk,
            role="assistant" if i % 2 == 0 else "visitor",
            text=f"Message {i} about delivery to Hamburg.",
        )
    return conv


def core_of(conv):
    return Core.objects.filter(conversation=conv).order_by("-version").first()


def flush_redis(url: str) -> None:
    """Forget queued or unacknowledged tasks and condensation keys of earlier runs (only
    those: the Redis database may be shared with the rest of the suite)."""
    import redis

    client = redis.Redis.from_url(url)
    for pattern in ("celery", "unacked*", "_kombu.*", "*condense:*"):
        for key in client.scan_iter(match=pattern, count=500):
            client.delete(key)


def test_a_worker_on_the_redis_broker_condenses(site, model, workers):
    needs_postgres()
    url = needs_redis()
    flush_redis(url)
    conv = conversation(site)
    workers(
        env=worker_env(model, CELERY_BROKER_URL=url, REDIS_URL=url),
        args=["--concurrency", "1"],
    )
    enqueue(conv.pk, broker=url)
    core = wait_for(lambda: core_of(conv), what="the core", log=workers.log_text)
    assert core.source == Core.Source.MODEL
    assert core.covers_through_seq == 14 - 8
    assert "KU-2291-M" in json.dumps(core.data)
    assert [r for r in model.requests if not r.get("stream")], "the model was asked"


def test_the_embedded_filesystem_broker_works_as_manage_py_demo_starts_it(
    site, model, workers, tmp_path
):
    needs_postgres()
    broker_dir = tmp_path / "broker"
    env = worker_env(
        model,
        CELERY_BROKER_URL="filesystem://",
        CELERY_FILESYSTEM_BROKER_DIR=broker_dir,
        MEMORY_CONDENSE_LAGGING_INTERVAL_SECONDS=3600,
    )
    conv = conversation(site)
    # the same command line as chatwidget/management/commands/demo.py
    workers(
        env=env,
        args=[
            "-B",
            "--concurrency",
            "2",
            "--schedule",
            str(tmp_path / "celerybeat-schedule"),
        ],
    )
    # the worker's settings create the broker folders; the web process would too
    wait_for(lambda: (broker_dir / "out").is_dir(), what="the broker folders", log=workers.log_text)
    enqueue(
        conv.pk,
        broker="filesystem://",
        transport_options={
            "data_folder_in": str(broker_dir / "out"),
            "data_folder_out": str(broker_dir / "out"),
            "processed_folder": str(broker_dir / "processed"),
            "store_processed": False,
            "control_folder": str(broker_dir / "control"),
        },
    )
    core = wait_for(lambda: core_of(conv), what="the core", log=workers.log_text)
    assert core.covers_through_seq == 14 - 8
    assert "KU-2291-M" in json.dumps(core.data)


def test_a_worker_killed_mid_task_loses_no_turn_and_the_core_catches_up(site, model, workers):
    needs_postgres()
    url = needs_redis()
    flush_redis(url)
    conv = conversation(site)
    turns_before = list(Turn.objects.filter(conversation=conv).values_list("seq", "text"))
    model.script.append(Hang(120))  # the condensation call hangs: the task is mid-way
    env = worker_env(
        model,
        CELERY_BROKER_URL=url,
        REDIS_URL=url,
        CELERY_VISIBILITY_TIMEOUT=4,
        MEMORY_CONDENSE_LOCK_SECONDS=6,
    )
    first = workers(env=env, args=["--concurrency", "1"])
    enqueue(conv.pk, broker=url)
    wait_for(
        lambda: [r for r in model.requests if not r.get("stream")],
        what="the condensation call",
        log=workers.log_text,
    )
    first.kill()  # SIGKILL to the whole worker: no chance to clean up or acknowledge

    assert (
        list(Turn.objects.filter(conversation=conv).values_list("seq", "text")) == turns_before
    ), "no turn is lost"
    assert core_of(conv) is None, "no half-made core"
    conv.refresh_from_db()
    assert conv.core_version == 0

    time.sleep(5)  # past the visibility timeout: the unacknowledged task is due again
    workers(env=env, args=["--concurrency", "1"])
    core = wait_for(lambda: core_of(conv), what="the core after the restart", log=workers.log_text)
    assert core.version == 1 and core.covers_through_seq == 14 - 8
    assert "KU-2291-M" in json.dumps(core.data)
    assert len([r for r in model.requests if not r.get("stream")]) >= 2
    assert Turn.objects.filter(conversation=conv).count() == len(turns_before)
