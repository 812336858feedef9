"""Visitors' attachments (issue 33) in the export, erasure and the retention purge: the
files leave storage with their conversation."""

import base64
import io
import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from PIL import Image

from memory.attachments import attachment_file_store, attachment_link, attachment_new
from memory.erasure import conversation_erase
from memory.export import conversation_export
from memory.models import Attachment, Conversation, Turn, TurnRole
from memory.retention import retention_purge_expired
from memory.services import turn_append
from memory.uploads import upload_clean
from tests.factories import ConversationFactory
from tests.memory.upload_images import photo_with_gps

pytestmark = pytest.mark.django_db


@pytest.fixture
def upload_dir(settings, tmp_path) -> Path:
    settings.VISITOR_UPLOAD_DIR = str(tmp_path / "uploads")
    return tmp_path / "uploads"


def with_photo(site) -> Conversation:
    conv = ConversationFactory(site=site, texts=["Hello"])
    upload = upload_clean(
        data=photo_with_gps(), name="broken.jpg", max_bytes=10**7, max_pixels=10**7
    )
    row = attachment_new(upload=upload)
    attachment_file_store(row=row, conversation_id=conv.pk, upload=upload)
    result = turn_append(conversation_id=conv.pk, role=TurnRole.VISITOR, text="[photo]")
    Turn.objects.filter(pk=result.turn.pk).update(attachments=[row.public()])
    attachment_link(row=row, turn=result.turn)
    return conv


def files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def test_the_export_holds_the_photo_itself(site, upload_dir):
    conv = with_photo(site)
    content, _type, _name = conversation_export(conversation_id=conv.pk, fmt="json", masked=False)
    [item] = json.loads(content)["attachments"]
    assert item["name"] == "broken.jpg" and item["type"] == "image/jpeg"
    image = Image.open(io.BytesIO(base64.b64decode(item["data_base64"])))
    assert image.size == (320, 240) and not image.getexif()
    text, _t, _n = conversation_export(conversation_id=conv.pk, fmt="txt", masked=False)
    assert "attached: broken.jpg (image/jpeg" in text


def test_erasure_deletes_the_files_after_the_commit(
    site, upload_dir, django_capture_on_commit_callbacks
):
    conv = with_photo(site)
    assert len(files(upload_dir)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        counts = conversation_erase(conversation_id=conv.pk, reason="test")
    assert counts["attachments"] == 1
    assert Attachment.objects.count() == 0 and files(upload_dir) == []


def test_the_retention_purge_deletes_expired_files_only(
    site, upload_dir, django_capture_on_commit_callbacks
):
    old, fresh = with_photo(site), with_photo(site)
    Conversation.objects.filter(pk=old.pk).update(
        last_activity_at=timezone.now() - timedelta(hours=25)
    )
    with django_capture_on_commit_callbacks(execute=True):
        totals = retention_purge_expired()
    assert totals.attachments == 1
    assert list(Attachment.objects.values_list("conversation_id", flat=True)) == [fresh.pk]
    [left] = files(upload_dir)
    assert left.parent.name == f"c{fresh.pk}"
