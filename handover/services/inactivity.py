"""Conversations that go quiet (issue 32): one follow-up question, then the automatic close.

When the visitor has not answered an assistant or staff turn for the site's
`inactivity_followup_minutes`, the conversation gets one follow-up question (an assistant
turn with the bot, a system turn with a person), in its language, published like any turn.
When the follow-up is still its newest turn after `inactivity_resolve_minutes`, the
conversation is closed: its open case (if any) is resolved with a note, so the widget asks
for the rating (handover.services.ratings), and the visitor is told why. Both are webhook
events (`conversation.followup`, `conversation.resolved`, and `case.resolved` for a case).

What is never touched: a conversation waiting for a person (the visitor waits for us, not
the reverse); one a person has unless the owner turned `inactivity_staff_cases` on; a case
with an open call-back promise (resolving would drop it silently); a conversation whose
newest turn is the visitor's (they came back, or wait for an answer); an expired one.

Run by beat (`handover.tasks.inactivity_scan`, every minute). The scan
reads each enabled site's candidates through indexes (`memory_conv_state_activity`: open
conversations quiet within an hour-long band; `memory_conv_followed_up`: those with a
follow-up), at most `batch` each, and decides every conversation again under its row lock,
so a second scan, a racing visitor message or two beat processes change nothing twice: the
follow-up's client id (`~f:<seq of the turn it follows>`) is unique per conversation.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from chatwidget.integrations.emit import webhook_emit
from chatwidget.integrations.models import WebhookEvent
from chatwidget.platform.events import conversation_group, publish_on_commit
from chatwidget.platform.frames import rating_frame, state_frame
from chatwidget.platform.languages import staff_language
from chatwidget.sites.models import Site
from handover.models import Case
from handover.services.cases import OPEN_STATUSES, inbox_publish, notice_send, text_masked
from handover.services.notices import (
    NOTICE_FOLLOWUP,
    NOTICE_FOLLOWUP_TEAM,
    NOTICE_INACTIVE_CLOSED,
)
from handover.services.transitions import case_open_promises, transition_check
from memory.models import Conversation, ConversationState, Turn, TurnRole
from memory.retention import conversation_hold_set
from memory.selectors import conversation_is_expired
from memory.services import turn_append

log = logging.getLogger(__name__)

S = ConversationState
INACTIVITY_SCAN_TASK = "handover.tasks.inactivity_scan"
#: A follow-up due longer ago than this is not sent (beat was down, or the owner just turned
#: the feature on): the visitor is long gone and the question would only be noise. Such a
#: conversation is never closed by inactivity either; the retention purge takes it.
FOLLOWUP_LATE = timedelta(hours=1)
BATCH = 200  # per site and kind, per scan
FOLLOWUP_PREFIX = "~f:"  # client ids starting with "~" are the server's


@dataclass
class ScanResult:
    followups: int = 0
    resolved: int = 0


def _states(site: Site) -> list[str]:
    return [S.BOT, S.HUMAN] if site.inactivity_staff_cases else [S.BOT]


def followups_due(*, site: Site, now: datetime, batch: int = BATCH) -> list[int]:
    """Conversations of the site quiet since the follow-up time (within FOLLOWUP_LATE) whose
    newest turn is not their follow-up. Oldest first."""
    due = now - timedelta(minutes=site.inactivity_followup_minutes)
    return list(
        Conversation.objects.filter(
            state__in=_states(site),
            last_activity_at__lte=due,
            last_activity_at__gt=due - FOLLOWUP_LATE,
            site_id=site.pk,
        )
        .filter(Q(followup_seq__isnull=True) | Q(followup_seq__lt=F("next_seq") - 1))
        .order_by("last_activity_at")
        .values_list("pk", flat=True)[:batch]
    )


def resolutions_due(*, site: Site, now: datetime, batch: int = BATCH) -> list[int]:
    """Conversations of the site whose follow-up is their newest turn and has been for
    `inactivity_resolve_minutes`. Oldest first."""
    due = now - timedelta(minutes=site.inactivity_resolve_minutes)
    return list(
        Conversation.objects.filter(
            followup_seq__isnull=False,
            last_activity_at__lte=due,
            state__in=_states(site),
            site_id=site.pk,
            followup_seq=F("next_seq") - 1,
        )
        .order_by("last_activity_at")
        .values_list("pk", flat=True)[:batch]
    )


def _locked(conversation_id: int) -> tuple[Conversation, Site] | None:
    conv = Conversation.objects.select_for_update().filter(pk=conversation_id).first()
    if conv is None:
        return None
    return conv, Site.objects.get(pk=conv.site_id)


def conversation_followup(*, conversation_id: int, now: datetime | None = None) -> Turn | None:
    """Ask the quiet visitor once whether there is anything else. None when it is not due
    (any more): decided under the conversation's row lock."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(conversation_id)
        if locked is None:
            return None
        conv, site = locked
        minutes = site.inactivity_followup_minutes
        if not minutes or conv.state not in _states(site):
            return None
        if conv.last_activity_at > now - timedelta(minutes=minutes):
            return None
        last = Turn.objects.filter(conversation=conv).order_by("-seq").first()
        if last is None or last.role not in (TurnRole.ASSISTANT, TurnRole.STAFF):
            return None  # the visitor wrote last, or a notice: nothing to follow up
        if last.seq == conv.followup_seq or conversation_is_expired(conversation=conv, now=now):
            return None
        with_person = conv.state == S.HUMAN
        with translation.override(conv.language):
            text = gettext(NOTICE_FOLLOWUP_TEAM if with_person else NOTICE_FOLLOWUP)
        appended = turn_append(
            conversation_id=conv.pk,
            role=TurnRole.SYSTEM if with_person else TurnRole.ASSISTANT,
            text=text,
            client_id=f"{FOLLOWUP_PREFIX}{last.seq}",
            savepoint=False,
        )
        if not appended.created:  # this quiet spell had its follow-up already
            return None
        turn = appended.turn
        Conversation.objects.filter(pk=conv.pk).update(followup_seq=turn.seq)
        webhook_emit(
            site_id=site.pk,
            event=WebhookEvent.CONVERSATION_FOLLOWUP,
            data={
                "conversation": conv.pk,
                "seq": turn.seq,
                "state": conv.state,
                "quiet_since": last.created_at.isoformat(),
            },
        )
    log.info("inactivity follow-up", extra={"conversation": conversation_id, "seq": turn.seq})
    return turn


def _auto_note(site: Site) -> str:
    # the case note is read by staff: in the site's language when staff read it
    with translation.override(staff_language(site.default_language)):
        return gettext("Resolved automatically: the visitor did not answer the follow-up question.")


def _case_resolve(case: Case, conv: Conversation, site: Site, now: datetime) -> None:
    case.status = Case.Status.RESOLVED
    case.resolved_at = now
    case.note = case.note or _auto_note(site)
    case.save(update_fields=["status", "resolved_at", "note"])
    conversation_hold_set(conversation_id=conv.pk, open=False, resolved_at=now)
    inbox_publish(case_id=case.pk, site_id=site.pk)
    webhook_emit(
        site_id=site.pk,
        event=WebhookEvent.CASE_RESOLVED,
        data={
            "case": case.pk,
            "conversation": conv.pk,
            "requested_at": case.requested_at.isoformat(),
            "resolved_at": now.isoformat(),
            "by": "inactivity",
        },
        text={"note": text_masked(case.note)},
    )


def conversation_inactive_resolve(*, conversation_id: int, now: datetime | None = None) -> bool:
    """Close a conversation whose follow-up went unanswered, resolving its open case (the
    widget then asks for the rating). False when it is not due (any more) or must stay open:
    decided under the conversation's and the case's row locks."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(conversation_id)
        if locked is None:
            return False
        conv, site = locked
        minutes = site.inactivity_resolve_minutes
        if not minutes or not site.inactivity_followup_minutes or conv.state not in _states(site):
            return False
        if conv.followup_seq is None or conv.followup_seq != conv.next_seq - 1:
            return False  # no follow-up, or the visitor came back after it
        if conv.last_activity_at > now - timedelta(minutes=minutes):
            return False
        case = (
            Case.objects.select_for_update()
            .filter(conversation_id=conv.pk, status__in=OPEN_STATUSES)
            .order_by("-requested_at")
            .first()
        )
        if case is not None and (case.status != Case.Status.HUMAN or case_open_promises(case)):
            return False
        transition_check(current=conv.state, target=S.CLOSED)
        conv.state = S.CLOSED
        conv.save(update_fields=["state"])
        publish_on_commit(conversation_group(conv.pk), state_frame(S.CLOSED))
        if case is not None:
            _case_resolve(case, conv, site, now)
        notice_send(conv, NOTICE_INACTIVE_CLOSED)
        # the widget asks for a rating when a conversation closes: only a case may be rated
        publish_on_commit(
            conversation_group(conv.pk), rating_frame(askable=case is not None, score=None)
        )
        webhook_emit(
            site_id=site.pk,
            event=WebhookEvent.CONVERSATION_RESOLVED,
            data={
                "conversation": conv.pk,
                "case": case.pk if case is not None else None,
                "reason": "inactivity",
                "followup_seq": conv.followup_seq,
                "resolved_at": now.isoformat(),
            },
        )
    log.info(
        "inactive conversation resolved",
        extra={"conversation": conversation_id, "case": case.pk if case else None},
    )
    return True


def inactivity_scan(*, now: datetime | None = None, batch: int = BATCH) -> ScanResult:
    """One pass over the sites with inactivity turned on: follow-ups, then resolutions.
    Safe to run twice and concurrently (every conversation is decided under its lock)."""
    now = now or timezone.now()
    result = ScanResult()
    for site in Site.objects.filter(inactivity_followup_minutes__gt=0).order_by("pk"):
        for conversation_id in followups_due(site=site, now=now, batch=batch):
            if conversation_followup(conversation_id=conversation_id, now=now) is not None:
                result.followups += 1
        if site.inactivity_resolve_minutes:
            for conversation_id in resolutions_due(site=site, now=now, batch=batch):
                if conversation_inactive_resolve(conversation_id=conversation_id, now=now):
                    result.resolved += 1
    if result.followups or result.resolved:
        log.info(
            "inactivity scan",
            extra={"followups": result.followups, "resolved": result.resolved},
        )
    return result
