"""Work per turn, counted (not timed): what one visitor message costs the server.

Timings on a shared 2-core machine are noisy; counts are not. This runs the real consumer
in-process (channels' WebsocketCommunicator, the real openai client against the fake model
over HTTP, the bench database) and counts, per turn and per phase:

- SQL statements (each one round trip), transactions committed (each adds BEGIN + COMMIT
  round trips), thread hops (`database_sync_to_async` calls, and the `close_old_connections`
  hop Channels' dispatch makes before every handler), calls back into the event
  loop from that thread (`async_to_sync`), cache operations, channel-layer calls and log
  records.

Phases: `to ack` (message sent -> ack received), `ack to model` (-> the request reaches the
model: the part of the overhead after the ack), `after` (the streamed answer is stored).
The instrumentation wraps functions in this process only; the product code is unchanged.

    python -m tests.bench.work --turns 20 --out /tmp/work.json   (env: the bench's)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections import Counter

# before the model request, from the request to the ack (what the model's thinking hides:
# the commit, since issue 30), and the rest (the stream, the stored answer)
PHASES = ("before_model", "model_to_ack", "after")


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[float, str]] = []
        self.statements: list[tuple[float, str]] = []
        self.logs: list[tuple[float, str]] = []
        self.calls: list[tuple[float, str]] = []  # cache and channel-layer calls, named
        self.hop_cpu: list[tuple[float, float]] = []  # (end, CPU ms of one database-thread hop)
        self.on = False
        self.profiler = None

    def hit(self, kind: str, call: str = "") -> None:
        if self.on:
            self.events.append((time.perf_counter(), kind))
            if call:
                self.calls.append((time.perf_counter(), call))


def instrument(rec: Recorder) -> None:
    """Wrap the functions whose calls we count (this process only)."""
    import channels.db
    from asgiref import sync
    from channels.layers import get_channel_layer
    from django.core.cache import caches
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.signals import connection_created

    def sql_wrapper(execute, sql, params, many, context):
        rec.hit("sql")
        if rec.on:
            rec.statements.append((time.perf_counter(), " ".join(sql.split())[:200]))
        return execute(sql, params, many, context)

    def on_connect(sender, connection, **kwargs):
        if sql_wrapper not in connection.execute_wrappers:
            connection.execute_wrappers.append(sql_wrapper)

    connection_created.connect(on_connect, weak=False)
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        on_connect(None, conn)

    original_commit = BaseDatabaseWrapper._commit

    def _commit(self):
        rec.hit("commit")
        return original_commit(self)

    BaseDatabaseWrapper._commit = _commit

    original_handler = channels.db.DatabaseSyncToAsync.thread_handler

    def thread_handler(self, loop, *args, **kwargs):
        rec.hit("hop", "hop starts")
        cpu0 = time.thread_time()
        try:
            if rec.on and rec.profiler is not None:  # WORK_CPROFILE: the database thread's hops
                return rec.profiler.runcall(original_handler, self, loop, *args, **kwargs)
            return original_handler(self, loop, *args, **kwargs)
        finally:
            if rec.on:
                rec.hop_cpu.append((time.perf_counter(), 1000 * (time.thread_time() - cpu0)))
                rec.calls.append((time.perf_counter(), "hop ends"))

    channels.db.DatabaseSyncToAsync.thread_handler = thread_handler

    # Channels' dispatch hops to a thread for close_old_connections before every handler
    # (each incoming frame, each channel-layer event): a thread hop like the others
    import channels.consumer

    original_close = channels.consumer.aclose_old_connections

    async def aclose_old_connections():
        rec.hit("hop")
        return await original_close()

    channels.consumer.aclose_old_connections = aclose_old_connections

    original_a2s = sync.AsyncToSync.__call__

    def a2s_call(self, *args, **kwargs):
        rec.hit("loop_call")
        return original_a2s(self, *args, **kwargs)

    sync.AsyncToSync.__call__ = a2s_call

    cache_cls = type(caches["default"])
    for name in (
        "add",
        "get",
        "set",
        "incr",
        "delete",
        "get_many",
        "set_many",
        "delete_many",
        "touch",
        "has_key",
    ):
        if name in vars(cache_cls) or hasattr(cache_cls, name):
            original = getattr(cache_cls, name)

            def wrapped(self, *a, _orig=original, _name=name, **k):
                rec.hit("cache", f"cache.{_name} {str(a[0])[:60] if a else ''}")
                return _orig(self, *a, **k)

            setattr(cache_cls, name, wrapped)

    layer = get_channel_layer()
    for name in ("group_send", "group_add", "group_discard", "send"):
        original = getattr(layer, name)

        async def wrapped_async(*a, _orig=original, _name=name, **k):
            rec.hit("layer", f"layer.{_name} {str(a[0])[:60] if a else ''}")
            return await _orig(*a, **k)

        setattr(layer, name, wrapped_async)


def instrument_logging(rec: Recorder) -> None:
    """After the ASGI app is imported: its django.setup() re-applies LOGGING."""
    import logging

    class Count(logging.Handler):
        def emit(self, record):
            rec.hit("log")
            if rec.on:
                rec.logs.append((time.perf_counter(), f"{record.name}: {record.msg}"))

    logging.getLogger().addHandler(Count())


async def run(
    rec: Recorder, turns: int, warmup: int, site_key: str, model_seen: list[float]
) -> list[dict]:
    from channels.testing import WebsocketCommunicator

    from chatwidget.asgi import application

    instrument_logging(rec)
    comm = WebsocketCommunicator(
        application, f"/ws/chat/{site_key}/", headers=[(b"origin", b"http://bench.local")]
    )
    comm.scope["client"] = ("10.9.9.9", 4000)
    connected, _ = await comm.connect()
    assert connected
    await comm.send_to(text_data=json.dumps({"type": "hello", "session": None, "last_seq": None}))
    json.loads(await comm.receive_from(timeout=10))
    marks = []
    for n in range(warmup + turns):
        model_seen.clear()
        cpu0 = time.process_time()
        sent = time.perf_counter()
        await comm.send_to(
            text_data=json.dumps(
                {
                    "type": "message",
                    "id": f"w{n}",
                    "text": f"Is the kurta KU-2291-M in size L ({n})?",
                }
            )
        )
        ack = first = None
        while True:
            frame = json.loads(await comm.receive_from(timeout=30))
            at = time.perf_counter()
            if frame["type"] == "ack":
                ack = at
            elif frame["type"] == "delta" and first is None:
                first = at
            elif frame["type"] == "message" and frame.get("role") == "assistant":
                break
            elif frame["type"] == "error":
                raise RuntimeError(f"error frame: {frame}")
        await asyncio.sleep(0.3)  # let after-commit work and logging settle
        cpu = time.process_time() - cpu0
        if n >= warmup:
            marks.append(
                {
                    "sent": sent,
                    "ack": ack,
                    "model": model_seen[0] if model_seen else first,
                    "first": first,
                    "end": time.perf_counter(),
                    "ack_ms": (ack - sent) * 1000,
                    "first_ms": (first - sent) * 1000,
                    "cpu_ms": cpu * 1000,
                }
            )
    await comm.disconnect()
    return marks


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--site-key", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    import django

    django.setup()
    from django.conf import settings

    settings.DEMO_MODE = False
    rec = Recorder()
    instrument(rec)

    # the moment the model request leaves: wrap the openai client's stream call
    from chatwidget.platform import llm

    model_seen: list[float] = []
    original_stream = llm.stream_reply

    async def stream_reply(**kwargs):
        model_seen.append(time.perf_counter())
        async for event in original_stream(**kwargs):
            yield event

    llm.stream_reply = stream_reply

    async def go():
        rec.on = True
        return await run(rec, args.turns, args.warmup, args.site_key, model_seen)

    profile_to = os.environ.get("WORK_CPROFILE")  # a path: the database hops under cProfile
    if profile_to:
        import cProfile

        rec.profiler = cProfile.Profile()
    marks = asyncio.run(go())
    if profile_to:
        rec.profiler.dump_stats(profile_to)
    rec.on = False
    per_turn: dict[str, dict[str, list[int]]] = {p: {} for p in PHASES}
    kinds = sorted({k for _, k in rec.events})
    hop_cpu: dict[str, list[float]] = {p: [] for p in PHASES}
    for m in marks:
        spent = dict.fromkeys(PHASES, 0.0)
        for at, ms in rec.hop_cpu:
            if m["sent"] <= at < m["model"]:
                spent["before_model"] += ms
            elif m["model"] <= at < max(m["ack"], m["model"]):
                spent["model_to_ack"] += ms
            elif m["sent"] <= at < m["end"]:
                spent["after"] += ms
        for p in PHASES:
            hop_cpu[p].append(spent[p])
        counts = {p: Counter() for p in PHASES}
        for at, kind in rec.events:
            if m["sent"] <= at < m["model"]:
                counts["before_model"][kind] += 1
            elif m["model"] <= at < max(m["ack"], m["model"]):
                counts["model_to_ack"][kind] += 1
            elif m["sent"] <= at < m["end"]:  # not the turns before this one
                counts["after"][kind] += 1
        for p in PHASES:
            for k in kinds:
                per_turn[p].setdefault(k, []).append(counts[p][k])
    result = {
        "turns": len(marks),
        "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
        "cache": type(
            __import__("django.core.cache", fromlist=["cache"]).caches["default"]
        ).__name__,
        "per_turn": {p: {k: statistics.median(v) for k, v in per_turn[p].items()} for p in PHASES},
        "ack_ms_p50": round(statistics.median(m["ack_ms"] for m in marks), 2),
        # the model request against the ack: negative when the request starts before the
        # ack (issue 30: while the turn commits)
        "ack_to_model_ms_p50": round(
            statistics.median((m["model"] - m["ack"]) * 1000 for m in marks), 2
        ),
        "sent_to_model_ms_p50": round(
            statistics.median((m["model"] - m["sent"]) * 1000 for m in marks), 2
        ),
        "model_to_first_ms_p50": round(
            statistics.median((m["first"] - m["model"]) * 1000 for m in marks), 2
        ),
        "first_ms_p50": round(statistics.median(m["first_ms"] for m in marks), 2),
        # CPU of this process (server and test client) per turn: one conversation, no load;
        # the steadiest figure on a shared machine to compare two versions of the code
        "cpu_ms_p50": round(statistics.median(m["cpu_ms"] for m in marks), 2),
        # CPU of the database thread's hops per turn, by phase (time.thread_time: this
        # thread's own CPU, so other processes on the machine do not count)
        "db_thread_cpu_ms_p50": {
            p: round(statistics.median(v), 3) for p, v in hop_cpu.items() if v
        },
        "model_first_token_ms": float(os.environ.get("BENCH_MODEL_MS", "300")),
    }
    # the statements of the last turn, by phase: what the counts above are made of
    last = marks[-1]
    split = max(last["ack"], last["model"])
    bounds = {
        "before_model": (last["sent"], last["model"]),
        "model_to_ack": (last["model"], split),
        "after": (split, last["end"]),
    }
    result["statements_last_turn"] = {
        p: [sql for at, sql in rec.statements if lo <= at < hi] for p, (lo, hi) in bounds.items()
    }
    result["logs_last_turn"] = {
        p: [msg for at, msg in rec.logs if lo <= at < hi] for p, (lo, hi) in bounds.items()
    }
    result["calls_last_turn"] = {
        p: [call for at, call in rec.calls if lo <= at < hi] for p, (lo, hi) in bounds.items()
    }
    result["before_model"] = dict(result["per_turn"]["before_model"])
    # where the wall time before the model request goes: every statement, cache and
    # channel-layer call, thread hop and log record of the turn with the median wait for the
    # model request, in ms after its message was sent
    typical = sorted(marks, key=lambda m: m["model"] - m["sent"])[len(marks) // 2]
    lo, hi = typical["sent"], typical["model"]
    named = [(at, f"sql {sql[:70]}") for at, sql in rec.statements]
    named += rec.calls + [(at, f"log {msg}") for at, msg in rec.logs]
    result["timeline_before_model"] = [
        [round((at - lo) * 1000, 2), what] for at, what in sorted(named) if lo <= at <= hi
    ] + [[round((hi - lo) * 1000, 2), "model request"]]
    with open(args.out, "w") as fh:
        json.dump(result, fh, indent=1)


if __name__ == "__main__":
    main()
