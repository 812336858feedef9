"""The report: results.json, results.md (Markdown tables) and PNG plots in tests/bench/out/."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from tests.bench import cpuprofile, floor
from tests.bench.harness import OUT

TARGETS = {
    "overhead_p50_200": 5.0,
    "overhead_p99_200": 20.0,
    "capacity": 500,
    "kib_per_connection": 40.0,
    "context_ratio": 1.5,
    "loader_gzip": 8000,
    "whole_gzip": 30000,
}


def _fmt(value, unit: str = "") -> str:
    if value is None:
        return "–"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
        value = int(value)
    if isinstance(value, float):
        value = f"{value:.1f}" if abs(value) >= 10 or unit == "%" else f"{value:.2f}"
    return f"{value}{unit}"


def _table(head: list[str], rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += [
        "| " + " | ".join(_fmt(c) if not isinstance(c, str) else c for c in row) + " |"
        for row in rows
    ]
    return lines + [""]


def _errors(errors: dict) -> str:
    return ", ".join(f"{k}: {v}" for k, v in errors.items()) if errors else "0"


# --- context figures (written by bench_context.py: accept a few shapes) -------------------------


def _by_length(figures: dict) -> list[dict]:
    """bench_context.main()'s shape: {metric: {turns: value | {sub: value}}, ...} -> rows."""
    rows: dict[int, dict] = {}
    for metric, values in figures.items():
        if not isinstance(values, dict) or not values or not all(str(k).isdigit() for k in values):
            continue
        for turns, value in values.items():
            row = rows.setdefault(int(turns), {"turns": int(turns)})
            if isinstance(value, dict):
                for sub, v in value.items():
                    row[f"{metric}.{sub}"] = v
            else:
                row[metric] = value
    return [rows[k] for k in sorted(rows)]


def _context_rows(figures) -> list[dict]:
    if isinstance(figures, dict) and _by_length(figures):
        return _by_length(figures)
    if isinstance(figures, dict):
        for key in ("rows", "results", "lengths", "points"):
            if isinstance(figures.get(key), list):
                return [r for r in figures[key] if isinstance(r, dict)]
        if all(isinstance(v, dict) for v in figures.values()):
            return [{"turns": k, **v} for k, v in figures.items()]
        return []
    if isinstance(figures, list):
        return [r for r in figures if isinstance(r, dict)]
    return []


def _context_ratio(figures) -> float | None:
    if isinstance(figures, dict):
        for key, value in figures.items():
            if "ratio" in key and isinstance(value, int | float):
                return float(value)
    return None


# --- targets ------------------------------------------------------------------------------------


def targets(results: dict) -> list[list[str]]:
    rows = []

    def add(name: str, target: str, value, ok: bool | None) -> None:
        rows.append([name, target, _fmt(value), "–" if ok is None else ("yes" if ok else "**no**")])

    at200 = next(
        (
            r
            for r in results.get("overhead", [])
            if r["conversations"] == 200 and r.get("server", "product") == "product"
        ),
        None,
    )
    if at200:
        add(
            "overhead p50 at 200 conversations",
            "≤ 5 ms",
            at200["overhead_p50"],
            at200["overhead_p50"] is not None
            and at200["overhead_p50"] <= TARGETS["overhead_p50_200"],
        )
        add(
            "overhead p99 at 200 conversations",
            "≤ 20 ms",
            at200["overhead_p99"],
            at200["overhead_p99"] is not None
            and at200["overhead_p99"] <= TARGETS["overhead_p99_200"],
        )
    cap = results.get("capacity")
    if cap:
        add(
            "active conversations at p99 ≤ 50 ms",
            "≥ 500",
            cap["largest_ok"],
            cap["largest_ok"] >= TARGETS["capacity"],
        )
    mem = results.get("memory", {}).get("product")
    if mem:
        add(
            "memory per idle connection (KiB)",
            "≤ 40 KiB",
            mem["slope_kib_per_connection"],
            mem["slope_kib_per_connection"] <= TARGETS["kib_per_connection"],
        )
    ctx = results.get("context")
    if ctx:
        ratio = _context_ratio(ctx.get("figures")) if ctx.get("available") else None
        add(
            "context build time 1,000 / 10 turns",
            "≤ 1.5",
            ratio,
            None if ratio is None else ratio <= TARGETS["context_ratio"],
        )
    w = results.get("weight")
    if w:
        add("loader, gzipped (bytes)", "≤ 8 KB", w["loader"]["gzip"], w["loader_ok"])
        add("whole widget, gzipped (bytes)", "≤ 30 KB", w["whole"]["gzip"], w["whole_ok"])
    return rows


# --- Markdown -----------------------------------------------------------------------------------


def markdown(results: dict) -> str:
    meta = results["meta"]
    m = meta.get("machine", {})
    out = [
        f"# Benchmark results ({meta.get('mode')})",
        "",
        f"- Run: {meta.get('started')} → {meta.get('finished')} ({meta.get('wall_s')} s), "
        f"commit {m.get('commit') or '?'}",
        f"- Machine: {m.get('cores')} cores ({m.get('cpu')}), {m.get('memory')}, "
        f"Python {m.get('python')}; server, fake model, load client and database share it",
        f"- Database: {meta.get('database', '?')}; fake model: "
        f"{meta['model']['first_token_ms']:g} ms to the first token, "
        f"{meta['model']['token_ms']:g} ms per token, {meta['model']['words']} words",
        "",
    ]
    if results.get("error"):
        out += [
            f"**The run failed:** `{results['error']}` (see out/run.log); partial results below.",
            "",
        ]

    rows = targets(results)
    if rows:
        out += ["## Targets", ""] + _table(["figure", "target", "measured", "met"], rows)
    out += floor.markdown(results)

    work = results.get("work")
    if work:
        kinds = [
            ("sql", "SQL statements (round trips)"),
            ("commit", "transactions committed (+2 round trips each: BEGIN, COMMIT)"),
            ("hop", "thread hops (database calls, Channels' close_old_connections)"),
            ("loop_call", "calls from the database thread back into the event loop"),
            ("cache", "cache operations"),
            ("layer", "channel-layer calls"),
            ("log", "log records"),
        ]
        pt = work["per_turn"]
        out += [
            "## 0. Work per turn (counted, not timed)",
            "",
            f"One conversation, in-process, real consumer, {work['database']}, cache "
            f"{work['cache']}; medians over {work['turns']} turns. Without load: ack "
            f"{work['ack_ms_p50']} ms after sending; model request "
            f"{work.get('sent_to_model_ms_p50')} ms after sending "
            f"({work.get('ack_to_model_ms_p50')} ms from the ack: negative, before it); model "
            f"request → first delta {work.get('model_to_first_ms_p50')} ms (the model's own "
            f"{work['model_first_token_ms']:g} ms included); first delta "
            f"{work['first_ms_p50']} ms after sending.",
            "",
        ]
        out += _table(
            [
                "per turn",
                "before the model request",
                "model request → ack (hidden by the model)",
                "after (answer stored)",
            ],
            [
                [
                    label,
                    pt["before_model"].get(k, 0),
                    pt["model_to_ack"].get(k, 0),
                    pt["after"].get(k, 0),
                ]
                for k, label in kinds
            ],
        )
    levels = results.get("overhead")
    if levels:
        out += [
            "## 1. Server overhead per turn",
            "",
            "(first `delta` received − message sent) − 300 ms model first-token latency; "
            "ms. Steady state: each conversation's first message is warm-up.",
            "",
        ]
        out += _table(
            [
                "conversations",
                "msg every",
                "samples",
                "p50",
                "p95",
                "p99",
                "max",
                "ack p50",
                "ack p99",
                "server CPU",
                "fake model CPU",
                "client CPU",
                "everything else (DB, other users)",
                "client lag p99",
                "errors",
            ],
            [
                [
                    f"{r['conversations']} {r.get('server', '')}",
                    f"{r['interval_s']:g} s",
                    r["samples"],
                    r["overhead_p50"],
                    r["overhead_p95"],
                    r["overhead_p99"],
                    r["overhead_max"],
                    r["ack_p50"],
                    r["ack_p99"],
                    _fmt(r["server_cpu_pct"], "%"),
                    _fmt(r["llm_cpu_pct"], "%"),
                    _fmt(r["client_cpu_pct"], "%"),
                    _fmt(r.get("other_cpu_pct"), "%"),
                    r["client_lag_p99"],
                    _errors(r["errors"]),
                ]
                for r in levels
            ],
        )
    cap = results.get("capacity")
    if cap:
        held = (
            f"**{cap['largest_ok']}** conversations"
            if cap["largest_ok"]
            else "**none**: even the smallest level tried missed it"
        )
        out += [
            "## 2. Concurrent active conversations at p99 ≤ 50 ms",
            "",
            f"Largest level that held: {held} (first failing level tried: "
            f"{cap['first_failing'] or 'none'}; each conversation sends a message every "
            "5 s; a single conversation sending every 1 s is in the table above).",
            "",
        ]
        out += _table(
            ["conversations", "samples", "p50", "p99", "server CPU", "everything else", "errors"],
            [
                [
                    r["conversations"],
                    r["samples"],
                    r["overhead_p50"],
                    r["overhead_p99"],
                    _fmt(r["server_cpu_pct"], "%"),
                    _fmt(r.get("other_cpu_pct"), "%"),
                    _errors(r["errors"]),
                ]
                for r in cap["runs"]
            ],
        )
    mem = results.get("memory")
    if mem:
        out += [
            "## 3. Memory per idle websocket connection",
            "",
            "VmRSS of the server process; each connection has said hello and got its "
            "welcome. Slope = least-squares fit over the points above 0.",
            "",
        ]
        for name, r in mem.items():
            pts = ", ".join(
                f"{p['connections']}: {p['rss_kib'] / 1024:.1f} MiB" for p in r["points"]
            )
            out += [
                f"- **{name}**: {r['slope_kib_per_connection']} KiB per connection ({pts}); "
                f"after closing all: {r['rss_after_close_kib'] / 1024:.1f} MiB "
                f"({max(0.0, r['returned_after_close_pct'])}% of the growth returned at once)"
            ]
            if r.get("cycles"):
                cyc = "; ".join(
                    f"{c['rss_open_kib'] / 1024:.1f} → {c['rss_closed_kib'] / 1024:.1f} MiB"
                    for c in r["cycles"]
                )
                growth = r.get("growth_per_cycle_kib") or 0.0
                verdict = (
                    "no growth from cycle to cycle: nothing leaks"
                    if growth <= 0
                    else f"grows {growth} KiB per cycle "
                    f"({r.get('cycle_growth_per_connection_kib')} KiB per connection)"
                )
                out += [
                    f"  - {len(r['cycles'])} open/close cycles of "
                    f"{r.get('cycle_connections', '')} connections, RSS open → closed: "
                    f"{cyc}; {verdict}"
                ]
        out += [""]
    ctx = results.get("context")
    if ctx:
        out += ["## 4. Context build time and prompt tokens vs conversation length", ""]
        if not ctx.get("available"):
            out += [f"Not measured: {ctx.get('reason')}", ""]
        else:
            rows = _context_rows(ctx.get("figures"))
            if rows:
                keys = list(dict.fromkeys(k for r in rows for k in r))
                out += _table(keys, [[r.get(k) for k in keys] for r in rows])
            rest = {
                k: v
                for k, v in (ctx.get("figures") or {}).items()
                if not (isinstance(v, dict) and v and all(str(x).isdigit() for x in v))
            }
            if rest:
                out += ["Also: `" + json.dumps(rest, default=str) + "`", ""]
    w = results.get("weight")
    if w:
        out += ["## 5. Widget weight", "", f"config.json from {w['config']}", ""]
        out += _table(
            ["part", "raw", "gzip -9", "brotli 11"],
            [[k, v["raw"], v["gzip"], v["brotli"]] for k, v in w["parts"].items()]
            + [["**whole widget**", w["whole"]["raw"], w["whole"]["gzip"], w["whole"]["brotli"]]],
        )
        out += [f"Requests ({w['request_count']}): " + "; ".join(w["requests"]), ""]
    rat = results.get("ratios")
    if rat:
        out += [
            "## 6. Side-by-side ratios",
            "",
            f"{rat['load']} conversations (a message every 5 s), {rat['rounds']} rounds in the "
            f"order {' '.join(rat['order'])} ...; medians over rounds; overhead in ms (echo: "
            "no model latency subtracted, it has none).",
            "",
        ]
        out += _table(
            ["server", "overhead p50", "overhead p99", "server CPU"],
            [
                [k, v["overhead_p50"], v["overhead_p99"], _fmt(v["server_cpu_pct"], "%")]
                for k, v in rat["summary"].items()
            ],
        )
        out += _table(
            ["A", "B", "A p50", "B p50", "p50 A/B", "A p99", "B p99", "p99 A/B"],
            [
                [
                    r["a"],
                    r["b"],
                    r["a_p50"],
                    r["b_p50"],
                    r["p50_ratio"],
                    r["a_p99"],
                    r["b_p99"],
                    r["p99_ratio"],
                ]
                for r in rat["ratios"]
            ],
        )
    if results.get("profiles"):
        out += cpuprofile.markdown(results["profiles"])
    return "\n".join(out) + "\n"


# --- plots --------------------------------------------------------------------------------------


def plots(results: dict) -> list[Path]:
    paths = []
    levels = [r for r in results.get("overhead") or [] if r.get("server", "product") == "product"]
    cap_runs = (results.get("capacity") or {}).get("runs") or []
    rows = {r["conversations"]: r for r in [*levels, *cap_runs] if r.get("interval_s") == 5.0}
    if rows:
        ns = sorted(rows)
        fig, ax = plt.subplots(figsize=(7, 4))
        for key, label in (
            ("overhead_p50", "p50"),
            ("overhead_p95", "p95"),
            ("overhead_p99", "p99"),
        ):
            ax.plot(ns, [rows[n].get(key) for n in ns], marker="o", label=label)
        ax.axhline(50, color="red", lw=0.8, ls="--", label="50 ms (capacity limit)")
        ax.axhline(20, color="orange", lw=0.8, ls=":", label="20 ms (p99 target at 200)")
        ax.axhline(5, color="green", lw=0.8, ls=":", label="5 ms (p50 target at 200)")
        ax.set_xlabel("concurrent conversations (a message every 5 s)")
        ax.set_ylabel("server overhead per turn (ms)")
        ax.set_yscale("symlog", linthresh=10)
        ax.set_ylim(bottom=0)
        ax.set_xscale("log")
        ax.legend(fontsize=8)
        ax.set_title("Overhead: first delta − send − model first-token latency")
        fig.tight_layout()
        paths.append(OUT / "overhead.png")
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    if levels and any(r.get("overhead_ms") for r in levels):
        fig, ax = plt.subplots(figsize=(7, 4))
        for r in levels:
            data = sorted(r.get("overhead_ms") or [])
            if data:
                ax.plot(
                    data,
                    [i / len(data) for i in range(1, len(data) + 1)],
                    label=f"{r['conversations']} conversations",
                )
        ax.set_xscale("symlog", linthresh=1)
        ax.set_xlim(left=0)
        ax.set_xlabel("overhead (ms)")
        ax.set_ylabel("fraction of turns")
        ax.legend(fontsize=8)
        ax.set_title("Overhead distribution")
        fig.tight_layout()
        paths.append(OUT / "overhead_cdf.png")
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    mem = results.get("memory") or {}
    if mem:
        fig, ax = plt.subplots(figsize=(7, 4))
        for name, r in mem.items():
            xs = [p["connections"] for p in r["points"]]
            ax.plot(
                xs,
                [p["rss_kib"] / 1024 for p in r["points"]],
                marker="o",
                label=f"{name}: {r['slope_kib_per_connection']} KiB/connection",
            )
            if r.get("cycles"):
                ax.scatter(
                    [0] * len(r["cycles"]),
                    [c["rss_closed_kib"] / 1024 for c in r["cycles"]],
                    marker="x",
                    label=f"{name}: after each open/close cycle",
                )
        ax.set_xlabel("idle websocket connections")
        ax.set_ylabel("server RSS (MiB)")
        ax.legend(fontsize=8)
        ax.set_title("Memory per idle connection")
        fig.tight_layout()
        paths.append(OUT / "memory.png")
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    ctx = results.get("context") or {}
    crow = _context_rows(ctx.get("figures")) if ctx.get("available") else []
    xkey = next(
        (k for k in ("turns", "length", "conversation_turns", "n") if crow and k in crow[0]), None
    )
    if crow and xkey and "build_ms" in crow[0] and "prompt_tokens.memory" in crow[0]:
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        xs = [r[xkey] for r in crow]
        axes[0].plot(xs, [r["build_ms"] for r in crow], marker="o", label="context build (ms)")
        axes[0].set_ylim(bottom=0)
        axes[0].set_ylabel("ms (median)")
        axes[1].plot(
            xs,
            [r["prompt_tokens.memory"] for r in crow],
            marker="o",
            label="prompt tokens (memory)",
        )
        if "prompt_tokens.send_everything" in crow[0]:
            axes[1].plot(
                xs,
                [r["prompt_tokens.send_everything"] for r in crow],
                marker="s",
                label="send everything",
            )
        axes[1].set_yscale("log")
        axes[1].set_ylabel("tokens in the call")
        for ax in axes:
            ax.set_xscale("log")
            ax.set_xlabel("conversation length (turns)")
            ax.legend(fontsize=8)
        fig.suptitle("Context build time and prompt size vs conversation length")
        fig.tight_layout()
        paths.append(OUT / "context.png")
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    elif crow and xkey:
        numeric = [
            k for k in crow[0] if k != xkey and all(isinstance(r.get(k), int | float) for r in crow)
        ]
        if numeric:
            fig, axes = plt.subplots(1, 2, figsize=(10, 4))
            for k in numeric:
                ax = axes[0] if ("ms" in k or "time" in k or "_s" in k) else axes[1]
                ax.plot([r[xkey] for r in crow], [r[k] for r in crow], marker="o", label=k)
            for ax, label in zip(axes, ("time", "tokens"), strict=True):
                ax.set_xscale("log")
                ax.set_xlabel("conversation length (turns)")
                ax.set_ylabel(label)
                ax.legend(fontsize=8)
            fig.suptitle("Context build vs send-everything baseline")
            fig.tight_layout()
            paths.append(OUT / "context.png")
            fig.savefig(paths[-1], dpi=110)
            plt.close(fig)
    rat = results.get("ratios")
    if rat and rat.get("summary"):
        names = list(rat["summary"])
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.38
        xs = range(len(names))
        ax.bar(
            [x - width / 2 for x in xs],
            [rat["summary"][n]["overhead_p50"] or 0 for n in names],
            width,
            label="p50",
        )
        ax.bar(
            [x + width / 2 for x in xs],
            [rat["summary"][n]["overhead_p99"] or 0 for n in names],
            width,
            label="p99",
        )
        ax.set_xticks(list(xs), names)
        ax.set_ylabel("overhead (ms)")
        ax.set_title(f"Side by side at {rat['load']} conversations (medians of rounds)")
        ax.legend()
        fig.tight_layout()
        paths.append(OUT / "ratios.png")
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    return paths


def write(results: dict) -> list[Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    paths = [OUT / "results.json", OUT / "results.md"]
    paths[0].write_text(json.dumps(results, indent=1, default=str))
    paths[1].write_text(markdown(results))
    try:
        paths += plots(results)
    except Exception as exc:  # the tables matter more than the pictures
        (OUT / "plots-failed.txt").write_text(f"{type(exc).__name__}: {exc}")
    return paths


if __name__ == "__main__":
    # re-render the report from an earlier results.json
    print(write(json.loads((OUT / "results.json").read_text())))
