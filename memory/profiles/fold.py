"""Profile facts from conversations: after a condensed core is stored and after each
answer of a linked conversation, light facts are written as active; contact details and
promises are proposed for staff approval. What only the visitor said (a claim) never becomes
a promise or a past case's resolution (memory.core.provenance)."""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from memory.core import core_coerce
from memory.core.extractive import core_extract
from memory.core.inputs import turn_inputs
from memory.core.provenance import core_provenance_apply
from memory.models import Conversation, Core, Profile, ProfileFact, Turn, TurnRole
from memory.profiles.selectors import APPROVAL_FIELDS, Field, Status
from memory.redaction import PLACEHOLDERS_BY_LANGUAGE, redact

log = logging.getLogger(__name__)

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

MAX_PAST_CASES = 5
MAX_FOLD_TURNS = 200  # newest turns one fold reads (more are covered by earlier folds)
MAX_PROMISES = 5  # per conversation
MAX_TEXT = 200  # topic, resolution, promise: characters
MIN_CORRECTED = 3  # a corrected value shorter than this ("L") is not searched for


# --- updates from the condensed core -----------------------------------------------------------


@dataclass
class _Candidate:
    field: str
    key: str
    value: str
    seq: int | None
    at: datetime


def _clean(value: Any, *, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return ""
    return " ".join(str(value).split())[:limit]


def _acceptable(
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


def _candidates(
    *,
    conv: Conversation,
    data: dict,
    covers_through: int,
    at: datetime,
    turns: list[Turn],
    span_since: int | None,
    stale: list[str],
) -> list[_Candidate]:
    visitor = [t for t in turns if t.role == TurnRole.VISITOR and not t.health]
    health_texts = [t.text.casefold() for t in turns if t.health]
    health_seqs = {t.seq for t in turns if t.health}
    ok = {"stale": stale, "health_texts": health_texts}
    out: list[_Candidate] = []
    if not visitor:
        return out
    last = visitor[-1]

    out.append(_Candidate(Field.LANGUAGE, "", conv.language, last.seq, last.created_at))

    # per kind, the object the visitor named most recently (and gave: not the assistant)
    named: list[tuple[int, str, str, Turn]] = []
    for item in data.get("objects") or []:
        if not isinstance(item, dict):
            continue
        kind, value = _object_kind(item.get("kind")), _clean(item.get("id"), limit=64)
        if kind and value:
            source = _latest_turn_with(value, visitor) or _older_turn_with(conv.pk, value)
            if source is not None:
                named.append((source.seq, kind, value, source))
    for _seq, kind, value, source in sorted(named, key=lambda n: n[0], reverse=True):
        if all(c.key != kind for c in out if c.field == Field.OBJECT) and _acceptable(value, **ok):
            out.append(_Candidate(Field.OBJECT, kind, value, source.seq, source.created_at))

    promises = [_clean(p) for p in data.get("promises") or []]
    for i, promise in enumerate(p for p in promises if _acceptable(p, **ok)):
        if i >= MAX_PROMISES:
            break
        out.append(_Candidate(Field.PROMISE, f"{conv.pk}:{i}", promise, covers_through, at))

    topic = _clean(data.get("request"))
    if _acceptable(topic, **ok):
        settled = [
            s for s in (_clean(s) for s in data.get("settled") or []) if _acceptable(s, **ok)
        ]
        case = {
            "date": conv.created_at.date().isoformat(),
            "topic": topic,
            "resolution": "; ".join(settled)[:MAX_TEXT],
        }
        out.append(
            _Candidate(
                Field.PAST_CASE,
                str(conv.pk),
                json.dumps(case, ensure_ascii=False),
                covers_through,
                at,
            )
        )

    for item in data.get("constraints") or []:
        if not isinstance(item, dict) or not _CONTACT_CONSTRAINT.search(str(item.get("what", ""))):
            continue
        if item.get("turn") in health_seqs:
            continue
        value = _clean(item.get("value"), limit=100)
        if _acceptable(value, **ok):
            out.append(
                _Candidate(
                    Field.CONTACT_PREFERENCE,
                    "",
                    value,
                    item.get("turn") if isinstance(item.get("turn"), int) else None,
                    at,
                )
            )

    # contact details the visitor typed after `span_since` (their spans, newest wins)
    for turn in visitor:
        if span_since is None or turn.seq <= span_since:
            continue
        for kind, start, end in turn.spans or []:
            if kind not in (Field.EMAIL, Field.PHONE):
                continue
            value = _clean(turn.text[int(start) : int(end)], limit=100)
            if _acceptable(value, allow=kind, **ok):
                out.append(_Candidate(kind, "", value, turn.seq, turn.created_at))
    # one entry per field and key: the newest statement wins (overwrite, not accumulate)
    newest: dict[tuple[str, str], _Candidate] = {}
    for cand in out:
        held = newest.get((cand.field, cand.key))
        if held is None or (cand.seq or 0) >= (held.seq or 0):
            newest[(cand.field, cand.key)] = cand
    return list(newest.values())


def _corrected_values(*, profile_id: int, extra: dict | None = None) -> list[str]:
    """Values that a correction replaced, in the current core of any conversation linked to
    the profile (and in `extra`, the core being folded): they stay out, even when an older
    conversation is condensed again."""
    stale: set[str] = set()
    seen: set[int] = set()
    cores = list(
        Core.objects.filter(conversation__profile_id=profile_id)
        .order_by("conversation_id", "-version")
        .values_list("conversation_id", "data")
    )
    for conversation_id, data in [*cores, (None, extra)]:
        if conversation_id in seen:
            continue
        seen.add(conversation_id)
        corrections = data.get("corrections") if isinstance(data, dict) else None
        for item in corrections if isinstance(corrections, list) else []:
            was = _clean(item.get("was"), limit=500).casefold() if isinstance(item, dict) else ""
            if len(was) >= MIN_CORRECTED:
                stale.add(was)
    return sorted(stale)


def profile_update_from_core(*, conversation_id: int) -> dict[str, int]:
    """After a condensed core is stored (memory.condense.service, on commit): fold it into the
    conversation's profile, if it has one. Safe to run twice."""
    return _profile_fold(conversation_id=conversation_id, span_since=None)


def profile_fold_conversation(*, conversation_id: int) -> dict[str, int]:
    """Everything a conversation holds, folded into its profile (when it is linked)."""
    return _profile_fold(conversation_id=conversation_id, span_since=0)


def profile_update_after_turn(*, conversation_id: int, seq: int) -> dict[str, int]:
    """After an answer (or any non-visitor turn) of a linked conversation is committed (hook
    in memory.services.turn_append). Most conversations never grow long enough to be
    condensed, so the turns the stored core does not cover yet are condensed extractively
    here (the deterministic condenser, no model) and folded in. Contact details are taken
    from the visitor's turns since the previous answer only: each is proposed once, and a
    proposal staff rejected does not come back unless the visitor states it again."""
    previous = (
        Turn.objects.filter(conversation_id=conversation_id, seq__lt=seq)
        .exclude(role=TurnRole.VISITOR)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return _profile_fold(conversation_id=conversation_id, span_since=previous or 0)


def _older_turn_with(conversation_id: int, value: str) -> Turn | None:
    """A visitor turn older than the turns a fold reads that holds `value` (long
    conversations only), unless the value also occurs in a turn flagged as health."""
    turns = Turn.objects.filter(conversation_id=conversation_id, text__icontains=value)
    if turns.filter(health=True).exists():
        return None
    return turns.filter(role=TurnRole.VISITOR).order_by("-seq").only("seq", "created_at").first()


def _profile_fold(*, conversation_id: int, span_since: int | None) -> dict[str, int]:
    """Fold what a conversation holds into its profile: the stored core, advanced over the
    turns it does not cover yet by the extractive condenser. `span_since`: scan the visitor's
    turns after this seq for contact details (None: do not)."""
    conv = (
        Conversation.objects.only("pk", "site_id", "profile_id", "language", "created_at")
        .filter(pk=conversation_id)
        .first()
    )
    if conv is None or conv.profile_id is None:
        return {}
    core = Core.objects.filter(conversation_id=conversation_id).order_by("-version").first()
    covered = core.covers_through_seq if core else 0
    turns = list(
        Turn.objects.filter(conversation_id=conversation_id)
        .order_by("-seq")
        .only("seq", "role", "text", "spans", "health", "created_at")[:MAX_FOLD_TURNS]
    )
    turns.reverse()
    uncovered = [t for t in turns if t.seq > covered]
    if uncovered:
        inputs = turn_inputs(uncovered)
        data = core_extract(previous=core.data if core else None, turns=inputs)
        # what only the visitor said is a claim, never a promise or a resolution here either
        data = core_provenance_apply(
            out=data, prev=core_coerce(core.data if core else None), turns=inputs, repairs=Counter()
        )
        covers_through, at = uncovered[-1].seq, timezone.now()
    elif core is not None:
        data, covers_through, at = core.data, core.covers_through_seq, core.created_at
    else:
        return {}
    data = data if isinstance(data, dict) else {}
    stale = _corrected_values(profile_id=conv.profile_id, extra=data)
    counts = {"added": 0, "updated": 0, "proposed": 0, "removed": 0}
    with transaction.atomic():
        profile = Profile.objects.select_for_update().filter(pk=conv.profile_id).first()
        if profile is None:
            return {}
        candidates = _candidates(
            conv=conv,
            data=data,
            covers_through=covers_through,
            at=at,
            turns=turns,
            span_since=span_since,
            stale=stale,
        )
        existing = {(f.field, f.key): f for f in profile.facts.all()}
        # a corrected-away value goes wherever it is, whichever visit it came from
        for fact in list(existing.values()):
            if any(was in fact.value.casefold() for was in stale):
                fact.delete()
                existing.pop((fact.field, fact.key))
                counts["removed"] += 1
        # this conversation's promises are replaced by its current list
        keep = {(c.field, c.key) for c in candidates}
        for (field, key), fact in list(existing.items()):
            if (
                field == Field.PROMISE
                and fact.source_conversation == conv.pk
                and (field, key) not in keep
            ):
                fact.delete()
                existing.pop((field, key))
                counts["removed"] += 1
        for cand in candidates:
            _upsert(profile=profile, conv=conv, cand=cand, existing=existing, counts=counts)
        cases = (
            ProfileFact.objects.filter(profile=profile, field=Field.PAST_CASE)
            .order_by("-recorded_at", "-pk")
            .values_list("pk", flat=True)
        )
        old = list(cases[MAX_PAST_CASES:])
        if old:
            counts["removed"] += ProfileFact.objects.filter(pk__in=old).delete()[0]
    log.info(
        "profile updated",
        extra={
            "profile": conv.profile_id,
            "conversation": conversation_id,
            "core_version": core.version if core else 0,
            "extractive_turns": len(uncovered),
            **counts,
        },
    )
    return counts


def _upsert(
    *,
    profile: Profile,
    conv: Conversation,
    cand: _Candidate,
    existing: dict[tuple[str, str], ProfileFact],
    counts: dict[str, int],
) -> None:
    status = Status.PROPOSED if cand.field in APPROVAL_FIELDS else Status.ACTIVE
    current = existing.get((cand.field, cand.key))
    if current is None:
        existing[(cand.field, cand.key)] = ProfileFact.objects.create(
            profile=profile,
            field=cand.field,
            key=cand.key,
            value=cand.value,
            status=status,
            source_conversation=conv.pk,
            source_seq=cand.seq,
        )
        counts["proposed" if status == Status.PROPOSED else "added"] += 1
        return
    if current.value == cand.value:
        return  # unchanged (an approved value stays approved)
    if current.source_conversation != conv.pk and cand.at < current.recorded_at:
        return  # a later visit already said something newer
    current.value = cand.value
    current.status = status
    current.source_conversation = conv.pk
    current.source_seq = cand.seq
    current.save()
    counts["proposed" if status == Status.PROPOSED else "updated"] += 1
