"""Counts what the suite starts: with TEST_PROCESS_LOG=<file> every process the test process
starts (subprocess.Popen: Daphne, Celery workers, redis-server, `manage.py` commands, the
playwright driver), every fake model server and every Chromium launch is one line of that
file, "<kind> <test>". `sort | uniq -c` over the first column gives the counts a change of the
suite's fixtures is measured by (stable, unlike timings on a shared machine)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

LOG = os.environ.get("TEST_PROCESS_LOG", "")


def kind_of(args) -> str:
    """What a command line starts, in one word."""
    argv = [str(a) for a in (args if isinstance(args, (list, tuple)) else [args])]
    text = " ".join(argv)
    if "daphne" in argv:
        return "daphne"
    if "celery" in argv:
        return "celery-worker"
    if "redis-server" in text:
        return "redis-server"
    if "manage_server" in text:
        return "manage-server"
    if "manage.py" in text:
        after = argv[argv.index(next(a for a in argv if a.endswith("manage.py"))) + 1 :]
        return f"manage.py-{after[0] if after else '?'}"
    if "playwright" in text:
        return "playwright-driver"
    return "other:" + Path(argv[0]).name


def note(kind: str) -> None:
    """One line for one start (nothing unless TEST_PROCESS_LOG is set)."""
    if not LOG:
        return
    test = os.environ.get("PYTEST_CURRENT_TEST", "-").split(" ")[0]
    with open(LOG, "a", encoding="utf-8") as out:
        out.write(f"{kind} {test}\n")


def install() -> None:
    """Note every Popen of this process (subprocess.run goes through it too)."""
    if not LOG or getattr(subprocess.Popen, "_counted", False):
        return
    original = subprocess.Popen.__init__

    def counted(self, args, *rest, **kwargs):
        note(kind_of(args))
        original(self, args, *rest, **kwargs)

    subprocess.Popen.__init__ = counted
    subprocess.Popen._counted = True
