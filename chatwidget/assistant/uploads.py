"""A visitor's photo or file (issue 33): checked, stored and made a visitor turn, through the
same path as a typed message (memory.services.visitor_message_receive), so the assistant
answers it, a case hears of it, and every tab sees it.

Order: the session's rate limits (messages and uploads), the site's count limit, then the
cleaning and never-kept check (memory.uploads: the expensive part, after the cheap
refusals), then the file in storage and the turn with its attachment row in one
transaction. A refused upload leaves nothing: no file, no row, no log line with its
content; a turn that fails to commit takes its file along.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from chatwidget.assistant.turns import TurnOutcome, turn_outcome, visitor_rate_limited
from chatwidget.platform import cache_keys
from chatwidget.platform.ratelimit import rate_limit_hit_fail_open
from handover.services import handover_visitor_message
from memory.attachments import (
    attachment_count,
    attachment_file_discard,
    attachment_file_store,
    attachment_link,
    attachment_new,
)
from memory.redacting import removed_hint
from memory.services import visitor_message_receive
from memory.uploads import UploadRefused, upload_clean

# the turn's text when the visitor wrote nothing with the file (the model reads it too)
PLACEHOLDER = {"image": "[photo: {name}]", "pdf": "[file: {name}]"}


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int
    max_count: int


@dataclass(frozen=True)
class UploadResult:
    outcome: TurnOutcome | None = None  # None: refused
    refused: str = ""  # the UploadRefused code, rate_limited or too_many
    notice: str = ""  # never_kept: the same hint a typed card number gets
    seq: int | None = None
    session: str | None = None  # a conversation started by this upload: its new token
    text: str = ""  # the stored turn's text (redacted), as the widget then shows it
    attachment: dict | None = None


def visitor_upload_receive(
    *,
    site_id: int,
    conversation_id: int | None,
    address: str,
    client_id: str,
    data: bytes,
    name: str,
    caption: str,
    language: str,
    limits: UploadLimits,
    page_url: str | None = None,
    page_title: str = "",
) -> UploadResult:
    """The upload as a visitor turn of conversation `conversation_id` (the session's), or
    an UploadResult naming why it was refused. Without a conversation (a photo before the
    first message) the upload starts one, as a first message does: its token comes back in
    `session`, and the widget's `attached` frame binds its socket to it."""
    session_key = str(conversation_id) if conversation_id else f"upload:{address}"
    if visitor_rate_limited(address=address, session_key=session_key) or rate_limit_hit_fail_open(
        key=cache_keys.rate_upload(session_key), rate=settings.VISITOR_UPLOAD_RATE
    ):
        return UploadResult(refused="rate_limited")
    if conversation_id and attachment_count(conversation_id=conversation_id) >= limits.max_count:
        return UploadResult(refused="too_many")
    try:
        upload = upload_clean(
            data=data,
            name=name,
            max_bytes=limits.max_bytes,
            max_pixels=settings.VISITOR_UPLOAD_MAX_PIXELS,
        )
    except UploadRefused as refused:
        notice = removed_hint(removed=refused.removed, language=language) if refused.removed else ""
        return UploadResult(refused=refused.code, notice=notice)
    row = attachment_new(upload=upload)
    if conversation_id:  # the file written before the row lock is taken
        attachment_file_store(row=row, conversation_id=conversation_id, upload=upload)
    linked: list = []

    def link(result, conv) -> None:
        if result.created:
            if not row.file.name:  # a new conversation: its id is known only now
                attachment_file_store(row=row, conversation_id=conv.pk, upload=upload)
            attachment_link(row=row, turn=result.turn)
            linked.append(True)

    try:
        result, conv, new_token, _hint = visitor_message_receive(
            site_id=site_id,
            token=None,
            client_id=client_id,
            text=caption.strip() or PLACEHOLDER[upload.kind].format(name=upload.name),
            language=language,
            conversation_id=conversation_id,
            page_url=page_url,
            page_title=page_title,
            before_commit=link,
            attachments=[row.public()],
        )
    except BaseException:
        attachment_file_discard(row)
        raise
    if not linked:  # a resend of a stored upload (same client id): nothing new kept
        attachment_file_discard(row)
    outcome = turn_outcome(state=conv.state, created=result.created)
    if outcome is TurnOutcome.CASE_UPDATE:
        handover_visitor_message(conversation_id=conv.pk, seq=result.turn.seq)
    return UploadResult(
        outcome=outcome,
        seq=result.turn.seq,
        session=new_token,
        text=result.turn.text,
        attachment=row.public() if linked else None,
    )
