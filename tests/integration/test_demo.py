"""`manage.py demo` as a newcomer runs it: real processes, real ports, real signals.

Each test starts the command in its own folder (RUN_DIR, SQLite) on free ports, so it never
meets a developer's running demo.
"""

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from chatwidget.supervise import port_is_free
from tests.procs import free_port, migrated_sqlite

ROOT = Path(__file__).resolve().parents[2]
BANNER_END = "Stop with Ctrl-C."
# What a newcomer must not meet in the terminal: warnings, deprecations, missing files, the
# JSON lines meant for log collectors, Celery's ASCII banner, Daphne's access log (a format of
# its own, a line per static file).
NOISE = re.compile(
    r"warn(ing)?\b|deprecat|not found|no directory|no hostname|http/2|\{\"ts\"|"
    r"-------------- celery@|\] \"GET /",
    re.IGNORECASE,
)
# Celery warns a worker that runs as root (containers, CI); on a desk this line does not come.
ROOT_WARNING = "running the worker with superuser privileges"

pytestmark = pytest.mark.integration


class Demo:
    def __init__(self, run_dir: Path, *extra: str) -> None:
        self.port, self.shop_port = free_port(), free_port()
        env = {
            k: v
            for k, v in os.environ.items()
            if k
            not in (
                "REDIS_URL",
                "CELERY_BROKER_URL",
                "OPENAI_API_KEY",
                "LOG_FORMAT",
                "DEBUG",
                "CELERY_FILESYSTEM_BROKER_DIR",
                "DATABASE_URL",
            )
        }
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
                "RUN_DIR": str(run_dir),
                "DATABASE_URL": f"sqlite:///{run_dir / 'demo.sqlite3'}",
                "DEMO_PORT": str(self.port),
                "DEMO_SHOP_PORT": str(self.shop_port),
                "PYTHONUNBUFFERED": "1",
            }
        )
        self.env = env
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "demo", *extra],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            self._queue.put(line)
        self._queue.put(None)

    def wait_for(self, text: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"demo exited before {text!r}:\n" + self.output)
            if text in line:
                return
        raise AssertionError(f"no {text!r} after {timeout}s:\n" + self.output)

    def wait_exit(self, timeout: float = 60) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            time.sleep(0.2)  # the reader takes the last lines

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def children(self) -> list[psutil.Process]:
        return psutil.Process(self.proc.pid).children(recursive=True)

    def kill(self) -> None:
        for child in self.children() if self.proc.poll() is None else []:
            child.kill()
        self.proc.kill()


def listens(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """One migrated SQLite database for the module (a copy of the suite's migrated template):
    each demo start then skips the work."""
    path = tmp_path_factory.mktemp("demo-run")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local"}
    migrated_sqlite(path / "demo.sqlite3", env)
    return path


@pytest.fixture
def demo(run_dir):
    started = []

    def start(*extra: str) -> Demo:
        started.append(Demo(run_dir, *extra))
        return started[-1]

    yield start
    for d in started:
        if d.proc.poll() is None:
            d.kill()


def assert_all_gone(pids: list[psutil.Process], *ports: int) -> None:
    gone, alive = psutil.wait_procs(pids, timeout=5)
    assert not alive, f"left running: {[(p.pid, p.cmdline()) for p in alive]}"
    for port in ports:
        assert port_is_free(port), f"port {port} still taken"


def test_banner_after_everything_listens_no_noise_and_sigterm_stops_all(demo):
    d = demo()
    d.wait_for(BANNER_END)
    # The banner is printed only once both servers accept connections and the worker is up.
    assert listens(d.port) and listens(d.shop_port)
    children = d.children()
    commands = [" ".join(c.cmdline()) for c in children]
    assert any("daphne" in c for c in commands)
    assert any("demoshop" in c for c in commands)
    assert any("celery" in c and "worker" in c for c in commands)
    # Django's checks ran in the supervisor: its children do not run them again
    assert any("demoshop" in c and "--skip-checks" in c for c in commands)
    worker = next(p for p, c in zip(children, commands, strict=True) if "worker" in c)
    assert worker.environ().get("CELERY_SKIP_CHECKS") == "1"
    banner = d.output
    assert banner.count("Demo shop:") == 1
    # Nothing but the banner before the logs (as root, Celery's warning about it may come).
    before = d.lines[: next(i for i, line in enumerate(d.lines) if "Demo shop:" in line)]
    if os.geteuid() == 0 and any(ROOT_WARNING in line for line in before):
        start = next(i for i, line in enumerate(before) if ROOT_WARNING in line)
        before = before[:start] + before[start + 5 :]  # the warning's five lines
    assert [line for line in before if line.strip()] == [], d.output
    assert f"http://127.0.0.1:{d.shop_port}/" in banner
    assert f"http://127.0.0.1:{d.port}/admin/" in banner
    password = (Path(d.env["RUN_DIR"]) / "admin-password.txt").read_text().strip()
    assert f"user admin, password {password}" in banner
    # `/` is a page of its own, not Django's DEBUG 404.
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{d.port}/", timeout=10) as response:
        assert response.status == 200
        assert "Shop chat assistant" in response.read().decode()

    d.proc.send_signal(signal.SIGTERM)
    assert d.wait_exit() == 0, d.output
    assert_all_gone(children, d.port, d.shop_port)
    noisy = [
        line
        for line in d.lines
        if NOISE.search(line) and not (os.geteuid() == 0 and ROOT_WARNING in line)
    ]
    assert noisy == [], d.output
    assert d.lines[-1] == "Stopped."


def test_a_child_that_dies_stops_the_others_with_a_message(demo):
    d = demo()
    d.wait_for(BANNER_END)
    children = d.children()
    shop = next(c for c in children if "demoshop" in " ".join(c.cmdline()))
    shop.kill()
    assert d.wait_exit() == 1, d.output
    assert "shop (the demo shop) stopped unexpectedly: killed by SIGKILL." in d.output
    assert "Stopping the other processes." in d.output
    assert_all_gone(children, d.port, d.shop_port)


def test_a_taken_port_is_reported_with_the_process_that_holds_it(demo):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        d = demo("--port", str(taken))
        assert d.wait_exit(timeout=60) == 1
    assert f"Port {taken} is already in use by process {os.getpid()} (" in d.output
    assert "--port N" in d.output
    assert "Demo shop:" not in d.output
