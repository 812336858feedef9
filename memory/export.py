"""Data-subject export (Art. 15): the transcript as JSON or plain text."""

import json
import logging

from django.db import transaction
from django.utils import timezone

from memory.attachments import attachments_export
from memory.models import AuditEvent, Conversation, TurnRole
from memory.redaction import mask, never_kept_scrub
from memory.redaction.kinds import EMAIL
from memory.retention import audit_record

log = logging.getLogger(__name__)


def conversation_export(
    *, conversation_id: int, fmt: str, masked: bool, for_visitor: bool = True
) -> tuple[str, str, str]:
    """The transcript as JSON or text. The visitor's (`for_visitor`, the default: the
    widget's export, the transcript e-mail) holds what the visitor saw: no shop lookup turns
    (the raw answer of the shop's API, which the assistant's answer put in words); staff
    exports hold them."""
    conv = Conversation.objects.select_related("site", "customer").get(pk=conversation_id)
    query = conv.turns.order_by("seq")
    if for_visitor:
        query = query.exclude(role=TurnRole.TOOL)
    turns = list(query)
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")

    def text_of(turn) -> str:
        # the second gate: what today's rules find is not handed out, whatever was stored
        text = mask(turn.text, turn.spans) if masked else turn.text
        return never_kept_scrub(text, language=conv.language)

    def page_of(turn) -> dict | None:
        """The page a visitor's turn was sent from (memory.pages), as its text is handed out."""
        if not turn.page:
            return None
        out = {}
        for field in ("url", "title"):
            value, spans = turn.page.get(field) or "", turn.page.get(f"{field}_spans") or []
            out[field] = never_kept_scrub(mask(value, spans) if masked else value)
        return out

    if fmt == "txt":
        lines = [f"Conversation with {conv.site.name}, exported {timezone.now().isoformat()}", ""]
        if conv.customer is not None:
            who = customer_export_data(conv.customer, masked=masked)
            lines += [f"Signed in as: {who['name']} <{who['email']}> (id {who['id']})", ""]
        for turn in turns:
            page = page_of(turn)
            where = f" (page: {page['url']})" if page else ""
            lines.append(f"[{turn.created_at.isoformat()}] {turn.role}: {text_of(turn)}{where}")
            lines += [
                f"    attached: {a['name']} ({a['type']}, {a['size']} bytes)"
                for a in turn.attachments
            ]
        return "\n".join(lines) + "\n", "text/plain; charset=utf-8", f"conversation-{stamp}.txt"
    data = {
        "site": conv.site.name,
        "exported_at": timezone.now().isoformat(),
        "started_at": conv.created_at.isoformat(),
        "state": conv.state,
        # the signed-in customer this conversation is linked to (memory.customers)
        "customer": customer_export_data(conv.customer, masked=masked) if conv.customer else None,
        "turns": [
            {"seq": t.seq, "role": t.role, "text": text_of(t), "at": t.created_at.isoformat()}
            | ({"page": page_of(t)} if t.page else {})
            for t in turns
        ],
        # the visitor's photos and files (issue 33), the files themselves in base64
        "attachments": attachments_export(conversation_id=conversation_id),
    }
    return (
        json.dumps(data, ensure_ascii=False, indent=2),
        "application/json",
        f"conversation-{stamp}.json",
    )


def customer_export_data(customer, *, masked: bool) -> dict:
    """A signed-in customer (memory.Customer) as exports show it: the e-mail masked unless
    plaintext was allowed."""
    email = customer.email
    return {
        "id": customer.external_id,
        "email": mask(email, [[EMAIL, 0, len(email)]]) if masked and email else email,
        "name": customer.name,
    }


def conversation_export_for_staff(
    *, conversation_id: int, actor, reason: str, masked: bool = True
) -> tuple[str, str, str]:
    """A staff export (Art. 15 on request): JSON, masked unless the caller allowed plaintext
    (owner with the reveal permission). Logged with actor and reason before it is handed out.
    Returns (content, content type, file name)."""
    conv = Conversation.objects.only("site_id").get(pk=conversation_id)
    with transaction.atomic():
        content, content_type, filename = conversation_export(
            conversation_id=conversation_id, fmt="json", masked=masked, for_visitor=False
        )
        audit_record(
            action=AuditEvent.Action.EXPORT,
            actor=actor,
            site_id=conv.site_id,
            conversation_ref=conversation_id,
            target=f"conversation {conversation_id}",
            reason=reason,
            details={"masked": masked, "bytes": len(content.encode())},
        )
    log.info("conversation exported", extra={"conversation": conversation_id, "masked": masked})
    return content, content_type, filename
