"""The continuation code is in no access log (issue 25): a real Daphne serves the link's
page and the widget's exchange, writing its access log to a file, while this test clicks
the e-mail's link the way a browser does (the URL without its fragment, redirects followed)
and then posts the code as the widget does. The code must not appear in any logged request
line; the exchange must still work. Before issue 25 the link was `/continue/<code>/`."""

import http.client
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.core import mail
from django.db import connection

from handover import services
from handover.services.continuation import continuation_email_send
from tests.factories import CLOSED_TIME, ConversationFactory, UserFactory
from tests.procs import free_port, wait_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def daphne(tmp_path):
    """A Daphne process on 127.0.0.1 with this test's database; yields (origin, log path)."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (TEST_DATABASE_URL) shared by two processes")
    db = connection.settings_dict
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    access_log = tmp_path / "access.log"
    env = {k: v for k, v in os.environ.items() if k != "TEST_DB_NAME"}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.test",
            "TEST_DATABASE_URL": f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@"
            f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
            "PUBLIC_URL": origin,
            "PYTHONUNBUFFERED": "1",
        }
    )
    out = (tmp_path / "daphne.out").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["--access-log", str(access_log), "chatwidget.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_port(port, proc)
        yield origin, access_log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        out.close()


def _request(origin: str, method: str, target: str, body: dict | None = None) -> tuple:
    parts = urlsplit(origin)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    headers = {"Origin": origin, "Content-Type": "application/json"}
    conn.request(method, target, body=json.dumps(body) if body else None, headers=headers)
    response = conn.getresponse()
    result = (response.status, response.getheader("Location"), response.read())
    conn.close()
    return result


def _click(origin: str, link: str) -> str:
    """A browser following the link: it requests path and query only (never the fragment),
    follows redirects, and keeps the last fragment it saw. Returns that fragment."""
    fragment, url = "", link
    for _ in range(5):
        parts = urlsplit(url)
        fragment = parts.fragment or fragment
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        if f"{parts.scheme}://{parts.netloc}" != origin:
            break  # another server: not ours to log
        status, location, _ = _request(origin, "GET", target or "/")
        if status not in (301, 302, 303, 307, 308) or not location:
            break
        url = urljoin(url, location)
    return fragment


def test_the_continuation_code_is_in_no_access_log_line(site, daphne):
    origin, access_log = daphne
    site.allowed_origins = [origin]  # the shop's page and the service: one origin here
    site.staff_hours = "mon-fri 09:00-17:00"
    site.save(update_fields=["allowed_origins", "staff_hours"])
    conv = ConversationFactory(site=site, texts=["Where is my parcel? anna@example.com"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=CLOSED_TIME)
    staff = UserFactory(username="sam", role="Staff")
    services.case_claim(case_id=case.pk, user=staff)
    turn = services.staff_reply(case_id=case.pk, user=staff, text="Your parcel left today.")
    from django.conf import settings

    settings.PUBLIC_URL = origin  # what the worker would put in the e-mail
    assert continuation_email_send(case_id=case.pk, seq=turn.seq)
    link = re.search(r"http://127\.0\.0\.1:\d+/\S*", mail.outbox[-1].body).group(0)

    code = _click(origin, link).removeprefix("cw-continue=")
    assert len(code) >= 16
    status, _, body = _request(origin, "POST", f"/widget/v1/{site.key}/continue", {"code": code})
    assert status == 200 and json.loads(body)["session"]

    _request(origin, "GET", "/healthz")  # one more line: the ones before are written
    logged = access_log.read_text()
    assert f"/widget/v1/{site.key}/continue" in logged, logged  # the log works
    assert code not in logged, logged
