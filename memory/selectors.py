"""Reads. Expired data is treated as gone here, before any purge has run."""

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from chatwidget.sites.models import Site
from memory.models import (
    Conversation,
    ConversationState,
    LinkedSession,
    RetentionPolicy,
    Turn,
    TurnRole,
)
from memory.redaction import mask

DAYS_PER_MONTH = 30  # a month of the profile period (the recognition cookie's month too)


def profile_period(*, months: int) -> timedelta:
    """How long a recognition profile lives after the last visit: the one place of the
    rule (profile expiry, the purge, the staff list, the cookie's lifetime)."""
    return timedelta(days=DAYS_PER_MONTH * months)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def retention_for_site(*, site_id: int) -> RetentionPolicy:
    policy = RetentionPolicy.objects.filter(site_id=site_id).first()
    return policy or RetentionPolicy(site_id=site_id)  # unsaved: the defaults


def case_runoff_cutoff(*, policy: RetentionPolicy, now) -> datetime:
    """A case that ended before this moment is past its run-off (`case_days`): its raw
    transcript and the copies of it go. The one place of the rule."""
    return now - timedelta(days=policy.case_days)


def conversation_expires_at(*, conversation: Conversation, policy: RetentionPolicy):
    """When the session transcript expires, unless a case holds it (`conversation_is_held`)."""
    return conversation.last_activity_at + timedelta(hours=policy.session_hours)


def conversation_held_q(*, policy: RetentionPolicy, now) -> Q:
    """The transcript hold (data handover writes on case transitions): an open case, or a
    case resolved within the run-off, keeps the raw transcript alive. The one place of the
    rule; `conversation_is_held` applies the same filter to one row."""
    cutoff = case_runoff_cutoff(policy=policy, now=now)
    return Q(case_hold=True) | Q(case_resolved_at__gt=cutoff)


def conversation_is_held(*, conversation: Conversation, policy: RetentionPolicy, now) -> bool:
    cutoff = case_runoff_cutoff(policy=policy, now=now)
    return conversation.case_hold or (
        conversation.case_resolved_at is not None and conversation.case_resolved_at > cutoff
    )


def conversation_is_expired(*, conversation: Conversation, now=None) -> bool:
    now = now or timezone.now()
    policy = retention_for_site(site_id=conversation.site_id)
    if conversation_expires_at(conversation=conversation, policy=policy) > now:
        return False
    return not conversation_is_held(conversation=conversation, policy=policy, now=now)


def policy_groups() -> list[tuple[list[int], RetentionPolicy]]:
    """Sites grouped by identical policy values (sites without a row get the defaults).
    Shop installations have few distinct policies, so the filters below stay small."""
    fields = ("session_hours", "case_days", "profile_months", "audit_days")
    groups: dict[tuple, list[int]] = {}
    rows = Site.objects.values_list("pk", *(f"retention__{f}" for f in fields))
    defaults = RetentionPolicy()
    for pk, *values in rows:
        key = tuple(
            getattr(defaults, f) if v is None else v for f, v in zip(fields, values, strict=True)
        )
        groups.setdefault(key, []).append(pk)
    return [
        (ids, RetentionPolicy(**dict(zip(fields, key, strict=True)))) for key, ids in groups.items()
    ]


def conversations_expired_q(*, now=None) -> Q:
    """The filter for conversations whose session transcript has expired under the current
    policy of their site and that no case holds (the same rule as `conversation_is_expired`,
    for querysets: purge, admin lists, handover views)."""
    now = now or timezone.now()
    expired = Q(pk__in=[])
    for site_ids, policy in policy_groups():
        expired |= (
            Q(site_id__in=site_ids)
            & Q(last_activity_at__lte=now - timedelta(hours=policy.session_hours))
            & ~conversation_held_q(policy=policy, now=now)
        )
    return expired


def conversations_expired(*, now=None, queryset: QuerySet | None = None) -> QuerySet:
    qs = Conversation.objects.all() if queryset is None else queryset
    return qs.filter(conversations_expired_q(now=now))


def conversations_live(*, now=None, queryset: QuerySet | None = None) -> QuerySet:
    """What staff may still see: expired transcripts are gone before the purge has run."""
    qs = Conversation.objects.all() if queryset is None else queryset
    return qs.exclude(conversations_expired_q(now=now))


def transcript_copy_is_expired(
    *, site_id: int, conversation_id: int | None, ended_at, purged_at, now=None
) -> bool:
    """True when a copy of a transcript kept elsewhere (a handover case's core, contact
    details and link) may no longer be shown: it was purged, the run-off after `ended_at`
    (None: not ended) is over, or the conversation itself has expired or is gone."""
    now = now or timezone.now()
    if purged_at is not None:
        return True
    policy = retention_for_site(site_id=site_id)
    if ended_at is not None and ended_at < case_runoff_cutoff(policy=policy, now=now):
        return True
    if conversation_id is None:
        return True
    conv = Conversation.objects.filter(pk=conversation_id).first()
    return conv is None or conversation_is_expired(conversation=conv, now=now)


@dataclass(frozen=True)
class SessionAccess:
    """What a session token opens: its conversation, and whether the view is masked (a
    linked session, made by an e-mail continuation link: memory.models.LinkedSession)."""

    conversation: Conversation
    masked: bool = False
    linked_session_id: int | None = None


def session_get(*, site_id: int, token: str | None) -> SessionAccess | None:
    """The live conversation a session token opens, or None (unknown, other site, expired).
    The conversation's own token first (one query, the common case), then linked sessions."""
    if not token or len(token) > 200:
        return None
    digest = token_hash(token)
    conv = Conversation.objects.filter(token_hash=digest, site_id=site_id).first()
    access = SessionAccess(conversation=conv) if conv is not None else None
    if access is None:
        linked = (
            LinkedSession.objects.select_related("conversation")
            .filter(token_hash=digest, conversation__site_id=site_id)
            .first()
        )
        if linked is None:
            return None
        access = SessionAccess(
            conversation=linked.conversation, masked=linked.masked, linked_session_id=linked.pk
        )
    if conversation_is_expired(conversation=access.conversation):
        return None
    return access


def conversation_get_by_token(*, site_id: int, token: str | None) -> Conversation | None:
    """The live conversation for a session token, or None (unknown, other site, expired)."""
    access = session_get(site_id=site_id, token=token)
    return access.conversation if access is not None else None


@dataclass(frozen=True)
class TurnPage:
    """Turns for the widget (`turn_public` dicts, oldest first) and whether turns it asked
    for were left out below the first of them."""

    turns: list[dict]
    earlier: bool


PAGE_BATCH = 100  # rows read per query while a page fills (keyset: seq below the last one)
CUT_MARK = " […]"


def turns_for_visitor_page(
    *,
    conversation_id: int,
    max_bytes: int,
    after_seq: int | None = None,
    before_seq: int | None = None,
    masked: bool = False,
) -> TurnPage:
    """The newest turns the visitor may see, after `after_seq` and before `before_seq`
    (either may be None), as many as fit in `max_bytes` of JSON (UTF-8, one comma between
    turns): what the welcome and history frames carry, so a conversation of any length
    reopens in a frame of bounded size (issue 25). Read newest first in batches, so a long
    conversation is never loaded whole. A newest turn that alone exceeds the budget is sent
    with its text cut (marked), so a page is never empty while turns remain. Shop lookups
    (role `tool`) are for the model and staff, never shown in the widget. `masked`: a linked
    session's view (contact details masked, `turn_public`)."""
    qs = Turn.objects.filter(conversation_id=conversation_id).exclude(role=TurnRole.TOOL)
    if after_seq:
        qs = qs.filter(seq__gt=after_seq)
    qs = qs.order_by("-seq").only(
        "seq", "role", "text", "spans", "cards", "choices", "attachments", "created_at"
    )
    picked: list[dict] = []
    used = 0
    cursor = before_seq
    while True:
        batch = list((qs.filter(seq__lt=cursor) if cursor is not None else qs)[:PAGE_BATCH])
        for index, turn in enumerate(batch):
            public = turn_public(turn, masked=masked)
            size = _json_size(public) + 1
            if used + size > max_bytes:
                if picked:
                    return TurnPage(turns=picked[::-1], earlier=True)
                # the newest alone is too large: its text cut, and what lies below it
                older = index + 1 < len(batch) or qs.filter(seq__lt=turn.seq).exists()
                return TurnPage(turns=[_turn_cut(public, max_bytes)], earlier=older)
            picked.append(public)
            used += size
        if len(batch) < PAGE_BATCH:
            return TurnPage(turns=picked[::-1], earlier=False)
        cursor = batch[-1].seq


def _json_size(value: dict) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def _turn_cut(public: dict, max_bytes: int) -> dict:
    """`public` with its text shortened so the turn's JSON fits in `max_bytes`."""
    room = max_bytes - _json_size({**public, "text": ""}) - len(CUT_MARK.encode()) - 64
    # a JSON escape (\u0001) is at most six bytes a byte: a sixth of the room always fits
    text = public["text"].encode()[: max(room // 6, 0)].decode("utf-8", errors="ignore")
    return {**public, "text": text + CUT_MARK}


def turn_public(turn: Turn, *, masked: bool = False) -> dict:
    """A turn as the widget shows it; `masked` for a linked session (contact details masked
    as in staff views)."""
    public = {
        "seq": turn.seq,
        "role": turn.role,
        "text": mask(turn.text, turn.spans or []) if masked else turn.text,
        "at": turn.created_at.isoformat(),
    }
    # only when there are some: the frames of every other turn stay as they were
    if turn.cards:
        public["cards"] = turn.cards
    if turn.choices:
        public["choices"] = turn.choices
    if turn.attachments:  # a visitor's photos and files (issue 33): names, never the bytes
        public["attachments"] = turn.attachments
    return public


def event_masked(*, conversation_id: int, event: dict) -> dict:
    """A conversation event as a linked session may see it: a `message` frame's text masked
    by its stored turn's spans (one query; other events unchanged)."""
    if event.get("type") != "message" or not isinstance(event.get("seq"), int):
        return event
    turn = (
        Turn.objects.filter(conversation_id=conversation_id, seq=event["seq"])
        .only("text", "spans")
        .first()
    )
    if turn is None or not turn.spans:
        return event
    return {**event, "text": mask(turn.text, turn.spans)}


@dataclass(frozen=True)
class UnansweredTurn:
    seq: int
    client_id: str | None


def turn_unanswered(*, conversation_id: int, max_age_s: float) -> UnansweredTurn | None:
    """The conversation's newest visitor turn when nothing answered it yet (no assistant or
    staff turn after it) while the bot has the conversation, at most `max_age_s` old. One
    query. An older question is left alone: the visitor has moved on."""
    newest = (
        Turn.objects.filter(
            conversation_id=conversation_id,
            conversation__state=ConversationState.BOT,
            role__in=(TurnRole.VISITOR, TurnRole.ASSISTANT, TurnRole.STAFF),
        )
        .order_by("-seq")
        .values("seq", "role", "client_id", "created_at")
        .first()
    )
    if newest is None or newest["role"] != TurnRole.VISITOR:
        return None
    if newest["created_at"] < timezone.now() - timedelta(seconds=max_age_s):
        return None
    return UnansweredTurn(seq=newest["seq"], client_id=newest["client_id"])
