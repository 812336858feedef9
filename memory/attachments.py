"""Visitors' photos and files (issue 33): stored with their turn, read for staff, the model
and the export, and deleted with their conversation.

Files live in the `visitor_uploads` storage (chatwidget.platform.storage); rows in
memory.Attachment. Erasure (memory.erasure) and the retention purge (memory.retention)
call `attachment_files_forget` in the transaction that deletes the conversations: the rows
go with the cascade, the files once that transaction has committed (a rolled-back erasure
keeps them). Only cleaned uploads reach here (memory.uploads).
"""

from __future__ import annotations

import base64
import logging
import math

from django.core.files.base import ContentFile
from django.db import transaction

from memory.models import Attachment, Turn
from memory.uploads import CleanUpload

log = logging.getLogger(__name__)


def attachment_new(*, upload: CleanUpload) -> Attachment:
    """An unsaved row for a cleaned upload, its file not yet stored (`attachment_file_store`)."""
    return Attachment(
        seq=0,
        kind=upload.kind,
        name=upload.name,
        content_type=upload.content_type,
        size=len(upload.data),
        width=upload.width,
        height=upload.height,
    )


def attachment_file_store(*, row: Attachment, conversation_id: int, upload: CleanUpload) -> None:
    """The file in storage, under its conversation (the caller saves the row with the turn;
    `attachment_file_discard` deletes the file when that fails)."""
    row.conversation_id = conversation_id
    row.file.save(upload.name, ContentFile(upload.data), save=False)


def attachment_file_discard(row: Attachment) -> None:
    if row.file.name:
        row.file.storage.delete(row.file.name)


def attachment_link(*, row: Attachment, turn: Turn) -> None:
    """The row saved for its turn (under the caller's transaction; the turn holds
    `row.public()` from its INSERT on, so the published frame shows it)."""
    row.conversation_id = turn.conversation_id
    row.seq = turn.seq
    row.save(force_insert=True)


def attachment_count(*, conversation_id: int) -> int:
    return Attachment.objects.filter(conversation_id=conversation_id).count()


def attachment_bytes(*, attachment: Attachment) -> bytes:
    with attachment.file.open("rb") as handle:
        return handle.read()


def attachments_of_turn(*, conversation_id: int, seq: int) -> list[Attachment]:
    return list(Attachment.objects.filter(conversation_id=conversation_id, seq=seq))


IMAGE_TOKENS_LOW = 85  # OpenAI's price of an image at "detail": "low" (512 px, one tile)


def image_tokens(width: int, height: int) -> int:
    """The prompt tokens of an image at "detail": "high" by OpenAI's published rule: scaled
    to fit 2048 x 2048, then its short side to 768; 85 plus 170 per 512 px tile. Other
    OpenAI-compatible models count otherwise; this is the budget's estimate."""
    if width <= 0 or height <= 0:
        return IMAGE_TOKENS_LOW
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    tiles = math.ceil(w / 512) * math.ceil(h / 512)
    return IMAGE_TOKENS_LOW + 170 * tiles


def image_parts_for_model(*, conversation_id: int, seq: int, room: int) -> tuple[list[dict], int]:
    """The turn's photos as OpenAI `image_url` content parts with data URLs, and their
    tokens (only called when the site's model accepts images; PDFs are never sent). In
    full detail while they fit `room` tokens, else at "low" (85 tokens each); a photo that
    fits neither is left out, as is a file that has gone from storage."""
    rows = [
        row
        for row in attachments_of_turn(conversation_id=conversation_id, seq=seq)
        if row.kind == Attachment.Kind.IMAGE
    ]
    high = sum(image_tokens(row.width, row.height) for row in rows)
    detail = "high" if high <= room else "low"
    parts, tokens = [], 0
    for row in rows:
        cost = image_tokens(row.width, row.height) if detail == "high" else IMAGE_TOKENS_LOW
        if tokens + cost > room:
            break
        try:
            data = attachment_bytes(attachment=row)
        except OSError:
            log.warning("attachment file missing", extra={"attachment": row.pk})
            continue
        url = f"data:{row.content_type};base64,{base64.b64encode(data).decode()}"
        parts.append({"type": "image_url", "image_url": {"url": url, "detail": detail}})
        tokens += cost
    return parts, tokens


def attachments_export(*, conversation_id: int) -> list[dict]:
    """Every attachment of the conversation for the visitor's export (Art. 15): what the
    widget shows, the turn, and the file itself (base64)."""
    out = []
    for row in Attachment.objects.filter(conversation_id=conversation_id):
        try:
            data = base64.b64encode(attachment_bytes(attachment=row)).decode()
        except OSError:
            data = None
        out.append({**row.public(), "seq": row.seq, "data_base64": data})
    return out


def attachment_files_forget(*, conversation_ids: list[int]) -> int:
    """The files of these conversations' attachments, deleted from storage after the
    commit of the caller's transaction (which deletes the rows). Returns how many."""
    names = list(
        Attachment.objects.filter(conversation_id__in=conversation_ids).values_list(
            "file", flat=True
        )
    )
    if names:
        transaction.on_commit(lambda: _files_delete(names))
    return len(names)


def _files_delete(names: list[str]) -> None:
    storage = Attachment._meta.get_field("file").storage  # type: ignore[attr-defined]
    for name in names:
        try:
            storage.delete(name)
        except OSError as exc:  # a file already gone, a store away: logged, never raised
            log.warning("attachment file not deleted", extra={"error": type(exc).__name__})
