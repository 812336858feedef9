"""What a conversation says about the visitor, as candidate profile facts: the language,
the objects named (per kind, the one named last), promises, the past case, contact
preferences and contact details, each checked against what must never be kept (health,
placeholders, never-kept values, values a correction replaced). Writing them into the
profile is memory.profiles.fold's."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory.models import Conversation, Turn, TurnRole
from memory.profiles.selectors import Field
from memory.redaction import PLACEHOLDERS_BY_LANGUAGE, redact

#: Object kinds from the core that identify something of the visitor's across visits.
#: Articles the visitor looked at are not kept: that is browsing, not a fact about the case.
OBJECT_KINDS = frozenset(
    {"customer", "order", "contract", "invoice", "return", "subscription", "device", "ticket"}
)
_KIND_SUFFIX = re.compile(r"[\s_-]*(number|no|nr|id|nummer)\.?$", re.IGNORECASE)
_CONTACT_CONSTRAINT = re.compile(r"contact|kontakt|reach|erreich", re.IGNORECASE)
_PLACEHOLDER = re.compile(
    r"\[[^\]]{0,40}\b(removed|entfernt|omitted|ausgelassen|weggelassen)\]", re.IGNORECASE
)
MAX_PROMISES = 5  # per conversation
MAX_TEXT = 200  # topic, resolution, promise: characters


# --- updates from the condensed core -----------------------------------------------------------


@dataclass
class Candidate:
    field: str
    key: str
    value: str
    seq: int | None
    at: datetime


def clean(value: Any, *, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return ""
    return " ".join(str(value).split())[:limit]


def acceptable(
    value: str, *, allow: str | None = None, stale: list[str], health_texts: list[str]
) -> bool:
    """A value may enter the profile: no placeholder, nothing redaction removes or flags as
    health, no contact detail except the one kind `allow`s, no corrected-away value, and
    nothing that occurs in a turn flagged as health details."""
    if not value:
        return False
    if _PLACEHOLDER.search(value) or any(
        p in value for table in PLACEHOLDERS_BY_LANGUAGE.values() for p in table.values()
    ):
        return False
    found = redact(value)
    if found.removed or found.health:
        return False
    if any(span.kind != allow for span in found.spans):
        return False
    if allow is not None and not found.spans:
        return False
    folded = value.casefold()
    if any(was in folded for was in stale):
        return False
    return not any(folded in text for text in health_texts)


def _object_kind(kind: Any) -> str | None:
    if not isinstance(kind, str):
        return None
    kind = _KIND_SUFFIX.sub("", kind.strip().lower()).replace(" ", "_")
    return kind if kind in OBJECT_KINDS else None


def _latest_turn_with(value: str, turns: list[Turn]) -> Turn | None:
    folded = value.casefold()
    for turn in reversed(turns):
        if folded in turn.text.casefold():
            return turn
    return None


def candidates_from(
    *,
    conv: Conversation,
    data: dict,
    covers_through: int,
    at: datetime,
    turns: list[Turn],
    span_since: int | None,
    stale: list[str],
) -> list[Candidate]:
    """What the core and the turns say of the visitor, one candidate per field and key:
    the language, the objects, promises, the past case, contact preferences and the
    contact details typed since `span_since`. Nothing a correction replaced (`stale`) and
    nothing near a health detail."""
    visitor = [t for t in turns if t.role == TurnRole.VISITOR and not t.health]
    if not visitor:
        return []
    ok = {"stale": stale, "health_texts": [t.text.casefold() for t in turns if t.health]}
    health_seqs = {t.seq for t in turns if t.health}
    last = visitor[-1]
    out = [Candidate(Field.LANGUAGE, "", conv.language, last.seq, last.created_at)]
    out += _object_candidates(conv=conv, data=data, visitor=visitor, ok=ok)
    promises = [p for p in (clean(p) for p in data.get("promises") or []) if acceptable(p, **ok)]
    out += [
        Candidate(Field.PROMISE, f"{conv.pk}:{i}", promise, covers_through, at)
        for i, promise in enumerate(promises[:MAX_PROMISES])
    ]
    out += _past_case_candidates(conv=conv, data=data, covers_through=covers_through, at=at, ok=ok)
    out += _contact_preference_candidates(data=data, at=at, health_seqs=health_seqs, ok=ok)
    out += _contact_detail_candidates(visitor=visitor, span_since=span_since, ok=ok)
    # one entry per field and key: the newest statement wins (overwrite, not accumulate)
    newest: dict[tuple[str, str], Candidate] = {}
    for cand in out:
        held = newest.get((cand.field, cand.key))
        if held is None or (cand.seq or 0) >= (held.seq or 0):
            newest[(cand.field, cand.key)] = cand
    return list(newest.values())


def _object_candidates(
    *, conv: Conversation, data: dict, visitor: list[Turn], ok: dict
) -> list[Candidate]:
    """Per kind, the object the visitor named most recently (and gave: not the assistant)."""
    named: list[tuple[int, str, str, Turn]] = []
    for item in data.get("objects") or []:
        if not isinstance(item, dict):
            continue
        kind, value = _object_kind(item.get("kind")), clean(item.get("id"), limit=64)
        if kind and value:
            source = _latest_turn_with(value, visitor) or older_turn_with(conv.pk, value)
            if source is not None:
                named.append((source.seq, kind, value, source))
    out: list[Candidate] = []
    for _seq, kind, value, source in sorted(named, key=lambda n: n[0], reverse=True):
        if all(c.key != kind for c in out) and acceptable(value, **ok):
            out.append(Candidate(Field.OBJECT, kind, value, source.seq, source.created_at))
    return out


def _past_case_candidates(
    *, conv: Conversation, data: dict, covers_through: int, at: datetime, ok: dict
) -> list[Candidate]:
    """The conversation as a past case: its date, topic (the request) and resolution."""
    topic = clean(data.get("request"))
    if not acceptable(topic, **ok):
        return []
    settled = [s for s in (clean(s) for s in data.get("settled") or []) if acceptable(s, **ok)]
    case = {
        "date": conv.created_at.date().isoformat(),
        "topic": topic,
        "resolution": "; ".join(settled)[:MAX_TEXT],
    }
    value = json.dumps(case, ensure_ascii=False)
    return [Candidate(Field.PAST_CASE, str(conv.pk), value, covers_through, at)]


def _contact_preference_candidates(
    *, data: dict, at: datetime, health_seqs: set[int], ok: dict
) -> list[Candidate]:
    """Constraints about how to reach the visitor (never one said with a health detail)."""
    out = []
    for item in data.get("constraints") or []:
        if not isinstance(item, dict) or not _CONTACT_CONSTRAINT.search(str(item.get("what", ""))):
            continue
        if item.get("turn") in health_seqs:
            continue
        value = clean(item.get("value"), limit=100)
        if acceptable(value, **ok):
            turn = item.get("turn") if isinstance(item.get("turn"), int) else None
            out.append(Candidate(Field.CONTACT_PREFERENCE, "", value, turn, at))
    return out


def _contact_detail_candidates(
    *, visitor: list[Turn], span_since: int | None, ok: dict
) -> list[Candidate]:
    """E-mail addresses and phone numbers the visitor typed after `span_since` (from the
    turns' spans)."""
    out = []
    for turn in visitor:
        if span_since is None or turn.seq <= span_since:
            continue
        for kind, start, end in turn.spans or []:
            if kind not in (Field.EMAIL, Field.PHONE):
                continue
            value = clean(turn.text[int(start) : int(end)], limit=100)
            if acceptable(value, allow=kind, **ok):
                out.append(Candidate(kind, "", value, turn.seq, turn.created_at))
    return out


def older_turn_with(conversation_id: int, value: str) -> Turn | None:
    """A visitor turn older than the turns a fold reads that holds `value` (long
    conversations only), unless the value also occurs in a turn flagged as health."""
    turns = Turn.objects.filter(conversation_id=conversation_id, text__icontains=value)
    if turns.filter(health=True).exists():
        return None
    return turns.filter(role=TurnRole.VISITOR).order_by("-seq").only("seq", "created_at").first()
