"""Capacity of product and floor on one grid of levels, taking turns (issue 30, `--only side`).

The search before this (run.section_capacity, still used by `capacity` and `two`) bisects each
server on its own, one 20-second run per level, and stops within a fifth of the level. On the
2-core machine two readings of one level differed by more than the product's distance to the
line, and the step was as large as the target's margin (0.8): three runs of nearly the same
code gave 0.5, 0.79 and 0.68.

Here, at each level of one grid (side_load × GRID_FACTOR, rounded to 5, and so on), product
and floor take turns, GRID_ROUNDS runs each (P F P F P F), so that a slower minute of the
machine falls on both. A level's p99 is the median of its runs' p99s, the statistic of the
side-by-side rounds' p99 row: one run that meets a stall of the machine (100-550 ms at
once, on either server) does not decide the level. (The first version pooled two runs'
samples: one such run then failed the level, and the product's capacity read 0 in one run
of four.) The pooled percentiles are kept beside it. A server stops at its first failing
level. Its capacity is the crossing of the line between its last passing level and that
one, interpolated linearly in p99 (`crossing`), with the grid's last passing level beside
it. The side-by-side rounds at side_load are the grid's first level.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

GRID_FACTOR = 1.2
GRID_ROUNDS = 3


def grid_levels(start: int, top: int) -> Iterator[int]:
    """start × GRID_FACTOR, ×GRID_FACTOR again, ..., rounded to 5, each at least 5 above the
    one before, up to `top`."""
    level = start
    while True:
        level = max(level + 5, int(round(level * GRID_FACTOR / 5.0)) * 5)
        if level > top:
            return
        yield level


def level_of(n: int, rows: list[dict]) -> dict:
    """One level's runs of one server as one level: the median of their p99s (what decides), the
    percentiles of all their first-token overheads pooled, and whether every run was clean
    (connected, no timeouts)."""
    samples = [v for r in rows for v in r.get("overhead_ms") or []]

    def pct(q: float) -> float | None:
        return round(float(np.percentile(samples, q)), 2) if samples else None

    return {
        "conversations": n,
        "runs": len(rows),
        "samples": len(samples),
        "overhead_p50": pct(50),
        "overhead_p95": pct(95),
        "pooled_p99": pct(99),
        "overhead_p99": _median(rows, "overhead_p99"),
        "run_p99s": [r.get("overhead_p99") for r in rows],
        "cpu_ms_per_msg": _median(rows, "cpu_ms_per_msg"),
        "server_cpu_pct": _median(rows, "server_cpu_pct"),
        "clean": all(
            r.get("samples") and not r.get("connect_failed") and not r["errors"].get("timeout")
            for r in rows
        ),
    }


def _median(rows: list[dict], key: str) -> float | None:
    vals = [r[key] for r in rows if r.get(key) is not None]
    return round(float(np.median(vals)), 2) if vals else None


def passes(level: dict, limit_ms: float) -> bool:
    p99 = level["overhead_p99"]
    return bool(level["clean"] and p99 is not None and p99 <= limit_ms)


def crossing(levels: list[dict], limit_ms: float) -> dict:
    """A server's capacity from its levels (ascending, ending at its first failure, if any):
    the last passing level, the first failing one, and where the line is crossed between
    them (p99 interpolated linearly; a failure that is not a p99 above the line, a
    timeout or a refused connection, gives the last passing level)."""
    ok = [lv for lv in levels if passes(lv, limit_ms)]
    bad = [lv for lv in levels if not passes(lv, limit_ms)]
    last = ok[-1] if ok else None
    first_bad = bad[0] if bad else None
    at = last["conversations"] if last else 0
    if last and first_bad and first_bad["clean"] and first_bad["overhead_p99"] > limit_ms:
        lo, hi = last["overhead_p99"], first_bad["overhead_p99"]
        span = first_bad["conversations"] - last["conversations"]
        at = last["conversations"] + span * (limit_ms - lo) / (hi - lo)
    return {
        "largest_ok": last["conversations"] if last else 0,
        "first_failing": first_bad["conversations"] if first_bad else None,
        "crossing": round(at, 1),
        "p99_limit_ms": limit_ms,
        "levels": levels,
    }


def capacity_grid(
    run: Callable[[str, int], dict],
    *,
    names: tuple[str, ...],
    limit_ms: float,
    start: dict[str, dict],
    top: int,
    rounds: int = GRID_ROUNDS,
) -> dict[str, dict]:
    """`run(name, n)` does one load run and returns its row (with `overhead_ms`); `start`:
    each server's level (`level_of`) of the side-by-side rounds, the grid's first."""
    levels = {name: [start[name]] for name in names}
    going = [name for name in names if passes(start[name], limit_ms)]
    first = max(lv["conversations"] for lv in start.values())
    for n in grid_levels(first, top):
        if not going:
            break
        rows: dict[str, list[dict]] = {name: [] for name in going}
        for _ in range(rounds):
            for name in going:
                rows[name].append(run(name, n))
        for name in list(going):
            level = level_of(n, rows[name])
            levels[name].append(level)
            if not passes(level, limit_ms):
                going.remove(name)
    return {name: crossing(levels[name], limit_ms) for name in names}
