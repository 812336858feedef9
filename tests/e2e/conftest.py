"""Fixtures of the real-browser tests: the live stacks (tests/e2e/stacks.py: Daphne + the demo
shop on a second origin + the fake model) and Debian's Chromium through playwright (never a
downloaded browser), one per test process with a new context per test."""

import atexit
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.e2e import stacks
from tests.e2e.stacks import CHROMIUM, ROOT, chromium_needed, demo_running, stack_running
from tests.proccount import note

managing, serving = stacks.managing, stacks.serving  # for tests that import them from here
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


_STACKS: dict = {}  # name -> (stack, its clean-up) while the browser tests run


def _stack(name: str, running):
    """The stack `name`, started by the first test that needs it (`running()`: a context
    manager) and kept until the browser tests are done (`stacks_close`)."""
    if name not in _STACKS:
        cleanup = ExitStack()
        try:
            _STACKS[name] = (cleanup.enter_context(running()), cleanup)
        except BaseException:
            cleanup.close()
            raise
    return _STACKS[name][0]


def stacks_close() -> None:
    while _STACKS:
        _name, (_stack_, cleanup) = _STACKS.popitem()
        cleanup.close()


atexit.register(stacks_close)  # a run stopped in the middle of the browser tests


# Module scope (the modules' own fixtures use them): each module gets the running stack from
# `_stack`, or a new one if the browser tests were left and came back.
@pytest.fixture(scope="module")
def live_stack():
    # Staff presence (issue 18) is off here: these tests open the admin after the visitor
    # asked for a person; tests/e2e/test_inbox_browser.py runs a stack with it on.
    return _stack("live", lambda: stack_running({"STAFF_PRESENCE_REQUIRED": "0"}))


@pytest.fixture(scope="module")
def demo_stack():
    """The demo's stack, shared by tests/e2e/test_actions_browser.py and
    test_knowledge_browser.py (a site each)."""
    return _stack("demo", demo_running)


_CHROMIUM: dict = {}  # the playwright session and its browser while browser tests run


@pytest.fixture
def browser():
    """One Chromium for a run of consecutive browser tests (all of them: they run together,
    in one xdist worker), each test in a new context. It is closed when the next test is not
    a browser test (`pytest_runtest_teardown` below), not at the end of the session: while
    playwright's sync API is started, its event loop is marked running in the main thread,
    and every later asyncio test of the process failed with "Runner.run() cannot be called
    from a running event loop"."""
    chromium_needed()
    if not _CHROMIUM:
        from playwright.sync_api import sync_playwright

        note("chromium")
        playwright = sync_playwright().start()
        _CHROMIUM["playwright"] = playwright
        _CHROMIUM["browser"] = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
    return _CHROMIUM["browser"]


def browser_close() -> None:
    if _CHROMIUM:
        try:
            _CHROMIUM["browser"].close()
        finally:
            _CHROMIUM.pop("playwright").stop()
            _CHROMIUM.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the test's own fixtures (its context) are gone: close the browser and stop the
    stacks when the next test is not in this folder. (Session fixtures, as the stacks were,
    stopped at the end of the xdist worker's last test: 8 to 16 s of Daphne and manage
    processes stopping after everything else, in the suite's last seconds.)"""
    try:
        return (yield)
    finally:
        if nextitem is None or Path(__file__).parent not in Path(nextitem.path).parents:
            try:
                browser_close()
            finally:
                stacks_close()


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
