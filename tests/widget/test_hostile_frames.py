"""Every malformed frame is an error frame and the socket stays open (issue 15): nesting
that made json.loads raise RecursionError, lone surrogates and NUL that PostgreSQL refuses;
no conversation row is left behind. The export endpoint answers 400 to the same input."""

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from chatwidget.platform.frames import json_load_safe
from memory.models import Conversation
from tests.conftest import SHOP
from tests.fakellm import Reply

pytestmark = [pytest.mark.django_db(transaction=True)]

DEEP = "[" * 20000 + "]" * 20000
HOSTILE = [
    pytest.param(DEEP, id="20000-nested-arrays"),
    pytest.param(
        '{"type": "message", "id": "d1", "text": "hi", "x": ' + DEEP + "}", id="deep-field"
    ),
    pytest.param('{"type": "message", "id": "d1", "text": "a\\ud800b"}', id="lone-surrogate"),
    pytest.param('{"type": "message", "id": "d1", "text": "a\\u0000b"}', id="nul-in-text"),
    pytest.param('{"type": "message", "id": "d\\u0000", "text": "hi"}', id="nul-in-id"),
    pytest.param(
        '{"type": "message", "id": "d1", "text": {"a": {"b": {"c": {"d": 1}}}}}', id="nested-object"
    ),
    pytest.param('{"type": "hello", "session": "\\udfff"}', id="surrogate-session"),
]


@pytest.mark.asyncio
@pytest.mark.parametrize("raw", HOSTILE)
async def test_hostile_frame_gets_bad_frame_and_the_socket_stays_open(site, connect, fake_llm, raw):
    fake_llm.script.append(Reply("Fine."))
    c = await connect(site.key)
    await c.hello()
    await c.send(raw)
    error = await c.recv()
    assert error["type"] == "error" and error["code"] == "bad_frame", error
    assert await database_sync_to_async(Conversation.objects.count)() == 0, "no row left"
    ack = await c.say("Still there?", "ok1")  # the socket is open and works
    assert ack["type"] == "ack"
    final, _ = await c.answer()
    assert final["text"] == "Fine."


@pytest.mark.asyncio
async def test_hostile_hello_before_greeting_gets_bad_frame(site, connect):
    c = await connect(site.key)
    await c.send('{"type": "hello", "session": "x\\u0000"}')
    assert (await c.recv())["code"] == "bad_frame"
    welcome = await c.hello()
    assert welcome["type"] == "welcome"


@pytest.mark.parametrize(
    "body",
    [
        DEEP,
        '{"session": ' + DEEP + "}",
        '{"session": "\\ud800"}',
        '{"session": "a\\u0000"}',
        b"\xff\xfe",
        "not json",
    ],
)
def test_export_answers_400_to_bad_input(site, body):
    response = HttpClient().post(
        f"/widget/v1/{site.key}/export",
        data=body,
        content_type="application/json",
        HTTP_ORIGIN=SHOP,
    )
    assert response.status_code == 400, response.content


def test_json_load_safe_keeps_ordinary_frames():
    frame = {"type": "message", "id": "m1", "text": 'Grüße aus Köln 👋 "quoted" \\n'}
    assert json_load_safe(json.dumps(frame)) == frame
    assert json_load_safe(json.dumps(frame, ensure_ascii=False).encode()) == frame
    for bad in ("[[[[[1]]]]]", '"\\ud83d"', '{"\\u0000": 1}'):
        with pytest.raises(ValueError):
            json_load_safe(bad)
