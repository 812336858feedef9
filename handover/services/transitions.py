"""The server-owned state machine of a conversation, and what staff do on a case.

The conversation's state (memory.ConversationState) moves only here, and only along these
edges (TRANSITIONS); anything else raises IllegalTransition:

    bot     -> waiting   handover_request: the visitor's "talk to a person" control, or the
                         model's `request_handover` tool call (never parsed from reply text)
    bot     -> human     conversation_take_over: staff take over a live conversation
    waiting -> human     case_claim, case_assign, or staff_reply (replying claims the case:
                         the visitor waits for any person, so an extra click helps no one)
    waiting -> bot       case_release: hand the conversation back to the assistant
    human   -> bot       case_release
    human   -> closed    case_resolve, with a case note
    bot     -> closed    quiet after the follow-up question (handover.services.inactivity)

`closed` is final for that conversation: the widget disables its input in that state and
the bot never answers; a visitor who wants to start again uses "forget" (or a new session).
Staff choose between "release to the bot" (the chat goes on) and "resolve" (it ends).

Every state change publishes a `state` frame (chatwidget.platform.frames) to the conversation's group
and stores a system turn telling the visitor what happens, in their language; both go out
after the transaction commits (chatwidget.platform.events.publish_on_commit, turn_append).
From `waiting` on, the bot does not answer (chatwidget.assistant.turns decides).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from chatwidget.integrations.emit import webhook_emit
from chatwidget.integrations.models import WebhookEvent
from chatwidget.platform.events import conversation_group, publish_on_commit
from chatwidget.platform.frames import state_frame
from chatwidget.sites.access import staff_site_ids
from chatwidget.sites.availability import site_availability
from chatwidget.sites.models import Site
from handover.models import Case
from handover.services.cases import (
    OPEN_STATUSES,
    case_core_store,
    contact_from_turns,
    inbox_publish,
    notice_send,
    notice_text_send,
    reason_clean,
    text_masked,
    waiting_count_publish,
)
from handover.services.continuation import continuation_after_reply
from handover.services.notices import (
    NOTICE_CLOSED,
    NOTICE_JOINED,
    NOTICE_JOINED_NAMED,
    NOTICE_NOBODY_ASK,
    NOTICE_NOBODY_KNOWN,
    NOTICE_RELEASED,
    NOTICE_WAITING,
    NOTICE_WAITING_ASK,
    away_notice_text,
)
from handover.services.notification import case_notify_later
from handover.services.presence import staff_available
from memory.analytics import stat_record
from memory.models import Conversation, ConversationState, Turn, TurnRole
from memory.retention import conversation_hold_set
from memory.services import turn_append

log = logging.getLogger(__name__)

S = ConversationState
TRANSITIONS: dict[str, frozenset[str]] = {
    S.BOT: frozenset({S.WAITING, S.HUMAN, S.CLOSED}),
    S.WAITING: frozenset({S.HUMAN, S.BOT}),
    S.HUMAN: frozenset({S.BOT, S.CLOSED}),
    S.CLOSED: frozenset(),
}


class IllegalTransition(Exception):
    """A state change the state machine does not allow (e.g. closed -> human)."""

    def __init__(self, current: str, target: str) -> None:
        self.current = current
        self.target = target
        super().__init__(f"{current} -> {target} is not allowed")


class CaseClosed(Exception):
    """The case is no longer open (resolved or released)."""


def transition_check(*, current: str, target: str) -> None:
    if target not in TRANSITIONS.get(current, frozenset()):
        raise IllegalTransition(current, target)


# --- helpers ---------------------------------------------------------------------------------


def _move(conv: Conversation, target: str) -> None:
    """Change a locked conversation's state and tell every tab (after commit)."""
    transition_check(current=conv.state, target=target)
    log.info(
        "conversation state", extra={"conversation": conv.pk, "from": conv.state, "to": target}
    )
    conv.state = target
    conv.save(update_fields=["state"])
    publish_on_commit(conversation_group(conv.pk), state_frame(target))


def _lock_case(case_id: int) -> tuple[Case, Conversation]:
    case = Case.objects.select_for_update().get(pk=case_id)
    if case.status not in OPEN_STATUSES or case.conversation_id is None:
        raise CaseClosed(case_id)
    conv = Conversation.objects.select_for_update().get(pk=case.conversation_id)
    return case, conv


def _staff_name(user) -> str:
    return (user.get_short_name() or "").strip() if user is not None else ""


def _joined_notice(conv: Conversation, user) -> None:
    name = _staff_name(user)
    if name:
        notice_send(conv, NOTICE_JOINED_NAMED, name=name)
    else:
        notice_send(conv, NOTICE_JOINED)


def handover_request(
    *, conversation_id: int, trigger: str, reason: str = "", now: datetime | None = None
) -> Case | None:
    """bot -> waiting. The visitor asked for a person or the model requested a handover.

    Returns the new case, or None when the conversation is not with the bot (a second click
    or a repeated tool call changes nothing). Outside the site's staff hours (a public
    holiday and a day the owner closed count as outside) the visitor is told when the team
    is back and offered a call back; once contact details are known the call back is a
    promise in the core. Then a fresh core is stored with the case and staff are notified."""
    now = now or timezone.now()
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        if conv.state != S.BOT:
            return None
        site = Site.objects.get(pk=conv.site_id)
        availability = site_availability(site=site, at=now)
        in_hours = availability.open
        # within staff hours, someone must also be online (the staff socket's presence)
        open_now = in_hours and staff_available(site_id=site.pk)
        contact = contact_from_turns(conversation_id=conv.pk)
        case = Case.objects.create(
            site=site,
            conversation=conv,
            trigger=trigger,
            reason=reason_clean(reason),
            contact=contact,
            outside_hours=not open_now,
            callback_requested=not open_now and bool(contact),
        )
        _move(conv, S.WAITING)
        conversation_hold_set(conversation_id=conv.pk, open=True)  # the case holds the transcript
        if open_now:
            has_email = any(c["kind"] == "email" for c in contact)
            notice_send(conv, NOTICE_WAITING if has_email else NOTICE_WAITING_ASK)
        elif in_hours:
            notice_send(conv, NOTICE_NOBODY_KNOWN if contact else NOTICE_NOBODY_ASK)
        else:
            away = away_notice_text(
                site=site,
                availability=availability,
                language=conv.language,
                contact_known=bool(contact),
            )
            notice_text_send(conv, away)
        waiting_count_publish()
        inbox_publish(case_id=case.pk, site_id=site.pk)
        stat_record(site_id=site.pk, handovers=1)
        webhook_emit(
            site_id=site.pk,
            event=WebhookEvent.CASE_WAITING,
            data={
                "case": case.pk,
                "conversation": conv.pk,
                "trigger": trigger,
                "outside_hours": not open_now,
            },
            text={"reason": case.reason} if case.reason else None,
        )
    log.info(
        "handover requested",
        extra={
            "conversation": conversation_id,
            "case": case.pk,
            "trigger": trigger,
            "outside_hours": not open_now,
        },
    )
    case_core_store(case=case, site=site, add_promise=case.callback_requested)
    case_notify_later(case_id=case.pk)
    return case


def conversation_take_over(*, conversation_id: int, user) -> Case:
    """bot -> human: staff take over a live conversation; a case is opened for them."""
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        if conv.state != S.BOT:  # waiting: claim the open case instead of opening another
            raise IllegalTransition(conv.state, S.HUMAN)
        case = Case.objects.create(
            site_id=conv.site_id,
            conversation=conv,
            trigger=Case.Trigger.STAFF,
            status=Case.Status.HUMAN,
            claimed_by=user,
            claimed_at=timezone.now(),
            contact=contact_from_turns(conversation_id=conv.pk),
        )
        _move(conv, S.HUMAN)
        conversation_hold_set(conversation_id=conv.pk, open=True)
        _joined_notice(conv, user)
        inbox_publish(case_id=case.pk, site_id=case.site_id)
    site = Site.objects.get(pk=case.site_id)
    case_core_store(case=case, site=site, add_promise=False)
    log.info(
        "conversation taken over",
        extra={"conversation": conversation_id, "case": case.pk, "user": user.pk},
    )
    return case


def case_claim(*, case_id: int, user) -> Case:
    """waiting -> human: this staff member answers now."""
    return case_assign(case_id=case_id, assignee=user, by=user)


def case_assign(*, case_id: int, assignee, by) -> Case:
    """Give the case to a staff member (waiting -> human; on a human case: a new owner)."""
    if not (assignee.is_active and assignee.is_staff and assignee.has_perm("handover.change_case")):
        raise ValidationError(gettext("This user cannot take handover cases."))
    with transaction.atomic():
        case, conv = _lock_case(case_id)
        allowed = staff_site_ids(assignee)
        if allowed is not None and case.site_id not in allowed:
            raise ValidationError(gettext("This user may not see this site's cases."))
        first = conv.state == S.WAITING
        if first:
            _move(conv, S.HUMAN)
        elif conv.state != S.HUMAN:
            raise IllegalTransition(conv.state, S.HUMAN)
        changed = case.claimed_by_id != assignee.pk
        case.status = Case.Status.HUMAN
        case.claimed_by = assignee
        case.claimed_at = timezone.now()
        case.save(update_fields=["status", "claimed_by", "claimed_at"])
        if first or changed:
            _joined_notice(conv, assignee)
        if first:
            waiting_count_publish()
        inbox_publish(case_id=case.pk, site_id=case.site_id)
    log.info("case assigned", extra={"case": case_id, "user": assignee.pk, "by": by.pk})
    return case


def staff_reply(*, case_id: int, user, text: str) -> Turn:
    """A staff message to the visitor: stored as a staff turn and published to every tab of
    the conversation (whichever process holds the socket). Replying to a waiting case
    claims it for the one who replies."""
    text = (text or "").strip()
    if not text:
        raise ValidationError(gettext("The reply is empty."))
    with transaction.atomic():
        case, conv = _lock_case(case_id)
        if conv.state == S.WAITING:
            _move(conv, S.HUMAN)
            case.status = Case.Status.HUMAN
            case.claimed_by = user
            case.claimed_at = timezone.now()
            case.save(update_fields=["status", "claimed_by", "claimed_at"])
            _joined_notice(conv, user)
            waiting_count_publish()
        elif conv.state != S.HUMAN:
            raise IllegalTransition(conv.state, S.HUMAN)
        turn = turn_append(
            conversation_id=conv.pk, role=TurnRole.STAFF, text=text, author_id=user.pk
        ).turn
        if case.first_reply_at is None:  # the dashboard's "time to the first staff reply"
            Case.objects.filter(pk=case.pk).update(first_reply_at=turn.created_at)
        inbox_publish(case_id=case.pk, site_id=case.site_id)  # unread back to 0
        continuation_after_reply(case=case, seq=turn.seq)  # e-mailed if the visitor has left
    log.info("staff reply", extra={"case": case_id, "seq": turn.seq, "user": user.pk})
    return turn


def case_release(*, case_id: int, user) -> Case:
    """waiting | human -> bot: the assistant answers again; the case is closed as released."""
    with transaction.atomic():
        case, conv = _lock_case(case_id)
        _move(conv, S.BOT)
        case.status = Case.Status.RELEASED
        case.resolved_at = timezone.now()
        case.save(update_fields=["status", "resolved_at"])
        conversation_hold_set(conversation_id=conv.pk, open=False)  # released: no run-off
        notice_send(conv, NOTICE_RELEASED)
        waiting_count_publish()
        inbox_publish(case_id=case.pk, site_id=case.site_id)
    log.info("case released", extra={"case": case_id, "user": user.pk})
    return case


def case_open_promises(case: Case) -> list[str]:
    """The call back promised at handover (with the core's promises as staff read them), or
    nothing. Resolving such a case needs a confirmation: the promise would be dropped
    silently. (Promises the assistant made in the chat are in the core for staff to read;
    they do not block resolving.)"""
    if not case.callback_requested:
        return []
    promises = [str(p) for p in (case.core or {}).get("promises") or []]
    return promises or [gettext("A call back is promised.")]


def case_resolve(*, case_id: int, user, note: str, promise_confirmed: bool = False) -> Case:
    """human -> closed, with a case note. The note outlives the raw transcript: when the
    case's run-off ends, the retention purge (memory.retention) drops the transcript and
    keeps the note. A case with an open promise resolves only when staff confirm it."""
    note = (note or "").strip()
    if not note:
        raise ValidationError(gettext("Write a case note before resolving."))
    with transaction.atomic():
        case, conv = _lock_case(case_id)
        if case_open_promises(case) and not promise_confirmed:
            raise ValidationError(
                gettext(
                    "This case has an open promise to the visitor. Confirm that it is kept (or "
                    "no longer needed) to resolve the case."
                ),
                code="open_promise",
            )
        _move(conv, S.CLOSED)
        case.status = Case.Status.RESOLVED
        case.resolved_at = timezone.now()
        case.note = note
        case.save(update_fields=["status", "resolved_at", "note"])
        # the transcript stays for the run-off after resolution
        conversation_hold_set(conversation_id=conv.pk, open=False, resolved_at=case.resolved_at)
        notice_send(conv, NOTICE_CLOSED)
        inbox_publish(case_id=case.pk, site_id=case.site_id)
        webhook_emit(
            site_id=case.site_id,
            event=WebhookEvent.CASE_RESOLVED,
            data={
                "case": case.pk,
                "conversation": conv.pk,
                "requested_at": case.requested_at.isoformat(),
                "resolved_at": case.resolved_at.isoformat(),
            },
            text={"note": text_masked(note)},
        )
    log.info("case resolved", extra={"case": case_id, "user": user.pk})
    return case
