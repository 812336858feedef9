"""Memory per idle websocket connection: VmRSS of a server at N open, greeted connections,
and open/close cycles that show whether memory comes back (see README, figure 3)."""

from __future__ import annotations

import os
import select
import subprocess
import time

import numpy as np

from tests.bench import harness
from tests.bench.harness import PY, Procs


def log(msg: str) -> None:
    print(msg, flush=True)
    with open(harness.OUT / "run.log", "a") as fh:
        fh.write(msg + "\n")


def _idle_cmd(proc: subprocess.Popen, line: str, timeout: float) -> str:
    proc.stdin.write((line + "\n").encode())
    proc.stdin.flush()
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        raise TimeoutError(f"idle client did not answer {line!r} within {timeout}s")
    return proc.stdout.readline().decode().strip()


def memory_profile(
    procs: Procs, server: harness.Server, ws_url: str, cfg: dict, cycles: bool
) -> dict:
    client = procs.popen(
        [PY, "-m", "tests.bench.loadclient", "idle", "--url", ws_url, "--timeout", "60"],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        _idle_cmd(client, "open 100", 120)  # warm-up: imports, pools, first allocations
        _idle_cmd(client, "close", 60)
        time.sleep(3)
        base = harness.rss_kib(server.pid)
        points = [{"connections": 0, "rss_kib": base}]
        for n in cfg["memory_points"]:
            answer = _idle_cmd(client, f"open {n}", 300)
            time.sleep(3)
            points.append(
                {"connections": n, "rss_kib": harness.rss_kib(server.pid), "client": answer}
            )
            log(f"  {server.name}: {answer}: RSS {points[-1]['rss_kib']} KiB")
        xs = np.array([p["connections"] for p in points[1:]], dtype=float)
        ys = np.array([p["rss_kib"] for p in points[1:]], dtype=float)
        slope, intercept = np.polyfit(xs, ys, 1)
        _idle_cmd(client, "close", 120)
        time.sleep(5)
        after_close = harness.rss_kib(server.pid)
        log(f"  {server.name}: closed all: RSS {after_close} KiB")
        cycle_rows = []
        if cycles:
            for i in range(cfg["memory_cycles"]):
                answer = _idle_cmd(client, f"open {cfg['memory_cycle_n']}", 300)
                time.sleep(2)
                peak = harness.rss_kib(server.pid)
                _idle_cmd(client, "close", 120)
                time.sleep(5)
                closed = harness.rss_kib(server.pid)
                cycle_rows.append(
                    {"cycle": i + 1, "open": answer, "rss_open_kib": peak, "rss_closed_kib": closed}
                )
                log(f"  cycle {i + 1}: open {peak} KiB, closed {closed} KiB")
        _idle_cmd(client, "quit", 30)
    finally:
        procs.stop(client)
    peak_n = cfg["memory_points"][-1]
    peak_rss = points[-1]["rss_kib"]
    result = {
        "server": server.name,
        "points": points,
        "slope_kib_per_connection": round(float(slope), 2),
        "intercept_kib": round(float(intercept)),
        "rss_after_close_kib": after_close,
        "returned_after_close_pct": round(
            100 * (peak_rss - after_close) / max(1, peak_rss - base), 1
        ),
        "cycles": cycle_rows,
        "cycle_connections": cfg["memory_cycle_n"],
        "peak_connections": peak_n,
    }
    if cycle_rows:
        closes = [c["rss_closed_kib"] for c in cycle_rows]
        # growth per cycle of the RSS left after closing: a leak shows as steady growth
        result["growth_per_cycle_kib"] = (
            round(float(np.polyfit(range(len(closes)), closes, 1)[0]), 1)
            if len(closes) > 1
            else 0.0
        )
        result["cycle_growth_per_connection_kib"] = round(
            result["growth_per_cycle_kib"] / cfg["memory_cycle_n"], 3
        )
    return result
