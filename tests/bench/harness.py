"""Processes under test: the database, the fake model, Daphne/uvicorn servers, load clients.

Every child is started in its own process group, with a raised open-file limit, and is
always stopped (SIGTERM, then SIGKILL) by `Procs.stop_all()` in a `finally`.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "bench" / "out"
PY = sys.executable
ORIGIN = "http://bench.local"
PG_ADMIN_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PG_DB = os.environ.get("BENCH_PG_DB", "bench_chatwidget")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
NOFILE = 65536


def child_json(
    checkout: Path, module: str, args: list[str], *, env: dict | None = None, timeout: float = 600
) -> dict:
    """`python -m module args` run in `checkout` with its own code on sys.path (a bench's
    `--baseline` side, or this checkout's), and the JSON object its last line prints."""
    done = subprocess.run(
        [PY, "-m", module, *args],
        cwd=checkout,
        env={**(os.environ if env is None else env), "PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def raise_nofile() -> int:
    """Raise RLIMIT_NOFILE as far as the hard limit allows; returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = NOFILE if hard == resource.RLIM_INFINITY else min(NOFILE, hard)
    if soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            return soft
        return want
    return soft


def _preexec() -> None:
    os.setpgid(0, 0)
    raise_nofile()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listening on {port} after {timeout}s")


def rss_kib(pid: int) -> int:
    """VmRSS of a process, in KiB, from /proc/<pid>/status."""
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmRSS:\s+(\d+)\s+kB", text, re.M)
    return int(match.group(1)) if match else 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all threads), from /proc/<pid>/stat."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields) - idle) / ticks, sum(fields) / ticks


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


# --- the database -------------------------------------------------------------------------------


def database_prepare(log, name: str = PG_DB) -> tuple[str, str]:
    """A fresh PostgreSQL database for the bench, or a SQLite file when PostgreSQL is absent.
    Returns (DATABASE_URL, description)."""
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
            version = conn.execute("SHOW server_version").fetchone()[0]
        url = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
        return url, f"PostgreSQL {version} ({name})"
    except Exception as exc:  # any failure means: no PostgreSQL here
        log(f"PostgreSQL not available ({type(exc).__name__}); falling back to SQLite")
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"{name}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return f"sqlite:///{path}", "SQLite (PostgreSQL absent)"


def redis_available() -> bool:
    try:
        import redis

        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
        client.flushdb()  # db 7 belongs to the bench
        return True
    except Exception:
        return False


def redis_flush() -> None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2).flushdb()
    except Exception:
        pass


# --- processes ----------------------------------------------------------------------------------


@dataclass
class Server:
    name: str
    port: int
    proc: subprocess.Popen
    log_path: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def pids(self) -> list[int]:
        return [self.proc.pid]

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@dataclass
class ServerGroup:
    """Several server processes measured as one (the load client spreads conversations
    over their URLs, as the proxy would)."""

    name: str
    members: list[Server]

    @property
    def pid(self) -> int:
        return self.members[0].pid

    @property
    def pids(self) -> list[int]:
        return [m.pid for m in self.members]


def cpu_of(server) -> float:
    """CPU seconds of a server or a group of them."""
    return sum(cpu_seconds(pid) for pid in server.pids)


@dataclass
class Procs:
    children: list[subprocess.Popen] = field(default_factory=list)
    files: list = field(default_factory=list)

    def popen(
        self,
        args: list[str],
        *,
        env: dict,
        log_path: Path | None = None,
        stdin=None,
        stdout=None,
        cwd: Path | None = None,
    ) -> subprocess.Popen:
        handle = None
        if log_path is not None:
            handle = open(log_path, "ab")  # closed in stop_all
            self.files.append(handle)
        proc = subprocess.Popen(
            args,
            cwd=cwd or ROOT,
            env=env,
            stdin=stdin,
            stdout=stdout if stdout is not None else (handle or subprocess.DEVNULL),
            stderr=handle or subprocess.DEVNULL,
            preexec_fn=_preexec,
        )
        self.children.append(proc)
        return proc

    def stop(self, proc: subprocess.Popen, timeout: float = 10) -> None:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(5)
        if proc in self.children:
            self.children.remove(proc)

    def stop_all(self) -> None:
        for proc in reversed(list(self.children)):
            try:
                self.stop(proc)
            except Exception:  # keep stopping the others
                pass
        for handle in self.files:
            handle.close()
        self.files.clear()


def server_env(*, database_url: str, llm_port: int, redis: bool = False) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("REDIS_URL", "DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
            "DEBUG": "0",
            "DATABASE_URL": database_url,
            "CONN_MAX_AGE": os.environ.get("BENCH_CONN_MAX_AGE", "60"),
            "OPENAI_API_KEY": "bench",
            "OPENAI_BASE_URL": f"http://127.0.0.1:{llm_port}/v1",
            "RATE_LIMIT_PER_SESSION": "1000000/60",
            "RATE_LIMIT_PER_ADDRESS": "1000000/60",
            # every load client connects from 127.0.0.1: the per-address socket caps
            # (issue 15) would refuse all but the first 50 conversations
            "WS_MAX_SOCKETS_PER_ADDRESS": "1000000",
            "WS_MAX_SOCKETS_PER_NET64": "1000000",
            "WS_MAX_SOCKETS_PER_PROCESS": "1000000",
            "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "INFO"),
            "TIKTOKEN_CACHE_DIR": os.environ.get(
                "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
            ),
            "PYTHONUNBUFFERED": "1",
        }
    )
    if redis:
        env["REDIS_URL"] = REDIS_URL  # channel layer, cache and Celery broker: db 7, flushed
    else:
        # no worker runs in the bench: keep enqueued condensations in the process instead of
        # the shared .run/broker folder (the Redis run pays a real broker's enqueue cost)
        env["CELERY_BROKER_URL"] = "memory://"
    return env


def manage(args: list[str], *, env: dict, timeout: float = 300, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [PY, "manage.py", *args],
        cwd=cwd or ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def site_create(*, env: dict, cwd: Path | None = None, name: str = "bench") -> str:
    out = manage(
        ["createsite", "--skip-checks", "--name", name, "--origin", ORIGIN],
        env=env,
        timeout=120,
        cwd=cwd,
    )
    match = re.search(r"Site key:\s*(\S+)", out)
    if not match:
        raise RuntimeError(f"no site key in createsite output: {out!r}")
    return match.group(1)


def start_fakellm(
    procs: Procs, *, first_token_ms: float, token_ms: float, words: int
) -> tuple[int, subprocess.Popen]:
    port = free_port()
    proc = procs.popen(
        [
            PY,
            "-m",
            "tests.fakellm",
            "--port",
            str(port),
            "--first-token-ms",
            str(first_token_ms),
            "--token-ms",
            str(token_ms),
            "--words",
            str(words),
            "--no-record",
        ],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        log_path=OUT / "fakellm.log",
    )
    wait_port(port, proc, timeout=30)
    return port, proc


def start_server(
    procs: Procs,
    *,
    name: str,
    env: dict,
    kind: str = "daphne",
    app: str = "chatwidget.asgi:application",
    wrap: list[str] | None = None,
    wait: bool = True,
    cwd: Path | None = None,
) -> Server:
    """`kind`: daphne or uvicorn. `wrap`: a command prefix (e.g. py-spy record ... --).
    `cwd`: another checkout of the product (a baseline), run from its own directory."""
    port = free_port()
    if kind == "daphne":
        args = [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app]
        if os.environ.get("BENCH_SWITCH_INTERVAL"):  # experiment: GIL switch interval (s)
            args[1:3] = [
                "-c",
                "import sys; from daphne.cli import CommandLineInterface; "
                f"sys.setswitchinterval({float(os.environ['BENCH_SWITCH_INTERVAL'])}); "
                "sys.argv[0] = 'daphne'; CommandLineInterface.entrypoint()",
            ]
    elif kind == "uvicorn":
        args = [
            PY,
            "-m",
            "uvicorn",
            app,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--lifespan",
            "off",
            "--ws",
            "websockets",
            "--log-level",
            "warning",
            "--no-access-log",
        ]
    else:
        raise ValueError(kind)
    log_path = OUT / f"server-{name}.log"
    log_path.unlink(missing_ok=True)
    proc = procs.popen([*(wrap or []), *args], env=env, log_path=log_path, cwd=cwd)
    if wait:
        wait_port(port, proc, timeout=90)
    return Server(name=name, port=port, proc=proc, log_path=log_path)


def run_client(procs: Procs, args: list[str], *, timeout: float) -> dict:
    """Run the load client to completion; returns its JSON result."""
    result_path = OUT / f"client-{os.getpid()}-{time.monotonic_ns()}.json"
    proc = procs.popen(
        [PY, "-m", "tests.bench.loadclient", *args, "--out", str(result_path)],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        log_path=OUT / "client.log",
    )
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        procs.stop(proc)
        raise TimeoutError(f"load client ran past {timeout:.0f}s") from None
    procs.stop(proc)
    if not result_path.exists():
        raise RuntimeError(
            f"load client exited {proc.returncode} without a result (see out/client.log)"
        )
    data = json.loads(result_path.read_text())
    result_path.unlink()
    return data
