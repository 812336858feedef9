"""Where the test suite's CPU goes (issue 24): runs the suite (or any command) while reading
/proc four times a second, then prints the CPU time of every process that ran, summed by
kind (the pytest processes, Chromium by process type, Daphne, Celery, PostgreSQL, ...), and
the machine's busy cores in 10-second steps.

    python -m tests.bench.suite_cpu                 # `make test`'s pytest run, 4 processes
    python -m tests.bench.suite_cpu -- pytest -q -p no:xdist tests/e2e

It runs pytest as given, not through `make test`: export what the Makefile exports first
(TEST_DATABASE_URL, TEST_REDIS_URL; TIKTOKEN_CACHE_DIR), or the suite runs on SQLite and its
PostgreSQL and Redis tests skip, and the figures describe a different run.

`time` cannot say this: Chromium, Daphne and the workers are not all waited for by the
process that started them, so their CPU never reaches its rusage. A process that lives less
than a sample's interval is missed; PostgreSQL's backends are counted, Redis's server too.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TICK = os.sysconf("SC_CLK_TCK")
DEFAULT = [sys.executable, "-m", "pytest", "-q", "-n", "4"]


def kind(cmdline: str) -> str:
    if "chromium" in cmdline:
        types = [a for a in cmdline.split() if a.startswith("--type=")]
        return "chromium " + (types[0][7:] if types else "browser")
    for word, name in (
        ("pytest", "pytest processes"),
        ("exec(eval(sys.stdin", "pytest processes"),  # pytest-xdist's workers (execnet)
        ("daphne", "Daphne"),
        ("celery", "Celery worker"),
        ("postgres", "PostgreSQL"),
        ("redis-server", "Redis"),
        ("manage.py", "manage.py commands"),
        ("manage_server", "e2e manage server"),
        ("playwright", "playwright driver"),
        ("tesseract", "tesseract"),
    ):
        if word in cmdline:
            return name
    return "other: " + Path(cmdline.split(" ", 1)[0]).name


def _cpu(pid: str) -> float | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Sampler(threading.Thread):
    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.seen: dict[str, tuple[float, float, str, int]] = {}  # pid -> first, last, kind, n
        self.busy: list[tuple[float, float]] = []  # (seconds since start, busy cores)
        self.stop = threading.Event()

    def run(self) -> None:
        began = time.monotonic()
        previous = _machine()
        while not self.stop.wait(0.25):
            for pid in filter(str.isdigit, os.listdir("/proc")):
                cpu = _cpu(pid)
                if cpu is None:
                    continue
                first, _, name, sightings = self.seen.get(pid, (cpu, cpu, "", 0))
                if sightings < 4:  # a child seen between its fork and its exec shows its parent
                    try:
                        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
                    except OSError:
                        continue
                    name = kind(raw.replace(b"\0", b" ").decode(errors="replace"))
                    if pid == str(os.getpid()):
                        name = "this measurement"
                self.seen[pid] = (first, cpu, name, sightings + 1)
            now = _machine()
            total, idle = now[0] - previous[0], now[1] - previous[1]
            if total:
                self.busy.append((time.monotonic() - began, os.cpu_count() * (1 - idle / total)))
            previous = now

    def by_kind(self, started: set[str]) -> Counter:
        """CPU by kind: a process that was there before the run counts only what it spent
        during it; one started meanwhile counts all of it."""
        spent: Counter = Counter()
        for pid, (first, last, name, _) in self.seen.items():
            spent[name] += last - first if pid in started else last
        return spent


def _machine() -> tuple[int, int]:
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(values), values[3] + values[4]  # all, idle + iowait


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="*", help="after --; default: " + " ".join(DEFAULT[1:]))
    args = parser.parse_args()
    before = {pid for pid in os.listdir("/proc") if pid.isdigit()}
    sampler = Sampler()
    sampler.start()
    began = time.monotonic()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
    code = subprocess.call(args.command or DEFAULT, cwd=ROOT, env=env)
    wall = time.monotonic() - began
    sampler.stop.set()
    sampler.join()
    spent = sampler.by_kind(before)
    total = sum(spent.values())
    print(f"\nwall {wall:.1f} s, CPU {total:.1f} s ({total / wall:.2f} cores of {os.cpu_count()})")
    for name, seconds in spent.most_common(20):
        print(f"{seconds:8.1f} s  {100 * seconds / total:5.1f}%  {name}")
    print("\nbusy cores, 10-second steps:")
    steps: dict[int, list[float]] = {}
    for at, cores in sampler.busy:
        steps.setdefault(int(at // 10), []).append(cores)
    print(" ".join(f"{sum(v) / len(v):.1f}" for _, v in sorted(steps.items())))
    sys.exit(code)


if __name__ == "__main__":
    main()
