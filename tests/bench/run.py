"""The benchmark run: `make bench` or `python -m tests.bench.run [--quick] [--only ...]`.

Starts a fresh bench database, the fake model (300 ms to the first token, 10 ms per token),
Daphne with the product, and load clients in their own processes; writes a Markdown report,
JSON and PNG plots to tests/bench/out/. See tests/bench/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

import numpy as np

from tests.bench import capacity_grid, cpuprofile, floor, harness, idlemem, report, weight
from tests.bench.harness import OUT, PY, Procs

SECTIONS = (
    "weight",
    "work",
    "overhead",
    "floor",
    "capacity",
    "side",
    "profile",
    "two",
    "ratios",
    "memory",
    "context",
)
MODEL_FIRST_TOKEN_MS = 300.0
MODEL_TOKEN_MS = 10.0
MODEL_WORDS = 100  # the issue-14 load: 100 tokens at 10 ms each after 300 ms
P99_CAPACITY_MS = 50.0

FULL = {
    "levels": [1, 50, 200, 500],
    "duration": 30.0,
    "capacity_duration": 20.0,
    "capacity_max": 2000,
    "capacity_bisect": 3,
    "memory_points": [1000, 2000, 5000],
    "memory_cycles": 3,
    "memory_cycle_n": 2000,
    "ratio_load": 200,
    "ratio_duration": 15.0,
    "ratio_rounds": 2,
    "work_turns": 30,
    "side_load": 50,
    "side_rounds": 3,
    "side_duration": 20.0,
    "side_200_load": 200,
    "grid_rounds": capacity_grid.GRID_ROUNDS,
    "two_max": 1000,
}
QUICK = {
    "levels": [1, 20],
    "duration": 6.0,
    "warmup": 2.0,
    "capacity_duration": 6.0,
    "capacity_max": 40,
    "capacity_bisect": 0,
    "memory_points": [200, 400, 800],
    "memory_cycles": 1,
    "memory_cycle_n": 400,
    "ratio_load": 20,
    "ratio_duration": 5.0,
    "ratio_rounds": 1,
    "work_turns": 8,
    "side_load": 10,
    "side_rounds": 1,
    "side_duration": 6.0,
    "side_200_load": 20,
    "grid_rounds": 1,
    "two_max": 40,
}

_t_start = time.monotonic()


def log(msg: str) -> None:
    line = f"[{time.monotonic() - _t_start:7.1f}s] {msg}"
    print(line, flush=True)
    with open(OUT / "run.log", "a") as fh:
        fh.write(line + "\n")


def pct(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 2) if values else None


# --- one load run ----------------------------------------------------------------------------------


def settle(server: harness.Server, *, limit: float = 90.0) -> float:
    """Wait until the server is idle (under 3% CPU over half a second): an overloaded run
    leaves queued work behind, which must not be billed to the next run."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        before = harness.cpu_of(server)
        time.sleep(0.5)
        if harness.cpu_of(server) - before < 0.015 * len(server.pids):
            break
    return round(time.monotonic() - start, 1)


def idle_rate(server) -> float:
    """CPU seconds per second the idle server spends anyway (timers, keep-alives): taken
    off its CPU before dividing by the messages answered."""
    before, t0 = harness.cpu_of(server), time.monotonic()
    time.sleep(1.0)
    return (harness.cpu_of(server) - before) / (time.monotonic() - t0)


KNOWLEDGE_CATALOGUE = Path(__file__).parent / "heldout" / "retrieval" / "catalogue.jsonl"


def knowledge_site(env: dict, cwd: Path | None = None) -> str:
    """A second site with the held-out catalogue (161 shop pages and products, EN and DE)
    imported and every chunk embedded by the embedded model before the load starts: the
    product then takes the default path of a shop with knowledge (the message embedded, the
    context built after the ack, issue 26)."""
    key = harness.site_create(env=env, cwd=cwd, name="bench knowledge")
    harness.manage(
        ["knowledge_import", "--skip-checks", "--site", key, str(KNOWLEDGE_CATALOGUE)],
        env=env,
        timeout=300,
        cwd=cwd,
    )
    embed = (
        "from chatwidget.sites.models import Site; "
        "from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_pending; "
        f"print(knowledge_embed_pending(site_id=Site.objects.get(key={key!r}).pk))"
    )
    harness.manage(["shell", "-c", embed], env=env, timeout=600, cwd=cwd)
    return key


def load_run(
    procs: Procs,
    server: harness.Server,
    ws_url: str,
    n: int,
    *,
    interval: float,
    duration: float,
    model_ms: float,
    llm_pid: int | None,
    warmup: float | None = None,
) -> dict:
    waited = settle(server)
    if waited > 5:
        log(f"  (waited {waited} s for {server.name} to finish the previous run's work)")
    ramp = max(2.0, n / 100)
    if warmup is None:
        warmup = interval  # every conversation's first (costlier, creating) message is warm-up
    idle = idle_rate(server)
    pids = {"llm": llm_pid} if llm_pid else {}
    cpu0 = {k: harness.cpu_seconds(p) for k, p in pids.items()}
    server0 = harness.cpu_of(server)
    machine0 = harness.machine_cpu()
    wall0 = time.monotonic()
    data = harness.run_client(
        procs,
        [
            "active",
            "--url",
            ws_url,
            "--conversations",
            str(n),
            "--interval",
            str(interval),
            "--ramp",
            str(ramp),
            "--warmup",
            str(warmup),
            "--duration",
            str(duration),
            "--cpu-pids",
            ",".join(str(p) for p in server.pids),
        ],
        timeout=ramp + warmup + duration + 120,
    )
    wall = time.monotonic() - wall0
    cpu = {k: round(100 * (harness.cpu_seconds(p) - cpu0[k]) / wall, 1) for k, p in pids.items()}
    server_s = harness.cpu_of(server) - server0
    cpu["server"] = round(100 * server_s / wall, 1)
    machine1 = harness.machine_cpu()
    # the whole machine's busy CPU, in % of one core; minus ours = everyone else's (the
    # database's share of our work is in "others" too: it runs as the postgres user)
    machine_pct = round(100 * (machine1[0] - machine0[0]) / wall, 1)
    ours = cpu["server"] + cpu.get("llm", 0) + 100 * data["client_cpu_s"] / wall
    overhead = [f - model_ms for f in data["first_ms"]]
    row = {
        "server": server.name,
        "conversations": n,
        "interval_s": interval,
        "samples": len(overhead),
        "overhead_p50": pct(overhead, 50),
        "overhead_p95": pct(overhead, 95),
        "overhead_p99": pct(overhead, 99),
        "overhead_max": round(max(overhead), 2) if overhead else None,
        "ack_p50": pct(data["ack_ms"], 50),
        "ack_p99": pct(data["ack_ms"], 99),
        "answer_p50": pct(data["total_ms"], 50),
        "frames_per_answer": pct(data.get("frames") or [], 50),
        "client_lag_p99": pct(data["client_lag_ms"], 99),
        "client_cpu_pct": round(100 * data["client_cpu_s"] / wall, 1),
        "server_cpu_pct": cpu["server"],
        "answered": data.get("answered"),
        # steady state only: the servers' CPU inside the window, less their idle rate
        "cpu_ms_per_msg": (
            round(
                1000 * max(0.0, data["server_window_cpu_s"] - idle * duration) / data["answered"], 2
            )
            if data.get("answered")
            else None
        ),
        "llm_cpu_pct": cpu.get("llm"),
        "machine_cpu_pct": machine_pct,
        "other_cpu_pct": round(max(0.0, machine_pct - ours), 1),
        "loadavg": harness.loadavg(),
        "connected": data["connected"],
        "connect_failed": data["connect_failed"],
        "skipped_slots": data["skipped_slots"],
        "errors": data["errors"],
        "overhead_ms": [round(v, 2) for v in overhead],
    }
    log(
        f"  {server.name} n={n}: samples={row['samples']} overhead p50={row['overhead_p50']} "
        f"p95={row['overhead_p95']} p99={row['overhead_p99']} ms; ack p50={row['ack_p50']}; "
        f"cpu/msg={row['cpu_ms_per_msg']} ms; cpu server={row['server_cpu_pct']}% llm={row['llm_cpu_pct']}% "
        f"client={row['client_cpu_pct']}% machine={row['machine_cpu_pct']}% of {os.cpu_count()}00%; "
        f"errors={row['errors'] or 0}"
    )
    return row


# --- sections -----------------------------------------------------------------------------------


def section_capacity(
    procs,
    server,
    ws_url,
    llm_pid,
    cfg,
    levels: list[dict],
    cap_max: int | None = None,
) -> dict:
    """The largest number of conversations (a message every 5 s) at which the p99 overhead
    stays within P99_CAPACITY_MS: doubling, then bisecting (the side's capacity against the
    floor is capacity_grid.py's). Bisection never measures a level
    again: rounded to 25 above 100 conversations, a midpoint that is a level already
    measured is rounded to 5 instead, and bisection ends when that one was measured too.
    (Until 2026-12-06 it measured again and the second reading replaced the first: the
    product's p99 at 100 read 36.7 ms, within the line, then 51.7, and the later one
    halved the capacity found.)"""
    tried = {
        r["conversations"]: r
        for r in levels
        if r["interval_s"] == 5.0 and r["server"] == server.name
    }

    def ok(row: dict) -> bool:
        return (
            row["overhead_p99"] is not None
            and row["overhead_p99"] <= P99_CAPACITY_MS
            and row["samples"] > 0
            and not row["connect_failed"]
            and not row["errors"].get("timeout")
        )

    def measure(n: int) -> dict:
        log(f"capacity: {n} conversations")
        row = load_run(
            procs,
            server,
            ws_url,
            n,
            interval=5.0,
            duration=cfg["capacity_duration"],
            model_ms=MODEL_FIRST_TOKEN_MS,
            llm_pid=llm_pid,
            warmup=cfg.get("warmup"),
        )
        tried[n] = row
        return row

    def bounds() -> tuple[int, int | None]:
        good = [n for n, r in tried.items() if ok(r)]
        best = max(good) if good else 0
        bad = [n for n, r in tried.items() if not ok(r) and n > best]
        return best, (min(bad) if bad else None)

    best, worst = bounds()
    cap_max = cap_max or cfg["capacity_max"]
    while worst is None and best < cap_max:
        measure(min(cap_max, max(best * 2, 50)))
        best, worst = bounds()
    for _ in range(cfg["capacity_bisect"]):
        if worst is None or worst - best <= max(5, best // 5):
            break
        mid = (best + worst) // 2
        level = int(round(mid / 25.0)) * 25 if mid > 100 else max(1, mid)
        if level in tried:
            level = int(round(mid / 5.0)) * 5
        if level in tried:
            break
        measure(level)
        best, worst = bounds()
    return {
        "largest_ok": best,
        "first_failing": worst,
        "p99_limit_ms": P99_CAPACITY_MS,
        "runs": sorted(
            ({k: v for k, v in r.items() if k != "overhead_ms"} for r in tried.values()),
            key=lambda r: r["conversations"],
        ),
    }


def section_ratios(
    procs, servers: dict[str, harness.Server], urls: dict[str, str], llm_pid, cfg, load: int
) -> dict:
    runs: dict[str, list[dict]] = {name: [] for name in servers}
    order = list(servers)
    for rnd in range(cfg["ratio_rounds"]):
        for name in order:
            log(f"ratios round {rnd + 1}: {name} ({load} conversations)")
            runs[name].append(
                load_run(
                    procs,
                    servers[name],
                    urls[name],
                    load,
                    interval=5.0,
                    duration=cfg["ratio_duration"],
                    model_ms=0.0 if name == "echo" else MODEL_FIRST_TOKEN_MS,
                    llm_pid=llm_pid,
                    warmup=cfg.get("warmup"),
                )
            )

    def med(name: str, key: str) -> float | None:
        vals = [r[key] for r in runs.get(name, []) if r[key] is not None]
        return round(float(np.median(vals)), 2) if vals else None

    summary = {
        name: {
            "overhead_p50": med(name, "overhead_p50"),
            "overhead_p99": med(name, "overhead_p99"),
            "server_cpu_pct": med(name, "server_cpu_pct"),
        }
        for name in runs
    }

    def ratio(a: str, b: str, key: str) -> float | None:
        x, y = summary.get(a, {}).get(key), summary.get(b, {}).get(key)
        return round(x / y, 2) if x is not None and y not in (None, 0) else None

    pairs = [
        ("product (Daphne, in-memory)", "product", "echo (Daphne)", "echo"),
        ("Redis layer", "redis", "in-memory layer", "product"),
        ("uvicorn", "uvicorn", "Daphne", "product"),
    ]
    ratios = [
        {
            "a": la,
            "b": lb,
            "p50_ratio": ratio(a, b, "overhead_p50"),
            "p99_ratio": ratio(a, b, "overhead_p99"),
            "a_p50": summary.get(a, {}).get("overhead_p50"),
            "b_p50": summary.get(b, {}).get("overhead_p50"),
            "a_p99": summary.get(a, {}).get("overhead_p99"),
            "b_p99": summary.get(b, {}).get("overhead_p99"),
        }
        for la, a, lb, b in pairs
        if a in runs and b in runs
    ]
    return {
        "load": load,
        "rounds": cfg["ratio_rounds"],
        "order": order,
        "summary": summary,
        "ratios": ratios,
        "runs": {
            k: [{x: y for x, y in r.items() if x != "overhead_ms"} for r in v]
            for k, v in runs.items()
        },
    }


def section_work(env: dict, site_key: str, turns: int) -> dict:
    out = OUT / "work.json"
    out.unlink(missing_ok=True)
    done = subprocess.run(
        [
            PY,
            "-m",
            "tests.bench.work",
            f"--site-key={site_key}",
            "--turns",
            str(turns),
            "--out",
            str(out),
        ],
        cwd=harness.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if not out.exists():
        raise RuntimeError(f"work probe exited {done.returncode}: {done.stderr[-1500:]}")
    return json.loads(out.read_text())


def section_context(env: dict, quick: bool, database_url: str) -> dict:
    """bench_context.main() makes its own test database from the test settings: on the bench's
    PostgreSQL server (as test_bench) when there is one."""
    env = {
        **env,
        "DJANGO_SETTINGS_MODULE": "chatwidget.settings.test",
        "TEST_DB_NAME": "test_bench",
    }
    if database_url.startswith("postgres"):
        env["TEST_DATABASE_URL"] = database_url
    else:
        env.pop("TEST_DATABASE_URL", None)
    out = OUT / "context.json"
    out.unlink(missing_ok=True)
    args = [PY, "-m", "tests.bench.context_hook", "--out", str(out)] + (
        ["--quick"] if quick else []
    )
    try:
        done = subprocess.run(
            args, cwd=harness.ROOT, env=env, capture_output=True, text=True, timeout=600
        )
    except subprocess.TimeoutExpired:
        return {"available": False, "reason": "bench_context.main() ran past 600 s"}
    if not out.exists():
        return {
            "available": False,
            "reason": f"context hook exited {done.returncode}: {done.stderr[-500:]}",
        }
    return json.loads(out.read_text())


# --- the run --------------------------------------------------------------------------------------


def machine() -> dict:
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        mem = open("/proc/meminfo").readline().split(":", 1)[1].strip()
    except OSError:
        pass
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=harness.ROOT,
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        commit = ""
    return {
        "cores": os.cpu_count(),
        "cpu": model,
        "memory": mem,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "commit": commit,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a ~2-minute smoke run")
    parser.add_argument(
        "--only", default=",".join(SECTIONS), help=f"comma-separated subset of {','.join(SECTIONS)}"
    )
    parser.add_argument("--levels", default="", help="override the overhead levels, e.g. 1,200")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="profile product and floor with py-spy at N conversations "
        "(out/profile-<server>-N.txt, -top.txt)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="DIR",
        help="another checkout of the product (e.g. `git worktree add DIR "
        "HEAD~3`) run next to this one in every load run: before/after "
        "in one run on one machine",
    )
    parser.add_argument(
        "--words",
        type=int,
        default=MODEL_WORDS,
        help="the fake model's answer length (the bench before issue 14: 30)",
    )
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="run the product on the embedded defaults (file cache, in-memory channel layer) "
        "instead of as deployed (Redis cache and channel layer)",
    )
    parser.add_argument(
        "--also-embedded",
        action="store_true",
        help="run the product on the embedded defaults too, next to the deployed one, in the "
        "side-by-side and profile sections (server `embedded`)",
    )
    parser.add_argument(
        "--also-knowledge",
        action="store_true",
        help="a second site with the held-out catalogue imported and embedded (the default "
        "path of a shop with knowledge: the message embedded, the context built after the "
        "ack), run as server `knowledge` (the product's process) in `side` and `profile`",
    )
    args = parser.parse_args(argv)
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    cfg = dict(QUICK if args.quick else FULL)
    if args.levels:
        cfg["levels"] = [int(x) for x in args.levels.split(",")]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "run.log").unlink(missing_ok=True)
    harness.raise_nofile()
    results: dict = {
        "meta": {
            "started": dt.datetime.now().isoformat(timespec="seconds"),
            "mode": "quick" if args.quick else "full",
            "sections": sorted(only),
            "config": cfg,
            "machine": machine(),
            "model": {
                "first_token_ms": MODEL_FIRST_TOKEN_MS,
                "token_ms": MODEL_TOKEN_MS,
                "words": args.words,
            },
        }
    }
    procs = Procs()
    status = 0
    try:
        db_url, db_desc = harness.database_prepare(log)
        results["meta"]["database"] = db_desc
        log(f"database: {db_desc}")
        env = harness.server_env(database_url=db_url, llm_port=1)
        harness.manage(["migrate", "--noinput", "-v", "0", "--skip-checks"], env=env)
        site_key = harness.site_create(env=env)
        llm_port, llm = harness.start_fakellm(
            procs, first_token_ms=MODEL_FIRST_TOKEN_MS, token_ms=MODEL_TOKEN_MS, words=args.words
        )
        # the product as deployed (README, deploy/): PostgreSQL, Redis for the cache and the
        # channel layer. --embedded: the demo's defaults (a file cache, in-memory layer)
        deployed = not args.embedded and harness.redis_available()
        results["meta"]["product_config"] = "deployed (Redis)" if deployed else "embedded"
        log(f"product configuration: {results['meta']['product_config']}")
        env = harness.server_env(database_url=db_url, llm_port=llm_port, redis=deployed)
        product = harness.start_server(procs, name="product", env=env)
        url = f"{product.ws_base}/ws/chat/{site_key}/"
        log(f"site {site_key}; product on :{product.port}; fake model on :{llm_port}")

        if "weight" in only:
            results["weight"] = weight.measure(
                f"http://127.0.0.1:{product.port}/widget/v1/{site_key}/config.json?lang=en"
            )
            log(f"weight: loader {results['weight']['loader']}, whole {results['weight']['whole']}")

        if "work" in only:
            results["work"] = section_work(env, site_key, cfg["work_turns"])
            log(f"work per turn before the model call: {results['work']['before_model']}")

        servers = {"product": product}
        keys = {}
        benv: dict | None = None
        if args.baseline:  # another checkout (e.g. the commit before a change), its own database
            base_url, _ = harness.database_prepare(log, name=harness.PG_DB + "_baseline")
            benv = harness.server_env(database_url=base_url, llm_port=llm_port, redis=deployed)
            harness.manage(
                ["migrate", "--noinput", "-v", "0", "--skip-checks"], env=benv, cwd=args.baseline
            )
            keys["baseline"] = harness.site_create(env=benv, cwd=args.baseline)
            servers["baseline"] = harness.start_server(
                procs, name="baseline", env=benv, cwd=args.baseline
            )
            log(f"baseline: {args.baseline} on :{servers['baseline'].port}")
        if only & {"floor", "side", "profile"}:
            servers["floor"] = floor.start_floor(procs, env=env)
        if args.also_knowledge and only & {"overhead", "side", "profile"}:
            # the same process, named apart: a site with knowledge (the baseline's too)
            for name, of, cwd, env_of in (
                ("knowledge", "product", None, env),
                ("baseline-knowledge", "baseline", args.baseline, benv),
            ):
                if of in servers:
                    keys[name] = knowledge_site(env_of, cwd=cwd)
                    servers[name] = dataclasses.replace(servers[of], name=name)
                    log(f"{name}: site {keys[name]} on the {of}'s process")
        if args.also_embedded and deployed and only & {"side", "profile"}:
            servers["embedded"] = harness.start_server(
                procs,
                name="embedded",
                env=harness.server_env(database_url=db_url, llm_port=llm_port),
            )

        def run(name: str, n: int, duration: float | None = None) -> dict:
            interval = 1.0 if n == 1 else 5.0
            log(f"{name}: {n} conversations (a message every {interval:g} s)")
            key = keys.get(name, site_key)
            return load_run(
                procs,
                servers[name],
                f"{servers[name].ws_base}/ws/chat/{key}/",
                n,
                interval=interval,
                duration=duration or cfg["duration"],
                model_ms=MODEL_FIRST_TOKEN_MS,
                llm_pid=llm.pid,
                warmup=cfg.get("warmup"),
            )

        levels: list[dict] = []
        if only & {"overhead", "capacity", "floor"}:
            for n in cfg["levels"]:  # the floor's run right after the product's, same load
                levels += [
                    run(name, n)
                    for name in servers
                    if (name != "floor" or "floor" in only) and name != "embedded"
                ]
            results["overhead"] = levels
        if "capacity" in only:
            results["capacity"] = section_capacity(procs, product, url, llm.pid, cfg, levels)
            log(f"capacity: largest ok {results['capacity']['largest_ok']}")
        if "side" in only:
            results["side"] = floor.side_by_side(
                lambda name, n: run(name, n, cfg["side_duration"]),
                servers=servers,
                rounds=cfg["side_rounds"],
                n=cfg["side_load"],
            )
            log(f"side by side: {results['side']['ratios']}")
            if "floor" in servers:
                # issue 30: capacity at p99 within twice the floor's (from the rounds above),
                # product and floor alike; then CPU per message at 200, side by side
                limit = floor.capacity_limit(results["side"])
                results["side_capacity"] = capacity_grid.capacity_grid(
                    lambda name, n: run(name, n, cfg["side_duration"]),
                    names=("product", "floor"),
                    limit_ms=limit,
                    start=results["side"]["grid_start"],
                    top=cfg["capacity_max"],
                    rounds=cfg["grid_rounds"],
                )
                log(f"capacity at p99 <= {limit} ms: {floor.capacity_summary(results)}")
                results["side_200"] = floor.side_by_side(
                    lambda name, n: run(name, n, cfg["side_duration"]),
                    servers={k: v for k, v in servers.items() if k in ("product", "floor")},
                    rounds=1,
                    n=cfg["side_200_load"],
                )
        if "profile" in only or args.profile:
            n = args.profile or cfg["side_load"]
            results["profiles"] = [
                cpuprofile.profile_run(
                    procs,
                    servers[name],
                    "",
                    n,
                    lambda name=name: run(name, n),
                    duration=cfg["duration"],
                )
                for name in servers
            ]
        for name in ("floor", "baseline", "embedded"):
            if name in servers:
                procs.stop(servers.pop(name).proc)
        if "two" in only and harness.redis_available():
            renv = harness.server_env(database_url=db_url, llm_port=llm_port, redis=True)
            one, two = (harness.start_server(procs, name=f"redis-{i}", env=renv) for i in (1, 2))
            group = harness.ServerGroup(name="redis-two", members=[one, two])
            path = f"/ws/chat/{site_key}/"

            def capacity(server, ws_url: str) -> dict:
                return section_capacity(
                    procs, server, ws_url, llm.pid, cfg, [], cap_max=cfg["two_max"]
                )

            results["two"] = floor.two_processes(
                capacity,
                one=one,
                two=group,
                url_one=one.ws_base + path,
                url_two=f"{one.ws_base}{path},{two.ws_base}{path}",
            )
            log(f"two processes: x{results['two']['ratio']}")
            procs.stop(one.proc)
            procs.stop(two.proc)
            # the floor alike: what a second process can add on this machine at all
            f_one, f_two = (floor.start_floor(procs, env=env, name=f"floor-{i}") for i in (1, 2))
            results["two_floor"] = floor.two_processes(
                capacity,
                one=f_one,
                two=harness.ServerGroup(name="floor-two", members=[f_one, f_two]),
                url_one=f_one.ws_base + path,
                url_two=f"{f_one.ws_base}{path},{f_two.ws_base}{path}",
            )
            log(f"two floor processes: x{results['two_floor']['ratio']}")
            procs.stop(f_one.proc)
            procs.stop(f_two.proc)

        if "ratios" in only:
            servers = {
                "product": product,
                "echo": harness.start_server(
                    procs, name="echo", env=env, wait=False, app="tests.bench.echo_app:app"
                ),
            }
            if harness.redis_available():
                servers["redis"] = harness.start_server(
                    procs,
                    name="redis",
                    wait=False,
                    env=harness.server_env(database_url=db_url, llm_port=llm_port, redis=True),
                )
            else:
                log("Redis not available: the channel-layer ratio is skipped")
            servers["uvicorn"] = harness.start_server(
                procs, name="uvicorn", env=env, kind="uvicorn", wait=False
            )
            for server in servers.values():
                harness.wait_port(server.port, server.proc, timeout=90)
            urls = {name: (f"{s.ws_base}/ws/chat/{site_key}/") for name, s in servers.items()}
            # compare below saturation: a saturated server measures its queue, not its cost
            load = cfg["ratio_load"]
            if results.get("capacity"):
                load = max(5, min(load, results["capacity"]["largest_ok"]))
            results["ratios"] = section_ratios(procs, servers, urls, llm.pid, cfg, load)
            for name, server in servers.items():
                if name != "product":
                    procs.stop(server.proc)

        if "memory" in only:
            procs.stop(product.proc)  # a fresh process: RSS is not polluted by the load runs
            fresh = harness.start_server(procs, name="product-idle", env=env)
            log("memory: idle connections (product, Daphne)")
            mem = {
                "product": idlemem.memory_profile(
                    procs, fresh, f"{fresh.ws_base}/ws/chat/{site_key}/", cfg, cycles=True
                )
            }
            procs.stop(fresh.proc)
            echo = harness.start_server(
                procs, name="echo-idle", env=env, app="tests.bench.echo_app:app"
            )
            log("memory: idle connections (echo app, Daphne: the server's own share)")
            mem["echo"] = idlemem.memory_profile(
                procs, echo, f"{echo.ws_base}/ws/chat/{site_key}/", cfg, cycles=False
            )
            procs.stop(echo.proc)
            results["memory"] = mem

        if "context" in only:
            log("context: tests.bench.bench_context.main()")
            results["context"] = section_context(env, args.quick, db_url)
            log(f"context: available={results['context'].get('available')}")
    except Exception as exc:  # write what we have, then fail
        status = 1
        results["error"] = f"{type(exc).__name__}: {exc}"
        log("FAILED: " + traceback.format_exc())
    finally:
        procs.stop_all()
        harness.redis_flush()
        results["meta"]["finished"] = dt.datetime.now().isoformat(timespec="seconds")
        results["meta"]["wall_s"] = round(time.monotonic() - _t_start, 1)
    paths = report.write(results)
    # the figures of issue 14 on the terminal: targets with the floor, levels, side by side,
    # the CPU breakdown, one process and two (all of it, and more, in out/results.md)
    print(
        "\n"
        + "\n".join(
            floor.markdown(results)
            + (cpuprofile.markdown(results["profiles"]) if results.get("profiles") else [])
        )
    )
    log("report: " + ", ".join(str(p.relative_to(harness.ROOT)) for p in paths))
    return status


if __name__ == "__main__":
    sys.exit(main())
