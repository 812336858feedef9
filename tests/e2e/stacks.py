"""The live stacks of the browser tests, without the fixtures (tests/e2e/conftest.py): Daphne,
the demo shop and the fake model on free ports, a database copied from the migrated template
(tests.procs.migrated_sqlite) and one Django process for the set-up steps (`Manage`).

Daphne starts as soon as the database is there, so it comes up while the stack's site is
created and its set-up steps run; the demo shop, which needs the site's key, starts after, in
a thread of the test process unless a test calls its API (`Servers.shop`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.proccount import note
from tests.procs import free_port, migrated_sqlite, wait_port

ROOT = Path(__file__).resolve().parents[2]
# Debian's Chromium, never a downloaded build: its headless shell where it is installed
# (package chromium-headless-shell: the same build without the browser's window layer, what
# playwright itself runs for headless tests; the browser tests spent 77 s of CPU with it
# against 140 s with the full browser), else the browser. E2E_CHROMIUM names another.
CHROMIUM_BUILDS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")


def chromium_path(environ=os.environ, builds=CHROMIUM_BUILDS) -> str:
    if environ.get("E2E_CHROMIUM"):
        return environ["E2E_CHROMIUM"]
    return next((path for path in builds if Path(path).exists()), builds[-1])


CHROMIUM = chromium_path()
START_TIMEOUT = 90.0  # seconds for a server to listen on a busy 2-core machine


def chromium_needed() -> None:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium-headless-shell)")


class Manage:
    """`manage.py` for one stack's set-up steps, in one Django process that stays up while the
    stack does (tests/e2e/manage_server.py) instead of a process per step."""

    def __init__(self, env: dict) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.manage_server"],  # from ROOT: tests importable
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def _ask(self, request: dict) -> str:
        note("manage-step-" + (request["args"][0] if "args" in request else "shell"))
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the manage server exited ({self.proc.wait(10)}) at {request}")
        answer = json.loads(line)
        if answer["error"]:
            raise RuntimeError(f"{request} failed:\n{answer['error']}{answer['out']}")
        return answer["out"]

    def command(self, *args: str) -> str:
        """What `manage.py *args` prints."""
        return self._ask({"args": list(args)})

    def shell(self, code: str) -> str:
        """What `manage.py shell -c code` prints."""
        return self._ask({"code": code})

    def site_create(self, name: str, origin: str, *more: str) -> str:
        """`manage.py createsite`: the new site's key."""
        out = self.command("createsite", "--name", name, "--origin", origin, *more)
        return re.search(r"Site key: (\S+)", out).group(1)

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@contextmanager
def managing(env: dict, database: Path):
    """A migrated database at `database` (the stack's DATABASE_URL) and a `Manage` for it."""
    migrated_sqlite(database, env)
    manage = Manage(env)
    try:
        yield manage
    finally:
        manage.close()


class Servers:
    """Daphne and demo shops as `manage.py demo` runs them, each started when it can be;
    `ready()` waits until all listen. Stopped on exit of `servers_running`, killed if they do
    not stop."""

    def __init__(self, env: dict, log) -> None:
        self.env, self.log = env, log
        self.procs: list[subprocess.Popen] = []
        self.ports: list[int] = []
        self.threads: list[ThreadingHTTPServer] = []

    def _start(self, port: int, args: list[str]) -> None:
        self.procs.append(
            subprocess.Popen(
                args, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT
            )
        )
        self.ports.append(port)

    def daphne(self, port: int) -> None:
        self._start(
            port,
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            + ["chatwidget.asgi:application"],
        )

    def shop(self, port: int, *, widget_url: str, site_key: str, api: bool = False) -> None:
        """The demo shop of `site_key`. Its pages need no process of their own: they are served
        from a thread of this one; only a shop whose API a test calls runs as `manage.py
        demoshop`, because the API checks the key of the environment it runs in."""
        if not api:
            from chatwidget.management.commands.demoshop import make_handler

            handler = make_handler(widget_url=widget_url, site_key=site_key, lang="en")
            server = ThreadingHTTPServer(("127.0.0.1", port), handler)
            threading.Thread(target=server.serve_forever, daemon=True, name="demoshop").start()
            self.threads.append(server)
            return
        self._start(
            port,
            [sys.executable, "manage.py", "demoshop", "--port", str(port)]
            + ["--widget-url", widget_url, f"--site-key={site_key}"],
        )

    def ready(self) -> None:
        for port, proc in zip(self.ports, self.procs, strict=True):
            wait_port(port, proc, timeout=START_TIMEOUT)

    def stop(self) -> None:
        for server in self.threads:
            server.shutdown()
            server.server_close()
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@contextmanager
def servers_running(env: dict, log):
    servers = Servers(env, log)
    try:
        yield servers
    finally:
        servers.stop()


@contextmanager
def serving(*, env: dict, port: int, shop_port: int, site_key: str, log):
    """Daphne and the demo shop of `site_key` on their ports, both listening."""
    with servers_running(env, log) as servers:
        servers.daphne(port)
        servers.shop(shop_port, widget_url=f"http://127.0.0.1:{port}", site_key=site_key, api=True)
        servers.ready()
        yield servers.procs


def stack_env(tmp: Path, **extra: str) -> dict:
    """The environment of a stack's processes: local settings (with a fast password hasher,
    tests/e2e/stack_settings.py) on the stack's SQLite file, no Redis (an in-memory channel
    layer in the one Daphne), `extra` over it."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.e2e.stack_settings",
        "DATABASE_URL": f"sqlite:///{tmp / 'e2e.sqlite3'}",
        "CELERY_BROKER_URL": "memory://",
        "DEBUG": "1",
        "PYTHONUNBUFFERED": "1",
        **extra,
        "TIKTOKEN_CACHE_DIR": os.environ.get(
            "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
        ),
    }
    env.pop("REDIS_URL", None)
    return env


@dataclass
class Stack:
    env: dict
    widget_url: str
    shop_url: str
    site_key: str
    fake: object
    log_path: Path
    procs: list = field(default_factory=list)
    steps: Manage | None = None

    def manage(self, *args: str) -> str:
        return self.steps.command(*args)

    def shell(self, code: str) -> str:
        return self.steps.shell(code)


@contextmanager
def stack_running(extra_env: dict):
    """Daphne, the demo shop and the fake model on free ports, with `extra_env` set."""
    chromium_needed()
    from tests.fakellm import FakeLLM

    fake = FakeLLM().start()
    tmp = Path(tempfile.mkdtemp(prefix="cw-e2e-"))
    port, shop_port = free_port(), free_port()
    model = {"OPENAI_API_KEY": "e2e-key", "OPENAI_BASE_URL": fake.base_url}
    env = stack_env(tmp, **model, LLM_MAX_RETRIES="0", **extra_env)
    stack = Stack(
        env=env,
        widget_url=f"http://127.0.0.1:{port}",
        shop_url=f"http://127.0.0.1:{shop_port}",
        site_key="",
        fake=fake,
        log_path=tmp / "server.log",
    )
    with ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, tmp, ignore_errors=True)
        cleanup.callback(fake.stop)
        stack.steps = cleanup.enter_context(managing(env, tmp / "e2e.sqlite3"))
        servers = cleanup.enter_context(
            servers_running(env, cleanup.enter_context(open(stack.log_path, "w")))
        )
        servers.daphne(port)
        stack.site_key = stack.steps.site_create(
            "E2E shop", stack.shop_url, "--base-url", stack.widget_url
        )
        servers.shop(shop_port, widget_url=stack.widget_url, site_key=stack.site_key)
        servers.ready()
        stack.procs = servers.procs
        yield stack


@dataclass
class DemoStack:
    """The demo as `make demo` runs it (demo mode: no model, the demo shop's API key), two
    sites on one Daphne, each with a demo shop of its own: `actions` for the shop-actions
    tests, `knowledge` for the knowledge test; each module sets up its own site (`steps`)."""

    server: str
    steps: Manage
    actions_shop: str
    actions_key: str
    knowledge_shop: str
    knowledge_key: str


@contextmanager
def demo_running():
    chromium_needed()
    tmp = Path(tempfile.mkdtemp(prefix="cw-e2e-demo-"))
    port, actions_port, knowledge_port = free_port(), free_port(), free_port()
    env = stack_env(
        tmp,
        OPENAI_API_KEY="",
        DEMO_SHOP_API_KEY="e2e-demo-shop-key",
        # what `manage.py demo` allows (step_egress): the shop on loopback, its key's variable
        EGRESS_ALLOW_HOSTS="127.0.0.1",
        SHOP_ACTION_ENV_ALLOW="DEMO_SHOP_API_KEY",
        RUN_DIR=str(tmp),  # its own file cache: site ids repeat across stacks
    )
    server = f"http://127.0.0.1:{port}"
    with ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, tmp, ignore_errors=True)
        steps = cleanup.enter_context(managing(env, tmp / "e2e.sqlite3"))
        servers = cleanup.enter_context(
            servers_running(env, cleanup.enter_context(open(tmp / "log", "w")))
        )
        servers.daphne(port)
        shops = {}
        for name, shop_port in (("actions", actions_port), ("knowledge", knowledge_port)):
            url = f"http://127.0.0.1:{shop_port}"
            shops[name] = (url, steps.site_create("Demo shop", url))
            servers.shop(
                shop_port, widget_url=server, site_key=shops[name][1], api=name == "actions"
            )
        servers.ready()
        yield DemoStack(server, steps, *shops["actions"], *shops["knowledge"])
