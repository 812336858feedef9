"""A live stack for real-browser tests: Daphne + the demo shop on a second origin + the fake
model, driven by Debian's Chromium through playwright (never a downloaded browser)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.procs import free_port, wait_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = pytest.mark.e2e


@dataclass
class Stack:
    env: dict
    widget_url: str
    shop_url: str
    site_key: str
    fake: object
    log_path: Path
    procs: list = field(default_factory=list)

    def manage(self, *args: str, input: str | None = None) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            input=input,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return out.stdout

    def shell(self, code: str) -> str:
        return self.manage("shell", "-c", code)


@pytest.fixture(scope="session")
def live_stack():
    # Staff presence (issue 18) is off here: these tests open the admin after the visitor
    # asked for a person; tests/e2e/test_inbox_browser.py runs a stack with it on.
    with stack_running({"STAFF_PRESENCE_REQUIRED": "0"}) as stack:
        yield stack


@contextmanager
def stack_running(extra_env: dict):
    """Daphne, the demo shop and the fake model on free ports, with `extra_env` set."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from tests.fakellm import FakeLLM

    fake = FakeLLM().start()
    tmp = Path(tempfile.mkdtemp(prefix="cw-e2e-"))
    port, shop_port = free_port(), free_port()
    log_path = tmp / "server.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
        "DATABASE_URL": f"sqlite:///{tmp / 'e2e.sqlite3'}",
        "OPENAI_API_KEY": "e2e-key",
        "OPENAI_BASE_URL": fake.base_url,
        "CELERY_BROKER_URL": "memory://",
        "LLM_MAX_RETRIES": "0",
        "DEBUG": "1",
        "PYTHONUNBUFFERED": "1",
        **extra_env,
        "TIKTOKEN_CACHE_DIR": os.environ.get(
            "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
        ),
    }
    env.pop("REDIS_URL", None)
    stack = Stack(
        env=env,
        widget_url=f"http://127.0.0.1:{port}",
        shop_url=f"http://127.0.0.1:{shop_port}",
        site_key="",
        fake=fake,
        log_path=log_path,
    )
    stack.manage("migrate", "--noinput")
    out = stack.manage(
        "createsite",
        "--name",
        "E2E shop",
        "--origin",
        stack.shop_url,
        "--base-url",
        stack.widget_url,
    )
    stack.site_key = re.search(r"Site key: (\S+)", out).group(1)
    log = open(log_path, "w")
    try:
        with serving(
            env=env, port=port, shop_port=shop_port, site_key=stack.site_key, log=log
        ) as procs:
            stack.procs = procs
            yield stack
    finally:
        log.close()
        fake.stop()
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def serving(*, env: dict, port: int, shop_port: int, site_key: str, log):
    """Daphne and the demo shop (showing the widget of `site_key`) on their ports, as
    `manage.py demo` runs them; stopped on exit, killed if they do not stop."""
    daphne = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    shop = [sys.executable, "manage.py", "demoshop", "--port", str(shop_port)]
    shop += ["--widget-url", f"http://127.0.0.1:{port}", f"--site-key={site_key}"]
    procs = [
        subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        for cmd in (daphne + ["chatwidget.asgi:application"], shop)
    ]
    try:
        wait_port(port, procs[0])
        wait_port(shop_port, procs[1])
        yield procs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    return pg


@pytest.fixture
def fake(live_stack):
    live_stack.fake.script.clear()
    live_stack.fake.requests.clear()
    return live_stack.fake


def shadow(page, selector: str):
    """A locator inside the widget's shadow root (playwright pierces open shadow roots)."""
    return page.locator(f"#cw-root {selector}")


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name
