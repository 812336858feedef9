"""Where a server's CPU per message goes: py-spy attached during a load run, each sample put
in one category and one thread, the shares multiplied by the run's CPU per message.

py-spy samples only the thread that holds the GIL (`--gil`): Python's own work. Without it,
a thread waiting in C (psycopg for the database's reply, the selector) counted as active, and
those waits were a tenth of the product's samples, split over the categories as if they
were work. Each sample is named by its thread (`--threads`): the event loop (Daphne's main
thread: frames, the model's stream, the channel layer) or the database threads (each
message's turn and its stored answer), the two halves the product's cost is in.

A sample belongs to the innermost frame (leaf first) that matches a category, so the ORM's
own work is "ORM" even when our service called it, and a sample inside asyncio itself (the
selector, task stepping) is "event loop" even though every coroutine runs under it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.bench import harness
from tests.bench.harness import OUT

# (category, substrings of py-spy's "function (file:line)" frames); first match from the leaf.
CATEGORIES: list[tuple[str, tuple[str, ...]]] = [
    (
        "openai SDK objects (pydantic)",
        ("pydantic", "openai/_models.py", "openai/_compat.py", "openai/types/"),
    ),
    (
        "stream reading (httpx, httpcore, anyio, SSE)",
        ("httpx", "httpcore", "anyio", "h11/", "openai/_streaming.py", "sniffio"),
    ),
    ("openai SDK request building", ("openai/",)),
    ("tokens (tiktoken)", ("tiktoken",)),
    ("JSON", ("json/", "orjson")),
    ("logging", ("logging/", "pythonjsonlogger", "chatwidget/logging")),
    ("ORM and psycopg", ("django/db/", "psycopg")),
    ("cache and rate limits", ("django/core/cache", "django_redis", "chatwidget/ratelimit")),
    ("channel layer", ("channels_redis", "channels/layers.py", "redis/", "msgpack")),
    (
        "thread hops (asgiref, executors)",
        ("asgiref", "concurrent/futures", "threading.py", "channels/db.py"),
    ),
    (
        "frame writes (Channels, Daphne, autobahn, Twisted)",
        (
            "channels/generic",
            "channels/consumer.py",
            "channels/utils.py",
            "daphne/",
            "autobahn/",
            "twisted/",
            "txaio",
            "zope/",
        ),
    ),
    ("context build (memory)", ("memory/context.py", "memory/tokens.py", "memory/selectors.py")),
    (
        "our code (chatwidget, memory, handover)",
        ("chatwidget/", "memory/", "handover/", "bench/floor_app.py"),
    ),
    ("other Django", ("django/",)),
    ("event loop (asyncio)", ("asyncio/", "selectors.py")),
]
OTHER = "other"


LOOP, OTHER_THREADS = "event loop thread", "other threads"


def thread_of(frames: list[str]) -> tuple[str, list[str]]:
    """The sample's thread (py-spy's `--threads` puts it first) and its frames."""
    if frames and frames[0].startswith("thread ("):
        return (LOOP if frames[0].endswith(": MainThread") else OTHER_THREADS), frames[1:]
    return LOOP, frames


def category(frames: list[str]) -> str:
    for frame in reversed(frames):
        for name, needles in CATEGORIES:
            if any(n in frame for n in needles):
                return name
    return OTHER


def idle(frames: list[str]) -> bool:
    """The event loop waiting in epoll: py-spy counts it as active, but it burns no CPU."""
    return "select (selectors.py" in frames[-1]


def breakdown(raw_path: Path) -> dict:
    """Category -> share of the samples, and thread -> share (py-spy collapsed stacks of the
    thread holding the GIL; an epoll wait, should one be sampled, left out)."""
    counts: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    total = waiting = 0
    for line in open(raw_path):
        stack, _, count = line.rstrip().rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        thread, frames = thread_of(stack.split(";"))
        if not frames or idle(frames):
            waiting += n
            continue
        total += n
        counts[f"{category(frames)} ({'loop' if thread == LOOP else 'threads'})"] += n
        threads[thread] += n
    return {
        "samples": total,
        "epoll_wait_samples": waiting,
        "shares": {k: round(v / total, 4) for k, v in counts.most_common()} if total else {},
        "threads": {k: round(v / total, 4) for k, v in threads.most_common()} if total else {},
    }


def summary(raw_path: Path, limit: int = 45) -> str:
    """Inclusive and self sample counts per function from py-spy's collapsed stacks."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in open(raw_path):
        stack, _, count = line.rstrip().rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        _thread, frames = thread_of(stack.split(";"))
        if not frames or idle(frames):
            continue
        total += n
        for frame in set(frames):
            inclusive[frame] += n
        own[frames[-1]] += n
    lines = [f"{total} samples (CPU only)", "", "inclusive:"]
    lines += [f"{100 * c / max(1, total):6.1f}%  {f}" for f, c in inclusive.most_common(limit)]
    lines += ["", "self:"]
    lines += [f"{100 * c / max(1, total):6.1f}%  {f}" for f, c in own.most_common(limit)]
    return "\n".join(lines) + "\n"


def profile_run(
    procs: harness.Procs, server: harness.Server, ws_url: str, n: int, run_load, *, duration: float
) -> dict:
    """py-spy (100 Hz, non-blocking, the GIL's holder only) on `server` during `run_load()`,
    a load run at `n` conversations that returns its row. Returns the row, the shares and the
    CPU per message split by category."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        return {"server": server.name, "skipped": "py-spy not installed (pip install py-spy)"}
    raw = OUT / f"profile-{server.name}-{n}.txt"
    raw.unlink(missing_ok=True)
    seconds = int(max(2.0, n / 100) + 5.0 + duration + 5)
    recorder = procs.popen(
        [
            spy,
            "record",
            "--pid",
            str(server.pid),
            "--duration",
            str(seconds),
            "--rate",
            "100",
            "--nonblocking",
            "--gil",
            "--threads",
            "--format",
            "raw",
            "--output",
            str(raw),
        ],
        env=dict(os.environ),
        log_path=OUT / "py-spy.log",
    )
    row = run_load()
    try:
        recorder.wait(seconds + 30)
    except subprocess.TimeoutExpired:
        pass
    procs.stop(recorder)
    if not raw.exists():
        return {"server": server.name, "skipped": "py-spy wrote nothing (see out/py-spy.log)"}
    (OUT / f"profile-{server.name}-{n}-top.txt").write_text(summary(raw))
    split = breakdown(raw)
    per_msg = row.get("cpu_ms_per_msg") or 0.0
    return {
        "server": server.name,
        "conversations": n,
        "samples": split["samples"],
        "cpu_ms_per_msg": row.get("cpu_ms_per_msg"),
        "shares": split["shares"],
        "ms_per_msg": {k: round(v * per_msg, 2) for k, v in split["shares"].items()},
        "threads_ms_per_msg": {k: round(v * per_msg, 2) for k, v in split["threads"].items()},
        "row": {k: v for k, v in row.items() if k != "overhead_ms"},
    }


def markdown(profiles: list[dict]) -> list[str]:
    done = [p for p in profiles if not p.get("skipped")]
    out = ["## 8. Where the CPU per message goes (py-spy)", ""]
    out += [f"- {p['server']}: not profiled ({p['skipped']})" for p in profiles if p.get("skipped")]
    if not done:
        return out + [""]
    out += [
        f"py-spy at 100 Hz on the server during a load run of {done[0]['conversations']} "
        "conversations, sampling the thread that holds the GIL; each sample goes to the "
        "innermost frame that matches a category, and to its thread (the event loop, or the "
        "database and other threads); ms = share × that run's CPU per message.",
        "",
    ]
    for p in done:
        split = ", ".join(f"{k} {v:.2f}" for k, v in p.get("threads_ms_per_msg", {}).items())
        out.append(f"- {p['server']}: {split} ms per message")
    out.append("")
    names = list(dict.fromkeys(k for p in done for k in p["shares"]))
    head = (
        ["category"]
        + [f"{p['server']} ms/msg" for p in done]
        + [f"{p['server']} share" for p in done]
    )
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        cells = [f"{p['ms_per_msg'].get(name, 0.0):.2f}" for p in done]
        cells += [f"{100 * p['shares'].get(name, 0.0):.1f}%" for p in done]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    cells = [f"**{p['cpu_ms_per_msg']}**" for p in done] + [f"{p['samples']} samples" for p in done]
    out.append("| **CPU per message** | " + " | ".join(cells) + " |")
    return out + [""]
