"""The visitor's upload endpoint (issue 33): POST /widget/v1/<site>/upload with the session
token in the body. A photo becomes a visitor turn with its attachment, EXIF gone; a refused
one (a card number in the picture, the wrong type, too large, too many) leaves nothing."""

import io
import logging
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from chatwidget.assistant.context import context_build
from memory.models import Attachment, Turn
from tests.conftest import SHOP
from tests.factories import ConversationFactory
from tests.memory.upload_images import card_image, pdf_with_text, photo_with_gps

pytestmark = pytest.mark.django_db


@pytest.fixture
def upload_dir(settings, tmp_path) -> Path:
    settings.VISITOR_UPLOAD_DIR = str(tmp_path / "visitor-uploads")
    return tmp_path / "visitor-uploads"


@pytest.fixture
def conv(site):
    return ConversationFactory(site=site, texts=["Hello"])


def post(client, site, token, data: bytes, *, name="photo.jpg", client_id="u1", **extra):
    return client.post(
        f"/widget/v1/{site.key}/upload",
        {"session": token, "id": client_id, "file": SimpleUploadedFile(name, data), **extra},
        HTTP_ORIGIN=SHOP,
    )


def files_in(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def test_a_photo_becomes_a_visitor_turn_with_its_exif_gone(client, site, conv, upload_dir):
    response = post(client, site, conv.token, photo_with_gps(), caption="It came broken")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["outcome"] == "answer" and body["attachment"]["kind"] == "image"
    turn = Turn.objects.get(conversation=conv, seq=body["seq"])
    assert turn.role == "visitor" and turn.text == "It came broken"
    assert turn.attachments == [body["attachment"]]
    row = Attachment.objects.get(conversation=conv)
    assert row.seq == turn.seq
    [stored] = files_in(upload_dir)
    data = stored.read_bytes()
    assert b"TestCam" not in data and not Image.open(io.BytesIO(data)).getexif()
    assert "photo" not in stored.name  # nothing of the visitor's file name


def test_without_a_caption_the_turn_names_the_photo(client, site, conv, upload_dir):
    body = post(client, site, conv.token, photo_with_gps(), name="../../etc/x.jpg").json()
    assert Turn.objects.get(conversation=conv, seq=body["seq"]).text == "[photo: x.jpg]"


def test_a_resend_with_the_same_id_stores_nothing_twice(client, site, conv, upload_dir):
    first = post(client, site, conv.token, photo_with_gps()).json()
    again = post(client, site, conv.token, photo_with_gps()).json()
    assert again["seq"] == first["seq"]
    assert Attachment.objects.filter(conversation=conv).count() == 1
    assert len(files_in(upload_dir)) == 1


def test_a_card_number_in_a_photo_is_refused_and_stored_nowhere(
    client, site, conv, upload_dir, caplog
):
    caplog.set_level(logging.DEBUG)
    turns = Turn.objects.filter(conversation=conv).count()
    response = post(client, site, conv.token, card_image(), name="card.png")
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "never_kept"
    assert "card number" in body["message"]  # the notice a typed card number gets
    assert Attachment.objects.count() == 0 and files_in(upload_dir) == []
    assert Turn.objects.filter(conversation=conv).count() == turns
    assert "4111" not in caplog.text and "card.png" not in caplog.text


def test_a_pdf_with_a_card_number_is_refused(client, site, conv, upload_dir):
    response = post(
        client, site, conv.token, pdf_with_text("Card 4111 1111 1111 1111"), name="a.pdf"
    )
    assert response.status_code == 422 and response.json()["error"] == "never_kept"
    ok = post(
        client, site, conv.token, pdf_with_text("Invoice 55-1031"), name="a.pdf", client_id="u2"
    )
    assert ok.status_code == 201 and ok.json()["attachment"]["type"] == "application/pdf"


def test_limits_give_clear_errors_and_keep_the_conversation(client, site, conv, upload_dir):
    site.upload_max_bytes = 2000
    site.upload_max_count = 1
    site.save()
    big = post(client, site, conv.token, photo_with_gps(size=(800, 600)))
    assert big.status_code == 413 and big.json() == {"error": "too_large"}
    wrong = post(client, site, conv.token, b"GIF89a not really", name="a.jpg", client_id="u2")
    assert wrong.status_code == 415 and wrong.json() == {"error": "bad_type"}
    small = post(client, site, conv.token, photo_with_gps(size=(16, 16)), client_id="u3")
    assert small.status_code == 201
    more = post(client, site, conv.token, photo_with_gps(size=(16, 16)), client_id="u4")
    assert more.status_code == 409 and more.json() == {"error": "too_many"}
    assert [t.text for t in Turn.objects.filter(conversation=conv, role="visitor")] == [
        "Hello",
        "[photo: photo.jpg]",
    ]


def test_uploads_are_rate_limited_per_session(client, site, conv, upload_dir, settings):
    settings.VISITOR_UPLOAD_RATE = "2/600"
    codes = [
        post(client, site, conv.token, photo_with_gps(size=(16, 16)), client_id=f"r{i}").status_code
        for i in range(3)
    ]
    assert codes == [201, 201, 429]


def test_only_the_sessions_holder_from_an_allowed_origin_may_upload(client, site, conv, upload_dir):
    assert post(client, site, "not-a-token", photo_with_gps()).status_code == 404
    response = client.post(
        f"/widget/v1/{site.key}/upload",
        {"session": conv.token, "id": "u1", "file": SimpleUploadedFile("a.jpg", photo_with_gps())},
        HTTP_ORIGIN="http://evil.test",
    )
    assert response.status_code == 403
    site.upload_max_bytes = 0
    site.save()
    assert post(client, site, conv.token, photo_with_gps()).json() == {"error": "uploads_off"}
    assert files_in(upload_dir) == []


def test_the_model_gets_the_photo_only_when_the_site_says_it_reads_images(
    client, site, conv, upload_dir
):
    seq = post(client, site, conv.token, photo_with_gps()).json()["seq"]
    request = context_build(conversation_id=conv.pk, request_seq=seq, trace_save=False)
    assert request.messages[-1]["content"] == "[photo: photo.jpg]"
    site.model_accepts_images = True
    site.save()
    conv.refresh_from_db()
    built = context_build(conversation_id=conv.pk, request_seq=seq, trace_save=False)
    text, image = built.messages[-1]["content"]
    assert text == {"type": "text", "text": "[photo: photo.jpg]"}
    assert image["type"] == "image_url"
    assert image["image_url"]["url"].startswith("data:image/jpeg;base64,")
    # the photo's tokens are part of the budget: 320 x 240 is one 512 px tile
    assert image["image_url"]["detail"] == "high" and built.sections["images"] == 85 + 170
    assert sum(built.sections.values()) <= site.context_budget - site.answer_reserve


def test_photos_that_do_not_fit_the_budget_go_at_low_detail_or_not_at_all(
    client, site, conv, upload_dir
):
    from memory.attachments import image_tokens

    assert image_tokens(320, 240) == 255 and image_tokens(4000, 3000) == 85 + 170 * 4
    assert image_tokens(1024, 1024) == 85 + 170 * 4 and image_tokens(0, 0) == 85
    seq = post(client, site, conv.token, photo_with_gps(size=(2048, 1536))).json()["seq"]
    site.model_accepts_images = True
    site.context_budget = site.answer_reserve + 1400  # half the room is under 765 tokens
    site.save()
    conv.refresh_from_db()
    built = context_build(conversation_id=conv.pk, request_seq=seq, trace_save=False)
    _text, image = built.messages[-1]["content"]
    assert image["image_url"]["detail"] == "low" and built.sections["images"] == 85
    site.context_budget = site.answer_reserve + 450  # about 150 tokens of room, half under 85
    site.save()
    conv.refresh_from_db()
    built = context_build(conversation_id=conv.pk, request_seq=seq, trace_save=False)
    assert built.messages[-1]["content"] == "[photo: photo.jpg]", "no room: the text alone"
    assert "images" not in built.sections


def test_a_body_far_over_the_limit_is_refused_before_it_is_parsed(client, site, conv, upload_dir):
    site.upload_max_bytes = 2000
    site.save()
    response = post(client, site, conv.token, b"\xff\xd8\xff" + b"\0" * 200_000)
    assert response.status_code == 413 and response.json() == {"error": "too_large"}
    assert Attachment.objects.count() == 0 and files_in(upload_dir) == []


def post_first(client, site, data: bytes, *, client_id="f1"):
    """An upload before the first message: no session yet."""
    return client.post(
        f"/widget/v1/{site.key}/upload",
        {"id": client_id, "file": SimpleUploadedFile("dent.jpg", data)},
        HTTP_ORIGIN=SHOP,
    )


def test_a_photo_before_the_first_message_starts_the_conversation(client, site, upload_dir):
    from memory.models import Conversation
    from memory.selectors import session_get

    response = post_first(client, site, photo_with_gps())
    assert response.status_code == 201, response.content
    body = response.json()
    access = session_get(site_id=site.pk, token=body["session"])
    assert access is not None, "the token opens the conversation the upload started"
    conv = access.conversation
    assert list(Conversation.objects.filter(site=site)) == [conv]
    turn = Turn.objects.get(conversation=conv, seq=body["seq"])
    assert turn.text == "[photo: dent.jpg]" and body["outcome"] == "answer"
    row = Attachment.objects.get(conversation=conv)
    assert row.file.name.startswith(f"c{conv.pk}/")
    assert [p.parent.name for p in files_in(upload_dir)] == [f"c{conv.pk}"]
    # a resend with the token it got stores nothing twice
    again = post(client, site, body["session"], photo_with_gps(), client_id="f1")
    assert again.status_code == 201 and again.json()["seq"] == body["seq"]
    assert again.json()["session"] is None, "the conversation was not started again"
    assert Attachment.objects.count() == 1 and len(files_in(upload_dir)) == 1


def test_a_refused_first_photo_starts_nothing(client, site, upload_dir, settings):
    from memory.models import Conversation

    settings.VISITOR_UPLOAD_RATE = "3/600"  # counted by address before there is a session
    response = post_first(client, site, card_image())
    assert response.status_code == 422 and response.json()["error"] == "never_kept"
    assert post_first(client, site, b"not an image at all").status_code == 415
    assert Conversation.objects.count() == 0 and files_in(upload_dir) == []
    assert post_first(client, site, photo_with_gps(size=(16, 16))).status_code == 201
    assert (
        post_first(client, site, photo_with_gps(size=(16, 16)), client_id="f2").status_code == 429
    )
    assert Conversation.objects.count() == 1
