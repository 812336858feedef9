"""Helpers for the widget's browser tests: shop pages served by playwright on made-up
origins (so a test can choose the origin and what the page does before the loader runs),
extra sites on the live stack, a staff reply through admin, and axe-core in the page."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

from tests.e2e.conftest import ROOT, shadow

AXE = ROOT / ".widget-build" / "node_modules" / "axe-core" / "axe.min.js"
STAFF_PASSWORD = "a-long-widget-staff-password"


def shop_page(stack, site_key: str, *, before: str = "", lang: str = "en") -> str:
    """A small shop page with landmarks; `before` is inline script run before the loader."""
    return f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Test shop</title></head>
<body><header><a href="/">Test shop</a></header>
<main><h1>Cotton kurta, mint</h1><p>KU-2291-M, sizes S to XL.</p>
<p><a href="/help" id="help">Help</a></p></main>
<script>{before}</script>
<script src="{stack.widget_url}/static/widget/v1/loader.js" data-site="{site_key}" async></script>
</body></html>"""


class PageServer:
    """Shop pages on a loopback origin of their own (Chromium lets a page reach the widget
    server on 127.0.0.1 only from a loopback page). Tests register pages by path."""

    def __init__(self) -> None:
        pages = self.pages = {}

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # http.server's name
                body = pages.get(urlsplit(self.path).path)
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write((body or "not found").encode())

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.other_origin = f"http://localhost:{self.port}"  # another origin, same server
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def add(self, path: str, html: str) -> str:
        self.pages[path] = html
        return self.origin + path


@pytest.fixture(scope="session")
def page_server():
    server = PageServer()
    yield server
    server.server.shutdown()


@pytest.fixture
def shop(live_stack, page_server, request):
    """A page of the e2e site on the page server's origin (allowed for that site)."""
    allow_origin(live_stack, live_stack.site_key, page_server.origin)
    return page_server.add(f"/{request.node.name}/", shop_page(live_stack, live_stack.site_key))


def allow_origin(stack, site_key: str, origin: str) -> None:
    stack.shell(
        "from chatwidget.sites.models import Site\n"
        f"s = Site.objects.get(key={site_key!r})\n"
        f"s.allowed_origins = sorted(set(s.allowed_origins) | {{{origin!r}}}); s.save()\n"
    )


def create_site(stack, name: str, origin: str, **fields) -> str:
    out = stack.manage(
        "createsite", "--name", name, "--origin", origin, "--base-url", stack.widget_url
    )
    key = re.search(r"Site key: (\S+)", out).group(1)
    if fields:
        stack.shell(
            "from chatwidget.sites.models import Site\n"
            f"Site.objects.filter(key={key!r}).update(**{fields!r})\n"
        )
    return key


def session_cookies(context, url: str) -> dict[str, str]:
    return {
        c["name"]: c["value"] for c in context.cookies(url) if c["name"].startswith("cw_session_")
    }


def axe_violations(page) -> list[dict]:
    """axe-core's violations on the whole page, the widget's open shadow root included."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `make setup-test` (needs node and npm)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text())
    found = page.evaluate(
        """async () => {
             // measure colours after the panel's short fade-in, as a person sees them
             const root = document.querySelector('#cw-root')?.shadowRoot;
             await Promise.all((root ? root.getAnimations() : [])
               .filter(a => a.effect.getTiming().iterations !== Infinity).map(a => a.finished));
             return (await axe.run(document, {resultTypes: ['violations']})).violations
             .map(v => ({id: v.id, impact: v.impact, help: v.help,
                         nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}));
           }"""
    )
    return found


def assert_no_violations(page, state: str) -> None:
    found = axe_violations(page)
    assert found == [], f"axe-core, {state}:\n" + json.dumps(found, indent=1)


def announcements(page) -> list[str]:
    """Texts the widget put in its live region since `record_announcements`."""
    return page.evaluate("window.__announced || []")


RECORD_ANNOUNCEMENTS = """() => {
  window.__announced = [];
  const region = document.querySelector('#cw-root').shadowRoot.querySelector('[aria-live]');
  new MutationObserver(() => region.textContent && window.__announced.push(region.textContent))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


def staff_user(stack, username: str = "wendy") -> tuple[str, str]:
    stack.shell(
        "from django.contrib.auth.models import Group, User\n"
        f"u, _ = User.objects.get_or_create(username={username!r}, defaults={{'is_staff': True,"
        " 'first_name': 'Wendy'})\n"
        f"u.set_password({STAFF_PASSWORD!r}); u.save()\n"
        "u.groups.add(Group.objects.get(name='Staff'))\n"
    )
    return username, STAFF_PASSWORD


def case_of_session(stack, token: str) -> str:
    """The id of the newest case of the conversation with session `token`."""
    return (
        stack.shell(
            "import hashlib\nfrom handover.models import Case\n"
            f"print(Case.objects.filter(conversation__token_hash="
            f"hashlib.sha256({token!r}.encode()).hexdigest()).latest('pk').pk)\n"
        )
        .strip()
        .splitlines()[-1]
    )


def case_page_open(stack, ctx, token: str, *credentials: str):
    """A staff member (`credentials`: username and password) logs in within the browser
    context `ctx` and opens the case of the conversation with `token`; the page."""
    username, password = credentials
    case_id = case_of_session(stack, token)
    admin = ctx.new_page()
    admin.set_default_timeout(10_000)
    admin.goto(f"{stack.widget_url}/admin/login/?next=/admin/handover/case/{case_id}/change/")
    admin.fill("#id_username", username)
    admin.fill("#id_password", password)
    admin.click("input[type=submit]")
    admin.wait_for_url("**/admin/handover/case/*/change/")
    return admin


def staff_reply_in_admin(stack, browser, token: str, text: str) -> None:
    """A staff member logs in, opens the case of the conversation with `token` and replies."""
    ctx = browser.new_context()
    try:
        admin = case_page_open(stack, ctx, token, *staff_user(stack))
        admin.fill("#reply-text", text)
        admin.click("#reply-form button[type=submit]")
        admin.locator("#live-turns li.staff").filter(has_text=text).wait_for()
    finally:
        ctx.close()


def open_panel(page) -> None:
    shadow(page, "button.launcher").click()
    shadow(page, "textarea").wait_for()


def send(page, text: str) -> None:
    shadow(page, "textarea").fill(text)
    shadow(page, "textarea").press("Enter")
