"""How the server process starts (chatwidget.asgi, issue 30), checked in a fresh interpreter
as Daphne loads the module: its start-up objects are hidden from the cyclic collector (a
full collection then walks only what the conversations made since, instead of a pause of
100-200 ms for every open socket), and libraries few processes use (the model's SDK, OCR,
PDF, web push) load on first use, not in every process that sets Django up (issue 24); the
server loads the model's SDK at start when it answers with a model."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PROBE = """
import gc, json, sys, time
import django
django.setup()
from chatwidget.celery import app
app.loader.import_default_modules()
loaded_at_setup = [m for m in ("openai", "pytesseract", "pypdf", "pywebpush") if m in sys.modules]
from django.conf import settings
settings.OPENAI_API_KEY = "sk-probe"  # a server that answers with a model
before = gc.get_stats()
import chatwidget.asgi
during = [a["collections"] - b["collections"] for a, b in zip(gc.get_stats(), before)]
started = time.perf_counter()
gc.collect()
print(json.dumps({"frozen": gc.get_freeze_count(), "tracked": len(gc.get_objects()),
                  "full_ms": (time.perf_counter() - started) * 1000,
                  "loaded_at_setup": loaded_at_setup, "sdk_after_asgi": "openai" in sys.modules,
                  "collections_during": during, "collecting": gc.isenabled()}))
"""


def _probe(script: str, **env: str):
    """Run `script` in a fresh interpreter (as Daphne starts) and read the JSON it prints last."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def seen():
    return _probe(PROBE, DJANGO_SETTINGS_MODULE="chatwidget.settings.test")


def test_start_up_objects_are_out_of_the_collectors_view(seen):
    assert seen["frozen"] > 100_000, "Django, the apps and the tokenizer are frozen"
    assert seen["tracked"] < seen["frozen"] // 20, "a full collection walks few objects"


def test_libraries_few_processes_use_load_on_first_use(seen):
    """The model's SDK, OCR, PDF and web push: about 0.6 s of CPU at every start before."""
    assert seen["loaded_at_setup"] == [], "django.setup() and the worker's tasks skip them"
    assert seen["sdk_after_asgi"], "the server loads the SDK before the first turn, with a key"


def test_the_collector_waits_for_the_start_up_to_end(seen):
    """Off while the start-up's objects are made (the module's own imports, the SDK, the
    tokenizer), one full collection before they are frozen, and on again after."""
    assert seen["collections_during"] == [0, 0, 1], seen["collections_during"]
    assert seen["collecting"]


BACKENDS = """
import gc, json
import chatwidget.asgi
from channels.layers import get_channel_layer
from django.core.cache import caches
made = [caches["default"].client, get_channel_layer()]  # as the first turn makes them
seen = {id(o) for o in gc.get_objects()}  # the frozen are not among them
print(json.dumps({type(b).__module__: id(type(b)) not in seen for b in made}))
"""


def test_the_cache_and_channel_layer_backends_load_before_the_freeze():
    """As deployed (django_redis, channels_redis), their classes and modules are among the
    frozen: loaded on first use, some 280 functions stayed in the collector's view. Neither
    backend connects before it is used (the Redis URL is never reached here)."""
    frozen = _probe(
        BACKENDS,
        DJANGO_SETTINGS_MODULE="chatwidget.settings.local",
        REDIS_URL="redis://127.0.0.1:6379/15",
    )
    assert frozen == {"django_redis.client.default": True, "channels_redis.pubsub": True}
