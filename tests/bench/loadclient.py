"""The asyncio websocket load client (runs as its own process, so its CPU is visible).

Two modes:

- `active`: N conversations, each its own websocket and session, each sending a message about
  every `--interval` seconds (random phase). Per message it records, relative to the send:
  the ack, the first `delta` and the complete assistant `message`. Only messages sent inside
  the measurement window count. Writes JSON to `--out`.
- `idle`: driven over stdin for the memory benchmark: `open N` (open connections until N are
  open, each greeted with hello/welcome), `close` (close them all), `quit`. Answers each
  command with one line `ok open=<n> failed=<n>`.

    python -m tests.bench.loadclient active --url ws://127.0.0.1:8000/ws/chat/KEY/ \
        --conversations 200 --interval 5 --duration 30 --out /tmp/r.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import sys
import time
from collections import Counter

from websockets.asyncio.client import connect

ORIGIN = "http://bench.local"
TEXTS = [
    "Do you have the mint cotton kurta KU-2291-M in size L? It is for the office.",
    "My order 55-1031 arrived yesterday, can I still return the blue one?",
    "Which of your linen shirts would go with grey trousers for a summer wedding?",
    "How long does delivery to Hamburg take if I order today before noon?",
    "Is the oak side table available in a lighter finish, and what does it cost?",
]


def _raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else min(65536, hard)
    if soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            pass


async def _open(url: str, sem: asyncio.Semaphore, timeout: float):
    async with sem:
        ws = await connect(
            url,
            origin=ORIGIN,
            open_timeout=timeout,
            ping_interval=None,
            close_timeout=2,
            max_size=2**20,
        )
        await ws.send(json.dumps({"type": "hello", "session": None, "last_seq": None}))
        async with asyncio.timeout(timeout):
            while True:
                frame = json.loads(await ws.recv())
                if frame.get("type") == "welcome":
                    return ws
                if frame.get("type") == "error":
                    await ws.close()
                    raise RuntimeError(f"error frame on hello: {frame.get('code')}")


# --- active ---------------------------------------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.first: list[float] = []
        self.ack: list[float] = []
        self.total: list[float] = []
        self.errors: Counter[str] = Counter()
        self.sent = 0
        self.skipped_slots = 0
        self.connect_failed = 0
        self.connected = 0
        self.answered = 0  # answers completed inside the measurement window
        self.frames: list[int] = []  # frames per answer (ack, deltas, message), in the window


async def _conversation(
    i: int,
    args,
    stats: Stats,
    sem: asyncio.Semaphore,
    t0: float,
    measure_from: float,
    measure_to: float,
) -> None:
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, t0 + args.ramp * i / max(args.conversations, 1) - loop.time()))
    try:
        # several servers (comma-separated): conversation i goes to server i mod k
        urls = args.url.split(",")
        ws = await _open(urls[i % len(urls)], sem, args.timeout)
    except Exception as exc:  # counted, the run goes on
        stats.connect_failed += 1
        stats.errors[f"connect:{type(exc).__name__}"] += 1
        return
    stats.connected += 1
    rng = random.Random(i)
    try:
        next_at = t0 + args.ramp + rng.uniform(0, args.interval)
        n = 0
        while True:
            now = loop.time()
            if next_at >= measure_to:
                break
            if next_at > now:
                await asyncio.sleep(next_at - now)
            n += 1
            cid = f"c{i}-{n}"
            text = f"{TEXTS[(i + n) % len(TEXTS)]} ({n})"
            counted = measure_from <= next_at < measure_to
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "message", "id": cid, "text": text}))
            stats.sent += 1
            ack_at = first_at = None
            frames = 0
            try:
                async with asyncio.timeout(args.timeout):
                    while True:
                        raw = await ws.recv()
                        at = time.perf_counter()
                        frame = json.loads(raw)
                        kind = frame.get("type")
                        frames += 1
                        if kind == "ack" and frame.get("id") == cid:
                            ack_at = at
                        elif kind == "delta" and first_at is None:
                            first_at = at
                        elif kind == "message" and frame.get("role") == "assistant":
                            if measure_from <= loop.time() < measure_to:
                                stats.answered += 1
                                stats.frames.append(frames)
                            break
                        elif kind == "error":
                            stats.errors[str(frame.get("code"))] += 1
                            if frame.get("id") in (cid, None):
                                break
            except TimeoutError:
                stats.errors["timeout"] += 1
                if counted:  # censored: counted at the timeout, so percentiles do not flatter
                    stats.first.append(
                        round((first_at or sent_at + args.timeout) * 1000 - sent_at * 1000, 3)
                    )
                    stats.ack.append(
                        round((ack_at or sent_at + args.timeout) * 1000 - sent_at * 1000, 3)
                    )
                    stats.total.append(round(args.timeout * 1000, 3))
                break
            if counted and first_at is not None and ack_at is not None:
                stats.first.append(round((first_at - sent_at) * 1000, 3))
                stats.ack.append(round((ack_at - sent_at) * 1000, 3))
                stats.total.append(round((time.perf_counter() - sent_at) * 1000, 3))
            next_at += args.interval
            while next_at < loop.time():  # the answer took longer than a slot: skip it
                next_at += args.interval
                stats.skipped_slots += 1
    except Exception as exc:
        stats.errors[f"conn:{type(exc).__name__}"] += 1
    finally:
        try:
            await ws.close()
        except Exception:
            pass


async def _lag_monitor(samples: list[float], stop: asyncio.Event, period: float = 0.05) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(period)
        samples.append(round((loop.time() - start - period) * 1000, 3))


def _cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


async def _window_cpu(pids: list[int], measure_from: float, measure_to: float) -> float | None:
    """The servers' CPU seconds inside the measurement window (steady state: no connects, no
    first messages), read from /proc by this process (same machine)."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, measure_from - loop.time()))
    start = _cpu_seconds(pids)
    await asyncio.sleep(max(0.0, measure_to - loop.time()))
    return round(_cpu_seconds(pids) - start, 3)


async def active(args) -> dict:
    loop = asyncio.get_running_loop()
    stats = Stats()
    sem = asyncio.Semaphore(args.connect_concurrency)
    t0 = loop.time() + 0.2
    measure_from = t0 + args.ramp + args.warmup
    measure_to = measure_from + args.duration
    lag: list[float] = []
    stop = asyncio.Event()
    monitor = asyncio.create_task(_lag_monitor(lag, stop))
    pids = [int(p) for p in args.cpu_pids.split(",") if p]
    window = asyncio.create_task(_window_cpu(pids, measure_from, measure_to)) if pids else None
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    tasks = [
        asyncio.create_task(_conversation(i, args, stats, sem, t0, measure_from, measure_to))
        for i in range(args.conversations)
    ]
    await asyncio.wait(tasks, timeout=args.ramp + args.warmup + args.duration + args.timeout + 30)
    for task in tasks:
        task.cancel()
    stop.set()
    await monitor
    window_cpu = await window if window is not None else None
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    return {
        "conversations": args.conversations,
        "interval_s": args.interval,
        "duration_s": args.duration,
        "connected": stats.connected,
        "connect_failed": stats.connect_failed,
        "sent": stats.sent,
        "answered": stats.answered,
        "window_s": args.duration,
        "server_window_cpu_s": window_cpu,
        "skipped_slots": stats.skipped_slots,
        "errors": dict(stats.errors),
        "first_ms": stats.first,
        "ack_ms": stats.ack,
        "total_ms": stats.total,
        "frames": stats.frames,
        "client_lag_ms": lag,
        "client_cpu_s": round(cpu, 3),
    }


# --- idle -----------------------------------------------------------------------------------------


async def idle(args) -> None:
    loop = asyncio.get_running_loop()
    sem = asyncio.Semaphore(args.connect_concurrency)
    conns: list = []
    failed = 0

    async def one() -> None:
        nonlocal failed
        try:
            conns.append(await _open(args.url, sem, args.timeout))
        except Exception:
            failed += 1

    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        if not line or line == "quit":
            break
        cmd, _, arg = line.partition(" ")
        if cmd == "open":
            want = int(arg)
            await asyncio.gather(*(one() for _ in range(max(0, want - len(conns)))))
        elif cmd == "close":
            closing, conns[:] = list(conns), []
            await asyncio.gather(*(ws.close() for ws in closing), return_exceptions=True)
        print(f"ok open={len(conns)} failed={failed}", flush=True)
    await asyncio.gather(*(ws.close() for ws in conns), return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=["active", "idle"])
    parser.add_argument("--url", required=True, help="one, or several comma-separated")
    parser.add_argument("--conversations", type=int, default=1)
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--ramp", type=float, default=3.0, help="seconds to open all sockets")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument(
        "--timeout",
        type=float,
        default=20.0,
        help="per message; a message without an answer by then is counted "
        "at this value and ends its conversation",
    )
    parser.add_argument("--connect-concurrency", type=int, default=100)
    parser.add_argument(
        "--cpu-pids", default="", help="server pids whose CPU time inside the window is reported"
    )
    parser.add_argument("--out")
    args = parser.parse_args()
    _raise_nofile()
    if args.mode == "idle":
        asyncio.run(idle(args))
        return
    result = asyncio.run(active(args))
    with open(args.out, "w") as fh:
        json.dump(result, fh)


if __name__ == "__main__":
    main()
