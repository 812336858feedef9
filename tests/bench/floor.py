"""The product against its floor, side by side, and one process against two.

- `start_floor`: the floor app (`floor_app.py`) under the same Daphne, on the same fake model.
- `side_by_side`: product and floor take turns at one load (P F P F ...), medians over the
  rounds: CPU per message and overhead, and their ratios (the issue's targets: CPU per
  message ≤ 1.3× the floor, overhead p50 ≤ 5 ms and p99 ≤ 20 ms).
- `two_processes`: the capacity search for one product process and for two (the Redis
  channel layer and cache, as deployed; the load client spreads the conversations over both,
  as the proxy's upstream does): two should carry ≥ 1.8× one at the same p99.
"""

from __future__ import annotations

import numpy as np

from tests.bench import harness

CPU_RATIO_TARGET = 1.3
P50_TARGET_MS = 5.0
P99_TARGET_MS = 20.0
TWO_PROCESS_TARGET = 1.8


def start_floor(procs: harness.Procs, *, env: dict, wait: bool = True) -> harness.Server:
    env = {k: v for k, v in env.items() if k != "DJANGO_SETTINGS_MODULE"}
    return harness.start_server(
        procs, name="floor", env=env, app="tests.bench.floor_app:application", wait=wait
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
    keys = ("cpu_ms_per_msg", "overhead_p50", "overhead_p99", "ack_p50", "server_cpu_pct")
    summary = {name: {k: _median(rows, k) for k in keys} for name, rows in runs.items()}
    product, floor = summary.get("product", {}), summary.get("floor", {})
    ratios = {k: _ratio(product.get(k), floor.get(k)) for k in keys[:4]}
    return {
        "conversations": n,
        "rounds": rounds,
        "summary": summary,
        "ratios": ratios,
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


def targets(results: dict) -> list[str]:
    """The issue's targets, product next to the floor where there is one."""
    rows = []
    side = results.get("side")
    if side:
        p, f = side["summary"].get("product", {}), side["summary"].get("floor", {})
        r = side["ratios"]
        n = side["conversations"]
        rows += [
            [
                f"CPU per message at {n} (ms)",
                f"≤ {CPU_RATIO_TARGET}× floor",
                p["cpu_ms_per_msg"],
                f["cpu_ms_per_msg"],
                r["cpu_ms_per_msg"],
                None if r["cpu_ms_per_msg"] is None else r["cpu_ms_per_msg"] <= CPU_RATIO_TARGET,
            ],
            [
                f"overhead p50 at {n} (ms)",
                f"≤ {P50_TARGET_MS:g} ms",
                p["overhead_p50"],
                f["overhead_p50"],
                r["overhead_p50"],
                None if p["overhead_p50"] is None else p["overhead_p50"] <= P50_TARGET_MS,
            ],
            [
                f"overhead p99 at {n} (ms)",
                f"≤ {P99_TARGET_MS:g} ms",
                p["overhead_p99"],
                f["overhead_p99"],
                r["overhead_p99"],
                None if p["overhead_p99"] is None else p["overhead_p99"] <= P99_TARGET_MS,
            ],
        ]
    by_n = {}
    for row in results.get("overhead", []):
        by_n.setdefault(row["conversations"], {})[row["server"]] = row
    at200 = by_n.get(200, {})
    if at200.get("product"):
        p, f = at200["product"], at200.get("floor", {})
        for key, target in (("overhead_p50", P50_TARGET_MS), ("overhead_p99", P99_TARGET_MS)):
            rows.append(
                [
                    f"{key.replace('_', ' ')} at 200 (ms)",
                    f"≤ {target:g} ms",
                    p[key],
                    f.get(key),
                    _ratio(p[key], f.get(key)),
                    None if p[key] is None else p[key] <= target,
                ]
            )
    cap = results.get("capacity")
    if cap:
        rows.append(
            [
                "conversations at p99 ≤ 50 ms, one process",
                "≥ 500",
                cap["largest_ok"],
                None,
                None,
                cap["largest_ok"] >= 500,
            ]
        )
    two = results.get("two")
    if two:
        rows.append(
            [
                "two processes / one (Redis layer), conversations at p99 ≤ 50 ms",
                f"≥ {TWO_PROCESS_TARGET}×",
                f"{two['two']['largest_ok']} / {two['one']['largest_ok']}",
                None,
                two["ratio"],
                None if two["ratio"] is None else two["ratio"] >= TWO_PROCESS_TARGET,
            ]
        )
    if not rows:
        return []
    out = [
        "## Targets of issue 14 (product against the floor)",
        "",
        "| figure | target | product | floor | product / floor | met |",
        "|---|---|---|---|---|---|",
    ]
    out += [f"| {a} | {b} | {_f(c)} | {_f(d)} | {_f(e)} | {_met(g)} |" for a, b, c, d, e, g in rows]
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
    two = results.get("two")
    if two:
        out += [
            "## 9. One process and two (Redis layer and cache)",
            "",
            f"Capacity at p99 ≤ 50 ms: one process **{two['one']['largest_ok']}**, two "
            f"processes **{two['two']['largest_ok']}** (×{_f(two['ratio'])}; target "
            f"≥ {TWO_PROCESS_TARGET}×). The load client spreads conversations over both "
            "processes round-robin, as the proxy's upstream does.",
            "",
            "| processes | conversations | p50 | p99 | CPU/msg | server CPU | errors |",
            "|---|---|---|---|---|---|---|",
        ]
        for label, res in (("1", two["one"]), ("2", two["two"])):
            for row in res["runs"]:
                errors = ", ".join(f"{k}: {v}" for k, v in row["errors"].items()) or "0"
                out.append(
                    f"| {label} | {row['conversations']} | {_f(row['overhead_p50'])} | "
                    f"{_f(row['overhead_p99'])} | {_f(row.get('cpu_ms_per_msg'))} | "
                    f"{_f(row['server_cpu_pct'], '%')} | {errors} |"
                )
        out.append("")
    return out
