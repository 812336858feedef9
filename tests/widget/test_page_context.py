"""The `message` frame's `page` through the real consumer (DESIGN.md): kept with the visitor's
turn without the query string the site does not allow, sent to the model as data counted in
T_request, shown to staff next to the turn (a link only for http(s)), exported; a malformed
page is `bad_frame` with the message's id, nothing is stored and the socket stays open."""

import json

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from chatwidget.platform.frames import ErrorCode
from handover import services as handover_services
from handover.selectors import page_masked
from memory.export import conversation_export
from memory.models import ContextTrace, Turn
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

KURTA = "https://shop.example/p/kurta-ku-2291-m"


async def say_from(c, text, cid, page):
    await c.send({"type": "message", "id": cid, "text": text, "page": page})
    return await c.recv_until("ack", id=cid)


def visitor_turn(cid):
    return Turn.objects.get(client_id=cid)


async def test_the_page_is_kept_without_the_query_string_and_sent_as_data(site, connect, fake_llm):
    c = await connect(site.key)
    await c.hello()
    url = f"{KURTA}?email=anna@example.com&token=xyz#size-chart"
    await say_from(c, "Is it in stock?", "m1", {"url": url, "title": "Cotton kurta, mint"})
    await c.answer()
    turn = await database_sync_to_async(visitor_turn)("m1")
    assert turn.page["url"] == KURTA, "no query string, no fragment"
    assert turn.page["title"] == "Cotton kurta, mint"
    assert "anna" not in json.dumps(turn.page) and "xyz" not in json.dumps(turn.page)
    messages = fake_llm.requests[-1]["messages"]
    assert messages[-1] == {"role": "user", "content": "Is it in stock?"}
    assert messages[-2]["role"] == "user", "data, never the system role"
    assert messages[-2]["content"].endswith(f"Cotton kurta, mint ({KURTA})")
    trace = await database_sync_to_async(ContextTrace.objects.get)(request_seq=turn.seq)
    assert trace.sections["request"] == turn.token_count + turn.page["tokens"], "in T_request"


async def test_the_site_keeps_the_query_parameters_it_allows(site, connect, fake_llm):
    site.page_query_params = "variant"
    await database_sync_to_async(site.save)()
    c = await connect(site.key)
    await c.hello()
    page = {"url": f"{KURTA}?variant=mint&session=abc&email=a@b.c", "title": ""}
    await say_from(c, "Hello", "m1", page)
    await c.answer()
    turn = await database_sync_to_async(visitor_turn)("m1")
    assert turn.page["url"] == f"{KURTA}?variant=mint"


@pytest.mark.parametrize(
    "page",
    [
        "https://shop.example/",
        ["https://shop.example/"],
        {"title": "no url"},
        {"url": 7, "title": "x"},
        {"url": "https://shop.example/", "title": 7},
        {"url": "javascript:alert(1)", "title": "x"},
        {"url": "/p/kurta", "title": "relative"},
        {"url": "https://shop.example/" + "p" * 2100, "title": "too long"},
        {"url": "https://shop.example/", "title": "t" * 301},
    ],
)
async def test_a_malformed_page_is_a_bad_frame_and_the_socket_stays_open(
    site, connect, fake_llm, page
):
    c = await connect(site.key)
    await c.hello()
    await c.send({"type": "message", "id": "m1", "text": "Does this come in XL?", "page": page})
    error = await c.recv()
    assert (error["type"], error["code"], error["id"]) == ("error", ErrorCode.BAD_FRAME, "m1")
    assert not await database_sync_to_async(Turn.objects.exists)(), "nothing stored"
    await c.say("Does this come in XL?", "m2")  # the same socket goes on
    await c.answer()


async def test_no_page_and_a_null_page_are_a_message_without_one(site, connect, fake_llm):
    c = await connect(site.key)
    await c.hello()
    await c.send({"type": "message", "id": "m1", "text": "Hi", "page": None})
    await c.recv_until("ack", id="m1")
    await c.answer()
    assert (await database_sync_to_async(visitor_turn)("m1")).page is None
    assert "visitor is on this page" not in json.dumps(fake_llm.requests[-1])


def _case_page(client, conversation_id):
    case = handover_services.handover_request(
        conversation_id=conversation_id, trigger="visitor", reason="fit"
    )
    client.force_login(UserFactory(username="sam", role="Staff"))
    return client.get(reverse("admin:handover_case_change", args=[case.pk])).content.decode()


async def test_staff_see_the_page_next_to_the_turn_and_the_export_holds_it(
    site, connect, fake_llm, client
):
    c = await connect(site.key)
    await c.hello()
    url = f"{KURTA}?email=anna@example.com&token=xyz"
    await say_from(c, "Does this come in XL?", "m1", {"url": url, "title": "Cotton kurta"})
    await c.answer()
    turn = await database_sync_to_async(visitor_turn)("m1")
    html = await database_sync_to_async(_case_page)(client, turn.conversation_id)
    item = html[html.index(f'data-seq="{turn.seq}"') :]
    item = item[: item.index("</li>")]
    assert "Does this come in XL?" in item
    assert "Cotton kurta" in item
    assert f'href="{KURTA}"' in item and 'rel="noopener noreferrer nofollow"' in item
    assert "anna" not in html and "xyz" not in html
    exported = json.loads(
        (
            await database_sync_to_async(conversation_export)(
                conversation_id=turn.conversation_id, fmt="json", masked=False
            )
        )[0]
    )
    assert exported["turns"][0]["page"] == {"url": KURTA, "title": "Cotton kurta"}


async def test_a_page_is_never_an_active_script_link_and_masked_details_are_no_link():
    stored = {"url": "javascript:alert(1)", "title": "<b>x</b>", "url_spans": []}
    assert page_masked(stored)["href"] == ""
    email = "https://shop.example/account/anna@example.com"
    masked = page_masked({"url": email, "title": "", "url_spans": [["email", 29, 45]]})
    assert masked["href"] == "" and "anna@example.com" not in masked["url"]
    assert page_masked({"url": KURTA, "title": "", "url_spans": []})["href"] == KURTA
    assert page_masked(None) is None
