"""A signed-in customer in real Chromium (DESIGN.md, the API's `identify` and `logout`): an
identity pushed before the loader ran rides in the first `hello`, links the conversation,
and is kept nowhere in the browser; `logout` starts a new anonymous conversation; `identify`
after load says hello again with it."""

import json

import pytest

from chatwidget.sites.identity import identity_signature
from tests.e2e import widget_pages
from tests.e2e.widget_pages import shop_page
from tests.fakellm import Reply

pytestmark = pytest.mark.e2e
page_server = widget_pages.page_server  # fixtures

ANNA = {"id": "cust-4711", "email": "anna.meyer@example.com", "name": "Anna Meyer"}


def customers(stack) -> list[list]:
    """(conversation, customer's shop id) of every conversation, oldest first."""
    out = stack.shell(
        "import json\n"
        "from memory.models import Conversation\n"
        "print(json.dumps([[c.pk, c.customer.external_id if c.customer else None]"
        " for c in Conversation.objects.order_by('pk').select_related('customer')]))\n"
    )
    return json.loads(out.strip().splitlines()[-1])


def answered(page, received: list[dict], count: int) -> None:
    """Wait (at most 10 s) until `count` complete assistant messages came over the socket."""
    for _ in range(100):
        if (
            sum(f.get("type") == "message" and f.get("role") == "assistant" for f in received)
            >= count
        ):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"no answer {count}: {received}")


def test_identify_pushed_before_load_links_the_conversation_and_logout_ends_it(
    live_stack, fake, page_server, page
):
    secret = live_stack.manage("identity_secret", "--site", live_stack.site_key).strip()
    assert len(secret) == 64
    assert live_stack.manage("identity_secret", "--site", live_stack.site_key).strip() == secret
    identity = {
        **ANNA,
        "signature": identity_signature(secret=secret, customer_id=ANNA["id"], email=ANNA["email"]),
    }
    before = (
        "window.ChatWidget = window.ChatWidget || [];\n"
        f"ChatWidget.push(['identify', {json.dumps(identity)}]);\n"
    )
    widget_pages.allow_origin(live_stack, live_stack.site_key, page_server.origin)
    url = page_server.add("/identified/", shop_page(live_stack, live_stack.site_key, before=before))
    sent, received = [], []
    page.on(
        "websocket",
        lambda ws: (
            ws.on("framesent", lambda payload: sent.append(json.loads(payload))),
            ws.on("framereceived", lambda payload: received.append(json.loads(payload))),
        ),
    )
    known = {pk for pk, _ in customers(live_stack)}
    fake.script.append(Reply("Hello Anna, how can I help?"))
    page.goto(url)
    page.wait_for_function("window.ChatWidget && !Array.isArray(window.ChatWidget)")
    page.evaluate("ChatWidget.send('Where is my order?')")
    answered(page, received, 1)
    hellos = [f for f in sent if f["type"] == "hello"]
    assert hellos and hellos[0]["identity"] == identity, "the first hello carries it"
    assert not [f for f in received if f.get("code") == "identity_invalid"]
    mine = [row for row in customers(live_stack) if row[0] not in known]
    assert [customer for _, customer in mine] == [ANNA["id"]]

    # kept in memory only: no cookie, no storage holds it
    stored = page.evaluate(
        "JSON.stringify([document.cookie, {...localStorage}, {...sessionStorage}])"
    )
    assert ANNA["email"] not in stored and identity["signature"] not in stored

    # logout: a new anonymous conversation; the old one stays Anna's
    page.evaluate("ChatWidget.logout()")
    fake.script.append(Reply("Hello, how can I help?"))
    page.evaluate("ChatWidget.send('Do you ship to Austria?')")
    answered(page, received, 2)
    assert [f for f in sent if f["type"] == "hello"][-1]["identity"] is None
    mine = [row for row in customers(live_stack) if row[0] not in known]
    assert [customer for _, customer in mine] == [ANNA["id"], None]

    # identify after load (a method): the open socket says hello again with it, and the
    # anonymous conversation it resumes becomes Anna's
    hellos = len([f for f in sent if f["type"] == "hello"])
    page.evaluate(f"ChatWidget.identify({json.dumps(identity)})")
    page.wait_for_function("window.__cwWidget.connected")
    for _ in range(100):
        if len([f for f in sent if f["type"] == "hello"]) > hellos:
            break
        page.wait_for_timeout(100)
    again = [f for f in sent if f["type"] == "hello"][hellos:]
    assert again and again[0]["identity"] == identity and again[0]["session"]
    page.wait_for_timeout(300)
    mine = [row for row in customers(live_stack) if row[0] not in known]
    assert [customer for _, customer in mine] == [ANNA["id"], ANNA["id"]]
