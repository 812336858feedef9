"""The server process hides its start-up objects from the cyclic collector (chatwidget.asgi,
issue 30): a full collection then walks only what the conversations made since, instead of
a pause of 100-200 ms for every open socket. Checked in a fresh interpreter, as Daphne
loads the module."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PROBE = """
import gc, json, time
import chatwidget.asgi
started = time.perf_counter()
gc.collect()
print(json.dumps({"frozen": gc.get_freeze_count(), "tracked": len(gc.get_objects()),
                  "full_ms": (time.perf_counter() - started) * 1000}))
"""


def test_start_up_objects_are_out_of_the_collectors_view():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "chatwidget.settings.test"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["frozen"] > 100_000, "Django, the apps and the tokenizer are frozen"
    assert seen["tracked"] < seen["frozen"] // 20, "a full collection walks few objects"
