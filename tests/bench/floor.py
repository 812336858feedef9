"""The product against its floor, side by side, and one process against two (issue 30).

- `start_floor`: the floor app (`floor_app.py`) under the same Daphne, on the same fake model,
  its deltas coalesced like the product's (`FLOOR_DELTA_INTERVAL_MS`, 40 by default).
- `side_by_side`: product and floor take turns at one load (P F P F ...), medians over the
  rounds: CPU per message, first-token overhead, ack, frames per answer, and their ratios.
- capacity: conversations per process at which the p99 overhead stays within twice the
  floor's p99 of the side-by-side rounds (`capacity_limit`), for product and floor alike,
  on one grid of levels where they take turns (capacity_grid.py).
- `two_processes`: the capacity search for one product process and for two (the Redis
  channel layer and cache, as deployed; the load client spreads the conversations over both,
  as the proxy's upstream does), and the same for one floor process and two: what a second
  process can add on this machine at all, where the database, Redis, the fake model and the
  load client share its cores with the servers.

The targets (issue 30), all as ratios to the floor measured in the same run:
CPU per message ≤ 1.25× the floor's; overhead p50 ≤ the floor's + 3 ms; overhead p99 ≤ 2×
the floor's; capacity ≥ 80% of the floor's; two processes ≥ 1.8× one.
"""

from __future__ import annotations

import numpy as np

from tests.bench import harness
from tests.bench.capacity_grid import level_of, passes

CPU_RATIO_TARGET = 1.25
P50_GAP_MS = 3.0
P99_RATIO_TARGET = 2.0
CAPACITY_RATIO_TARGET = 0.8
TWO_PROCESS_TARGET = 1.8


def start_floor(
    procs: harness.Procs, *, env: dict, wait: bool = True, name: str = "floor"
) -> harness.Server:
    env = {k: v for k, v in env.items() if k != "DJANGO_SETTINGS_MODULE"}
    return harness.start_server(
        procs, name=name, env=env, app="tests.bench.floor_app:application", wait=wait
    )


def _median(rows: list[dict], key: str) -> float | None:
    vals = [r[key] for r in rows if r.get(key) is not None]
    return round(float(np.median(vals)), 2) if vals else None


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def side_by_side(run, *, servers: dict, rounds: int, n: int) -> dict:
    """`run(name, n)` does one load run on server `name` and returns its row."""
    runs: dict[str, list[dict]] = {name: [] for name in servers}
    for _ in range(rounds):
        for name in servers:
            runs[name].append(run(name, n))
    keys = (
        "cpu_ms_per_msg",
        "overhead_p50",
        "overhead_p99",
        "ack_p50",
        "frames_per_answer",
        "server_cpu_pct",
    )
    summary = {name: {k: _median(rows, k) for k in keys} for name, rows in runs.items()}
    product, floor = summary.get("product", {}), summary.get("floor", {})
    ratios = {k: _ratio(product.get(k), floor.get(k)) for k in keys[:5]}
    return {
        "conversations": n,
        "rounds": rounds,
        "summary": summary,
        "ratios": ratios,
        "grid_start": {name: level_of(n, rows) for name, rows in runs.items()},  # capacity_grid
        "runs": {
            k: [{x: y for x, y in r.items() if x != "overhead_ms"} for r in v]
            for k, v in runs.items()
        },
    }


def two_processes(
    capacity, *, one: harness.Server, two: harness.ServerGroup, url_one: str, url_two: str
) -> dict:
    """`capacity(server, url)` runs the capacity search and returns its result."""
    single = capacity(one, url_one)
    double = capacity(two, url_two)
    ratio = round(double["largest_ok"] / single["largest_ok"], 2) if single["largest_ok"] else None
    return {"one": single, "two": double, "ratio": ratio, "target": TWO_PROCESS_TARGET}


# --- the report -----------------------------------------------------------------------------


def _f(v, unit: str = "") -> str:
    if v is None:
        return "–"
    return f"{v:.1f}{unit}" if isinstance(v, float) and abs(v) >= 10 else f"{v}{unit}"


def _met(ok: bool | None) -> str:
    return "–" if ok is None else ("yes" if ok else "**no**")


def capacity_limit(side: dict) -> float:
    """The capacity's p99 bound: twice the floor's p99 overhead in the side-by-side rounds."""
    p99 = side["summary"].get("floor", {}).get("overhead_p99") or 25.0
    return round(P99_RATIO_TARGET * p99, 1)


def capacity_summary(results: dict) -> dict:
    cap = results.get("side_capacity") or {}
    return {name: c.get("crossing", c["largest_ok"]) for name, c in cap.items()}


def _capacity_cell(cap: dict) -> str:
    """The crossing of the line (capacity_grid.py) and the grid's last passing level; a run
    from before the grid has the bisection's level alone."""
    if "crossing" not in cap:
        return str(cap["largest_ok"])
    failing = cap["first_failing"] or "none"
    return f"{_f(cap['crossing'])} (grid: {cap['largest_ok']} passes, {failing} fails)"


def _gap(a: float | None, b: float | None) -> float | None:
    return round(a - b, 2) if a is not None and b is not None else None


def _row(figure: str, floor_v, product_v, versus, target: str, met: bool | None) -> list:
    return [figure, floor_v, product_v, versus, target, met]


def targets(results: dict) -> list[str]:
    """The table of issue 30: each figure for the floor and the product, their ratio or gap,
    the target and whether it is met."""
    rows = []
    side = results.get("side")
    if side:
        p, f = side["summary"].get("product", {}), side["summary"].get("floor", {})
        r = side["ratios"]
        cpu, p50_gap = r["cpu_ms_per_msg"], _gap(p["overhead_p50"], f["overhead_p50"])
        p99 = r["overhead_p99"]
        rows += [
            _row(
                f"CPU per message at {side['conversations']} (ms)",
                f["cpu_ms_per_msg"],
                p["cpu_ms_per_msg"],
                f"×{_f(cpu)}",
                f"≤ ×{CPU_RATIO_TARGET}",
                None if cpu is None else cpu <= CPU_RATIO_TARGET,
            ),
            _row(
                "first-token overhead p50 (ms)",
                f["overhead_p50"],
                p["overhead_p50"],
                f"+{_f(p50_gap)} ms",
                f"≤ +{P50_GAP_MS:g} ms",
                None if p50_gap is None else p50_gap <= P50_GAP_MS,
            ),
            _row(
                "first-token overhead p99 (ms)",
                f["overhead_p99"],
                p["overhead_p99"],
                f"×{_f(p99)}",
                f"≤ ×{P99_RATIO_TARGET:g}",
                None if p99 is None else p99 <= P99_RATIO_TARGET,
            ),
            _row(
                "ack p50 (ms)",
                f["ack_p50"],
                p["ack_p50"],
                f"+{_f(_gap(p['ack_p50'], f['ack_p50']))} ms",
                "",
                None,
            ),
            _row("frames per answer", f["frames_per_answer"], p["frames_per_answer"], "", "", None),
        ]
    s200 = results.get("side_200")
    if s200:
        p, f = s200["summary"].get("product", {}), s200["summary"].get("floor", {})
        cpu = s200["ratios"]["cpu_ms_per_msg"]
        rows.append(
            _row(
                f"CPU per message at {s200['conversations']} (ms)",
                f["cpu_ms_per_msg"],
                p["cpu_ms_per_msg"],
                f"×{_f(cpu)}",
                f"≤ ×{CPU_RATIO_TARGET}",
                None if cpu is None else cpu <= CPU_RATIO_TARGET,
            )
        )
    cap = results.get("side_capacity")
    if cap:
        pc, fc = (cap[k].get("crossing", cap[k]["largest_ok"]) for k in ("product", "floor"))
        share = round(pc / fc, 2) if fc else None
        rows.append(
            _row(
                f"capacity, conversations at p99 ≤ {cap['floor']['p99_limit_ms']:g} ms "
                "(twice the floor's p99)",
                _capacity_cell(cap["floor"]),
                _capacity_cell(cap["product"]),
                f"{_f(share)}",
                f"≥ {CAPACITY_RATIO_TARGET:g} of the floor's",
                None if share is None else share >= CAPACITY_RATIO_TARGET,
            )
        )
    two = results.get("two")
    if two:
        two_floor = results.get("two_floor")
        rows.append(
            _row(
                "two processes / one (Redis layer), capacity",
                (
                    f"{two_floor['two']['largest_ok']} / {two_floor['one']['largest_ok']} "
                    f"= ×{_f(two_floor['ratio'])}"
                    if two_floor
                    else None
                ),
                f"{two['two']['largest_ok']} / {two['one']['largest_ok']}",
                f"×{_f(two['ratio'])}",
                f"≥ ×{TWO_PROCESS_TARGET}",
                None if two["ratio"] is None else two["ratio"] >= TWO_PROCESS_TARGET,
            )
        )
    if not rows:
        return []
    out = [
        "## Targets of issue 30 (product against the coalescing floor, one run)",
        "",
        "| figure | floor | product | ratio / gap | target | met |",
        "|---|---|---|---|---|---|",
    ]
    out += [f"| {a} | {_f(b)} | {_f(c)} | {d} | {e} | {_met(g)} |" for a, b, c, d, e, g in rows]
    return out + [""]


def markdown(results: dict) -> list[str]:
    out = targets(results)
    by_n: dict[int, dict] = {}
    for row in results.get("overhead", []):
        by_n.setdefault(row["conversations"], {})[row["server"]] = row
    if any("floor" in v for v in by_n.values()):
        out += [
            "## 1b. Product and floor at each level",
            "",
            "Same load, the floor's run right after the product's; CPU per message = the "
            "server's CPU time minus its idle rate, over the messages answered (steady "
            "state: inside the measurement window).",
            "",
            "| conversations | product CPU/msg | floor CPU/msg | ratio | product p50 / p99 "
            "| floor p50 / p99 | product ack p50 | floor ack p50 |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for n in sorted(by_n):
            p, f = by_n[n].get("product", {}), by_n[n].get("floor", {})
            out.append(
                f"| {n} | {_f(p.get('cpu_ms_per_msg'))} | {_f(f.get('cpu_ms_per_msg'))} | "
                f"{_f(_ratio(p.get('cpu_ms_per_msg'), f.get('cpu_ms_per_msg')))} | "
                f"{_f(p.get('overhead_p50'))} / {_f(p.get('overhead_p99'))} | "
                f"{_f(f.get('overhead_p50'))} / {_f(f.get('overhead_p99'))} | "
                f"{_f(p.get('ack_p50'))} | {_f(f.get('ack_p50'))} |"
            )
        out.append("")
        base = {n: v["baseline"] for n, v in by_n.items() if "baseline" in v}
        if base:
            out += [
                "Baseline (`--baseline`: the other checkout, same runs):",
                "",
                "| conversations | baseline CPU/msg | / floor | baseline p50 / p99 | "
                "baseline ack p50 |",
                "|---|---|---|---|---|",
            ]
            for n, b in sorted(base.items()):
                f = by_n[n].get("floor", {})
                out.append(
                    f"| {n} | {_f(b.get('cpu_ms_per_msg'))} | "
                    f"{_f(_ratio(b.get('cpu_ms_per_msg'), f.get('cpu_ms_per_msg')))} | "
                    f"{_f(b.get('overhead_p50'))} / {_f(b.get('overhead_p99'))} | "
                    f"{_f(b.get('ack_p50'))} |"
                )
            out.append("")
    side = results.get("side")
    if side:
        out += [
            f"## 7. Side by side: {side['conversations']} conversations, {side['rounds']} "
            "rounds (product, floor, product, floor, ...), medians",
            "",
            "| server | CPU/msg (ms) | CPU / floor | overhead p50 | overhead p99 | ack p50 "
            "| server CPU |",
            "|---|---|---|---|---|---|---|",
        ]
        fcpu = side["summary"].get("floor", {}).get("cpu_ms_per_msg")
        for name, s in side["summary"].items():
            out.append(
                f"| {name} | {_f(s['cpu_ms_per_msg'])} | "
                f"{_f(_ratio(s['cpu_ms_per_msg'], fcpu))} | {_f(s['overhead_p50'])} | "
                f"{_f(s['overhead_p99'])} | {_f(s['ack_p50'])} | {_f(s['server_cpu_pct'], '%')} |"
            )
        r = side["ratios"]
        out += [
            f"| **product / floor** | {_f(r['cpu_ms_per_msg'])} | | {_f(r['overhead_p50'])} | "
            f"{_f(r['overhead_p99'])} | {_f(r['ack_p50'])} | |",
            "",
        ]
    out += _grid_markdown(results.get("side_capacity") or {})
    two = results.get("two")
    if two:
        out += [
            "## 9. One process and two (Redis layer and cache)",
            "",
            f"Capacity at p99 ≤ 50 ms: one process **{two['one']['largest_ok']}**, two "
            f"processes **{two['two']['largest_ok']}** (×{_f(two['ratio'])}; target "
            f"≥ {TWO_PROCESS_TARGET}×). The load client spreads conversations over both "
            "processes round-robin, as the proxy's upstream does.",
        ]
        two_floor = results.get("two_floor")
        if two_floor:
            out += [
                "",
                f"The floor on the same machine: one process **{two_floor['one']['largest_ok']}**"
                f", two **{two_floor['two']['largest_ok']}** (×{_f(two_floor['ratio'])}): "
                "what a second process can add here at all.",
            ]
        out += [
            "",
            "| server | processes | conversations | p50 | p99 | CPU/msg | server CPU | errors |",
            "|---|---|---|---|---|---|---|---|",
        ]
        runs = [("product", two)] + ([("floor", two_floor)] if two_floor else [])
        for server, label, res in (
            (server, label, res[key])
            for server, res in runs
            for label, key in (("1", "one"), ("2", "two"))
        ):
            for row in res["runs"]:
                errors = ", ".join(f"{k}: {v}" for k, v in row["errors"].items()) or "0"
                out.append(
                    f"| {server} | {label} | {row['conversations']} | {_f(row['overhead_p50'])} | "
                    f"{_f(row['overhead_p99'])} | {_f(row.get('cpu_ms_per_msg'))} | "
                    f"{_f(row['server_cpu_pct'], '%')} | {errors} |"
                )
        out.append("")
    return out


def _grid_markdown(cap: dict) -> list[str]:
    """The capacity grid's levels (capacity_grid.py), both servers; nothing for a run from
    before the grid."""
    if not cap or not all("levels" in c for c in cap.values()):
        return []
    limit = next(iter(cap.values()))["p99_limit_ms"]
    out = [
        f"## 7b. Capacity grid: p99 ≤ {limit:g} ms, product and floor taking turns at each "
        "level; a level's p99 is the median of its runs' (p50, p95 and the pooled p99: all "
        "their samples)",
        "",
        "| server | conversations | runs | samples | p50 | p95 | p99 pooled | p99 of each run "
        "| p99 (median) | CPU/msg | passes |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, c in cap.items():
        for lv in c["levels"]:
            each = " / ".join(_f(v) for v in lv["run_p99s"])
            out.append(
                f"| {name} | {lv['conversations']} | {lv['runs']} | {lv['samples']} | "
                f"{_f(lv['overhead_p50'])} | {_f(lv['overhead_p95'])} | "
                f"{_f(lv.get('pooled_p99'))} | {each} | {_f(lv['overhead_p99'])} | "
                f"{_f(lv['cpu_ms_per_msg'])} | "
                f"{'yes' if passes(lv, limit) else 'no'} |"
            )
    out += [""] + [
        f"- {name}: line crossed at {_f(c['crossing'])} conversations (last passing level "
        f"{c['largest_ok']}, first failing {c['first_failing'] or 'none'})"
        for name, c in cap.items()
    ]
    return out + [""]
