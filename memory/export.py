"""Data-subject export (Art. 15): the transcript as JSON or plain text."""

import json

from django.utils import timezone

from memory.models import Conversation
from memory.redaction import mask


def conversation_export(*, conversation_id: int, fmt: str, masked: bool) -> tuple[str, str, str]:
    conv = Conversation.objects.select_related("site").get(pk=conversation_id)
    turns = list(conv.turns.order_by("seq"))
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")

    def text_of(turn) -> str:
        return mask(turn.text, turn.spans) if masked else turn.text

    if fmt == "txt":
        lines = [f"Conversation with {conv.site.name}, exported {timezone.now().isoformat()}", ""]
        for turn in turns:
            lines.append(f"[{turn.created_at.isoformat()}] {turn.role}: {text_of(turn)}")
        return "\n".join(lines) + "\n", "text/plain; charset=utf-8", f"conversation-{stamp}.txt"
    data = {
        "site": conv.site.name,
        "exported_at": timezone.now().isoformat(),
        "started_at": conv.created_at.isoformat(),
        "state": conv.state,
        "turns": [
            {"seq": t.seq, "role": t.role, "text": text_of(t), "at": t.created_at.isoformat()}
            for t in turns
        ],
    }
    return (
        json.dumps(data, ensure_ascii=False, indent=2),
        "application/json",
        f"conversation-{stamp}.json",
    )
