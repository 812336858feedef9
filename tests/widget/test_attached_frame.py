"""The socket's `attached` frame (issue 33): after the widget's upload stored a visitor turn
over HTTP, the socket streams the answer to it, once, even when the frame comes twice; the
uploaded turn reaches the socket as a `message` with its attachment."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient

from tests.conftest import SHOP
from tests.fakellm import Reply
from tests.memory.upload_images import photo_with_gps

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def upload(site_key: str, token: str) -> dict:
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = HttpClient().post(
        f"/widget/v1/{site_key}/upload",
        {"session": token, "id": "p1", "file": SimpleUploadedFile("dent.jpg", photo_with_gps())},
        HTTP_ORIGIN=SHOP,
    )
    assert response.status_code == 201, response.content
    return response.json()


async def test_attached_answers_the_uploaded_turn_once(site, connect, fake_llm, settings, tmp_path):
    settings.VISITOR_UPLOAD_DIR = str(tmp_path)
    fake_llm.script.extend([Reply("Hello!"), Reply("I can see the dent.")])
    c = await connect(site.key)
    await c.hello()
    token = (await c.say("My parcel is damaged", "m1"))["session"]
    await c.answer()
    stored = await sync_to_async(upload)(site.key, token)
    echo, _ = await c.recv_until("message", role="visitor", seq=stored["seq"])
    assert echo["attachments"] == [stored["attachment"]]
    assert echo["text"] == "[photo: dent.jpg]"
    await c.send({"type": "attached"})
    await c.send({"type": "attached"})
    final, frames = await c.answer()
    assert final["text"] == "I can see the dent." and final["seq"] == stored["seq"] + 1
    assert any(f["type"] == "delta" for f in frames), "streamed to this socket"
    assert await c.nothing(0.8), "one answer, whatever the number of frames"
    assert len([r for r in fake_llm.requests if r.get("stream")]) == 2


def upload_first(site_key: str) -> dict:
    """The widget's upload before any message: no session in the body."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = HttpClient().post(
        f"/widget/v1/{site_key}/upload",
        {"id": "p0", "file": SimpleUploadedFile("dent.jpg", photo_with_gps())},
        HTTP_ORIGIN=SHOP,
    )
    assert response.status_code == 201, response.content
    return response.json()


async def test_a_photo_before_the_first_message_is_answered_on_the_socket(
    site, connect, fake_llm, settings, tmp_path
):
    settings.VISITOR_UPLOAD_DIR = str(tmp_path)
    fake_llm.script.extend([Reply("I can see the dent."), Reply("Yes, we replace it.")])
    c = await connect(site.key)
    welcome = await c.hello()
    assert welcome["session"] is None
    stored = await sync_to_async(upload_first)(site.key)
    await c.send({"type": "attached", "session": "not-the-token"})  # opens nothing
    assert await c.nothing(0.5)
    await c.send({"type": "attached", "session": stored["session"]})
    final, frames = await c.answer()
    assert final["text"] == "I can see the dent." and final["seq"] == stored["seq"] + 1
    assert any(f["type"] == "delta" for f in frames), "streamed to this socket"
    # the socket now holds that conversation: the next message continues it
    ack = await c.say("Can you replace it?", "m2")
    assert ack["session"] == stored["session"] and ack["seq"] == stored["seq"] + 2
    final, _ = await c.answer()
    assert final["text"] == "Yes, we replace it."
