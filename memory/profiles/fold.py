"""Profile facts from conversations: after a condensed core is stored and after each
answer of a linked conversation, light facts are written as active; contact details and
promises are proposed for staff approval. What only the visitor said (a claim) never becomes
a promise or a past case's resolution (memory.core.provenance)."""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from memory.core import core_coerce
from memory.core.extractive import core_extract
from memory.core.inputs import turn_inputs
from memory.core.provenance import core_provenance_apply
from memory.models import Conversation, Core, Profile, ProfileFact, Turn, TurnRole
from memory.profiles.candidates import Candidate, candidates_from, clean
from memory.profiles.selectors import APPROVAL_FIELDS, Field, Status

log = logging.getLogger(__name__)


MAX_PAST_CASES = 5
MAX_FOLD_TURNS = 200  # newest turns one fold reads (more are covered by earlier folds)
MIN_CORRECTED = 3  # a corrected value shorter than this ("L") is not searched for


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
            was = clean(item.get("was"), limit=500).casefold() if isinstance(item, dict) else ""
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


@dataclass
class _Folded:
    """What a conversation says now: the core advanced over the turns it does not cover."""

    data: dict
    covers_through: int
    at: datetime
    turns: list[Turn]
    extractive_turns: int
    core_version: int


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
    folded = _conversation_now(conversation_id)
    if folded is None:
        return {}
    stale = _corrected_values(profile_id=conv.profile_id, extra=folded.data)
    counts = {"added": 0, "updated": 0, "proposed": 0, "removed": 0}
    with transaction.atomic():
        profile = Profile.objects.select_for_update().filter(pk=conv.profile_id).first()
        if profile is None:
            return {}
        candidates = candidates_from(
            conv=conv,
            data=folded.data,
            covers_through=folded.covers_through,
            at=folded.at,
            turns=folded.turns,
            span_since=span_since,
            stale=stale,
        )
        existing = {(f.field, f.key): f for f in profile.facts.all()}
        counts["removed"] += _facts_drop_outdated(
            existing=existing, stale=stale, conv=conv, candidates=candidates
        )
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
            "core_version": folded.core_version,
            "extractive_turns": folded.extractive_turns,
            **counts,
        },
    )
    return counts


def _conversation_now(conversation_id: int) -> _Folded | None:
    """The stored core, advanced by the extractive condenser over the newest turns it does
    not cover (None: neither a core nor turns)."""
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
        return None
    return _Folded(
        data=data if isinstance(data, dict) else {},
        covers_through=covers_through,
        at=at,
        turns=turns,
        extractive_turns=len(uncovered),
        core_version=core.version if core else 0,
    )


def _facts_drop_outdated(
    *, existing: dict, stale: list[str], conv: Conversation, candidates: list[Candidate]
) -> int:
    """A corrected-away value goes wherever it is, whichever visit it came from; this
    conversation's promises are replaced by its current list. Returns how many went."""
    removed = 0
    for fact in list(existing.values()):
        if any(was in fact.value.casefold() for was in stale):
            fact.delete()
            existing.pop((fact.field, fact.key))
            removed += 1
    keep = {(c.field, c.key) for c in candidates}
    for (field, key), fact in list(existing.items()):
        if (
            field == Field.PROMISE
            and fact.source_conversation == conv.pk
            and (field, key) not in keep
        ):
            fact.delete()
            existing.pop((field, key))
            removed += 1
    return removed


def _upsert(
    *,
    profile: Profile,
    conv: Conversation,
    cand: Candidate,
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
