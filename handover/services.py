"""Handover: the server-owned state machine of a conversation, and what staff do on a case.

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

`closed` is final for that conversation: the widget disables its input in that state and
the bot never answers; a visitor who wants to start again uses "forget" (or a new session).
Staff choose between "release to the bot" (the chat goes on) and "resolve" (it ends).

Every state change publishes `{"type": "state", "state": ...}` to the conversation's group
and stores a system turn telling the visitor what happens, in their language; both go out
after the transaction commits (chatwidget.events.publish_on_commit, turn_append).
From `waiting` on, the bot does not answer (chatwidget.services.answer_generate checks).
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from chatwidget.events import STAFF_ALL_GROUP, conversation_group, publish_on_commit
from chatwidget.models import Site
from handover.hours import hours_describe, hours_is_open
from handover.models import Case
from memory.analytics import stat_record
from memory.models import AuditEvent, Conversation, ConversationState, Core, Turn, TurnRole

log = logging.getLogger(__name__)

S = ConversationState
TRANSITIONS: dict[str, frozenset[str]] = {
    S.BOT: frozenset({S.WAITING, S.HUMAN}),
    S.WAITING: frozenset({S.HUMAN, S.BOT}),
    S.HUMAN: frozenset({S.BOT, S.CLOSED}),
    S.CLOSED: frozenset(),
}
# What the visitor is told (system turns, translated into the conversation's language).
NOTICE_WAITING = gettext_noop("A member of the team will reply here.")
NOTICE_OUTSIDE_HOURS_KNOWN = gettext_noop(
    "Our team is not available right now (hours: %(hours)s). We will get back to you at the "
    "contact details you gave us.")
NOTICE_OUTSIDE_HOURS_ASK = gettext_noop(
    "Our team is not available right now (hours: %(hours)s). Leave your e-mail address or "
    "phone number here and we will get back to you.")
NOTICE_CALLBACK_NOTED = gettext_noop("Thank you. We will get back to you during our hours (%(hours)s).")
NOTICE_JOINED_NAMED = gettext_noop("%(name)s from the team has joined the conversation.")
NOTICE_JOINED = gettext_noop("A member of the team has joined the conversation.")
NOTICE_RELEASED = gettext_noop("You are chatting with the assistant again. Ask for a person at any time.")
NOTICE_CLOSED = gettext_noop("The team has closed this conversation. Thank you!")
OPEN_STATUSES = (Case.Status.WAITING, Case.Status.HUMAN)
CONTACT_KINDS = ("email", "phone", "address")
MAX_CONTACTS = 10
EMPTY_CORE = {"request": "", "objects": [], "constraints": [], "open_points": [],
              "promises": [], "corrections": [], "settled": []}


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


# --- helpers ----------------------------------------------------------------------------------


def _notice(conv: Conversation, message: str, **params: str) -> None:
    """A system turn for the visitor, in the conversation's language (published on commit)."""
    from memory.services import turn_append

    with translation.override(conv.language):
        text = gettext(message) % params if params else gettext(message)
    turn_append(conversation_id=conv.pk, role=TurnRole.SYSTEM, text=text)


def _publish_waiting_count() -> None:
    """The live badge in admin: how many cases wait, sent to every staff socket."""
    from handover.selectors import case_waiting_count

    publish_on_commit(STAFF_ALL_GROUP, {"type": "cases", "waiting": case_waiting_count()})


def _move(conv: Conversation, target: str) -> None:
    """Change a locked conversation's state and tell every tab (after commit)."""
    transition_check(current=conv.state, target=target)
    log.info("conversation state", extra={"conversation": conv.pk, "from": conv.state,
                                          "to": target})
    conv.state = target
    conv.save(update_fields=["state"])
    publish_on_commit(conversation_group(conv.pk), {"type": "state", "state": target})


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
        _notice(conv, NOTICE_JOINED_NAMED, name=name)
    else:
        _notice(conv, NOTICE_JOINED)


def contact_from_turns(*, conversation_id: int, after_seq: int = 0) -> list[dict]:
    """Contact details the visitor gave: values cut from the visitor's turns by their spans
    (e-mail, phone, postal address). Newest last, without repeats."""
    found: list[dict] = []
    seen: set[tuple[str, str]] = set()
    turns = (Turn.objects.filter(conversation_id=conversation_id, role=TurnRole.VISITOR,
                                 seq__gt=after_seq)
             .order_by("seq").only("seq", "text", "spans"))
    for turn in turns:
        for kind, start, end in turn.spans or []:
            if kind not in CONTACT_KINDS:
                continue
            value = turn.text[int(start):int(end)].strip()
            key = (kind, value.lower())
            if value and key not in seen:
                seen.add(key)
                found.append({"kind": kind, "value": value, "seq": turn.seq})
    return found[-MAX_CONTACTS:]


def _merge_contact(existing: list[dict], new: list[dict]) -> list[dict]:
    seen = {(c["kind"], c["value"].lower()) for c in existing}
    merged = list(existing)
    for item in new:
        if (item["kind"], item["value"].lower()) not in seen:
            seen.add((item["kind"], item["value"].lower()))
            merged.append(item)
    return merged[-MAX_CONTACTS:]


def _reason_clean(reason: str) -> str:
    """The reason comes from the widget or the model: never-kept values are removed and
    contact details masked, like everything else staff see."""
    from memory.redaction import mask, redact

    result = redact((reason or "")[:500])
    return mask(result.text, result.spans_json())[:500]


def _fresh_core(conversation_id: int) -> Core | None:
    """A core that covers the conversation now: condensed inline where needed (memory's
    job), else the latest one stored. Never fails the handover."""
    try:
        from memory.condense import core_refresh_inline
    except ImportError:  # the memory issue has not landed yet
        core_refresh_inline = None
    if core_refresh_inline is not None:
        try:
            core = core_refresh_inline(conversation_id=conversation_id)
        except Exception as exc:
            log.warning("inline core refresh failed", extra={"conversation": conversation_id,
                                                             "error": type(exc).__name__})
        else:
            if core is not None:
                return core
    return Core.objects.filter(conversation_id=conversation_id).order_by("-version").first()


def _callback_promise(site: Site) -> str:
    # Internal (the core is read by staff and the model), so in the site's language.
    hours = hours_describe(spec=site.staff_hours, language=site.default_language)
    with translation.override(site.default_language):
        return gettext("Call back during staff hours (%(hours)s) using the contact details "
                       "the visitor left.") % {"hours": hours}


# --- the state machine --------------------------------------------------------------------


def handover_request(
    *, conversation_id: int, trigger: str, reason: str = "", now: datetime | None = None
) -> Case | None:
    """bot -> waiting. The visitor asked for a person or the model requested a handover.

    Returns the new case, or None when the conversation is not with the bot (a second click
    or a repeated tool call changes nothing). Outside the site's staff hours the visitor is
    offered a call back; once contact details are known the call back is a promise in the
    core. Then a fresh core is stored with the case and staff are notified."""
    now = now or timezone.now()
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        if conv.state != S.BOT:
            return None
        site = Site.objects.get(pk=conv.site_id)
        open_now = hours_is_open(spec=site.staff_hours, time_zone=site.time_zone, at=now)
        contact = contact_from_turns(conversation_id=conv.pk)
        case = Case.objects.create(
            site=site, conversation=conv, trigger=trigger, reason=_reason_clean(reason),
            contact=contact, outside_hours=not open_now,
            callback_requested=not open_now and bool(contact),
        )
        _move(conv, S.WAITING)
        hours = hours_describe(spec=site.staff_hours, language=conv.language)
        if open_now:
            _notice(conv, NOTICE_WAITING)
        elif contact:
            _notice(conv, NOTICE_OUTSIDE_HOURS_KNOWN, hours=hours)
        else:
            _notice(conv, NOTICE_OUTSIDE_HOURS_ASK, hours=hours)
        _publish_waiting_count()
        stat_record(site_id=site.pk, handovers=1)
    log.info("handover requested", extra={"conversation": conversation_id, "case": case.pk,
                                          "trigger": trigger, "outside_hours": not open_now})
    _case_core_store(case=case, site=site, add_promise=case.callback_requested)
    transaction.on_commit(lambda: _notify_later(case.pk), robust=True)
    return case


def _case_core_store(*, case: Case, site: Site, add_promise: bool) -> None:
    core = _fresh_core(case.conversation_id)
    if add_promise:
        core = core_add_promise(conversation_id=case.conversation_id,
                                text=_callback_promise(site))
    if core is not None:
        Case.objects.filter(pk=case.pk).update(core=core.data, core_version=core.version)
        case.core, case.core_version = core.data, core.version


def _notify_later(case_id: int) -> None:
    from handover.tasks import case_notify

    case_notify.delay(case_id)


def conversation_take_over(*, conversation_id: int, user) -> Case:
    """bot -> human: staff take over a live conversation; a case is opened for them."""
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        if conv.state != S.BOT:  # waiting: claim the open case instead of opening another
            raise IllegalTransition(conv.state, S.HUMAN)
        case = Case.objects.create(
            site_id=conv.site_id, conversation=conv, trigger=Case.Trigger.STAFF,
            status=Case.Status.HUMAN, claimed_by=user, claimed_at=timezone.now(),
            contact=contact_from_turns(conversation_id=conv.pk),
        )
        _move(conv, S.HUMAN)
        _joined_notice(conv, user)
    site = Site.objects.get(pk=case.site_id)
    _case_core_store(case=case, site=site, add_promise=False)
    log.info("conversation taken over", extra={"conversation": conversation_id, "case": case.pk,
                                               "user": user.pk})
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
            _publish_waiting_count()
    log.info("case assigned", extra={"case": case_id, "user": assignee.pk, "by": by.pk})
    return case


def staff_reply(*, case_id: int, user, text: str) -> Turn:
    """A staff message to the visitor: stored as a staff turn and published to every tab of
    the conversation (whichever process holds the socket). Replying to a waiting case
    claims it for the one who replies."""
    from memory.services import turn_append

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
            _publish_waiting_count()
        elif conv.state != S.HUMAN:
            raise IllegalTransition(conv.state, S.HUMAN)
        turn = turn_append(conversation_id=conv.pk, role=TurnRole.STAFF, text=text,
                           author_id=user.pk).turn
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
        _notice(conv, NOTICE_RELEASED)
        _publish_waiting_count()
    log.info("case released", extra={"case": case_id, "user": user.pk})
    return case


def case_resolve(*, case_id: int, user, note: str) -> Case:
    """human -> closed, with a case note. The note outlives the raw transcript: when the
    case's run-off ends, the retention purge (memory.retention) drops the transcript and
    keeps the note."""
    note = (note or "").strip()
    if not note:
        raise ValidationError(gettext("Write a case note before resolving."))
    with transaction.atomic():
        case, conv = _lock_case(case_id)
        _move(conv, S.CLOSED)
        case.status = Case.Status.RESOLVED
        case.resolved_at = timezone.now()
        case.note = note
        case.save(update_fields=["status", "resolved_at", "note"])
        _notice(conv, NOTICE_CLOSED)
    log.info("case resolved", extra={"case": case_id, "user": user.pk})
    return case


def case_note_update(*, case_id: int, user, note: str) -> Case:
    with transaction.atomic():
        case = Case.objects.select_for_update().get(pk=case_id)
        case.note = (note or "").strip()
        case.save(update_fields=["note"])
    log.info("case note updated", extra={"case": case_id, "user": user.pk})
    return case


def handover_visitor_message(*, conversation_id: int, seq: int) -> None:
    """The visitor wrote while the team has the conversation. New contact details join the
    case; outside staff hours, the first contact details make the call back a promise."""
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        case = (Case.objects.select_for_update()
                .filter(conversation_id=conversation_id, status__in=OPEN_STATUSES)
                .order_by("-requested_at").first())
        if case is None:
            return
        new = contact_from_turns(conversation_id=conversation_id, after_seq=seq - 1)
        new = [c for c in new if c["seq"] == seq]
        if not new:
            return
        case.contact = _merge_contact(case.contact or [], new)
        promise = (case.status == Case.Status.WAITING and case.outside_hours
                   and not case.callback_requested)
        case.callback_requested = case.callback_requested or promise
        case.save(update_fields=["contact", "callback_requested"])
        site = Site.objects.get(pk=case.site_id)
        if promise:
            hours = hours_describe(spec=site.staff_hours, language=conv.language)
            _notice(conv, NOTICE_CALLBACK_NOTED, hours=hours)
    if promise:
        core = core_add_promise(conversation_id=conversation_id, text=_callback_promise(site))
        Case.objects.filter(pk=case.pk).update(core=core.data, core_version=core.version)
    log.info("case contact updated", extra={"case": case.pk, "kinds": [c["kind"] for c in new]})


def core_add_promise(*, conversation_id: int, text: str) -> Core:
    """A new core version: the latest data plus one promise (a call back, a handover).
    Condensation builds on the latest version, so the promise carries forward."""
    from memory.condense import core_render
    from memory.tokens import count_tokens

    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        latest = Core.objects.filter(conversation=conv).order_by("-version").first()
        data = copy.deepcopy(latest.data) if latest else copy.deepcopy(EMPTY_CORE)
        promises = list(data.get("promises") or [])
        if text not in promises:
            promises.append(text)
        data["promises"] = promises
        covers = latest.covers_through_seq if latest else conv.condensed_through_seq
        rendered = core_render(data=data, covers_through=covers)
        core = Core.objects.create(
            conversation=conv,
            version=(latest.version if latest else 0) + 1,
            data=data,
            covers_through_seq=covers,
            token_count=count_tokens(rendered),
            source=latest.source if latest else Core.Source.EXTRACTIVE,
            repairs={"promise_added": 1},
        )
        conv.core_version = core.version
        conv.save(update_fields=["core_version"])
    log.info("core promise added", extra={"conversation": conversation_id,
                                          "version": core.version})
    return core


# --- staff notification --------------------------------------------------------------------


def case_notify_staff(*, case_id: int) -> bool:
    """E-mail the configured address that a case waits. No message text: a link only."""
    from django.core.mail import send_mail
    from django.urls import reverse

    address = settings.HANDOVER_NOTIFY_EMAIL
    case = Case.objects.select_related("site").filter(pk=case_id).first()
    if not address or case is None or case.status != Case.Status.WAITING:
        return False
    link = settings.PUBLIC_URL.rstrip("/") + reverse("admin:handover_case_change", args=[case.pk])
    with translation.override(settings.LANGUAGE_CODE):
        subject = gettext("[%(site)s] A visitor is waiting for a person (case %(id)s)") % {
            "site": case.site.name, "id": case.pk}
        body = gettext(
            "A visitor on %(site)s asked for a person.\n\nOpen the case: %(link)s\n\n"
            "This e-mail holds no conversation content; read it in admin."
        ) % {"site": case.site.name, "link": link}
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    log.info("case notification sent", extra={"case": case_id})
    return True


# --- reveal (owners only, audited) ------------------------------------------------------------


@dataclass(frozen=True)
class Revealed:
    target: str
    label: str
    contact: dict | None = None
    turns: list[dict] | None = None


def plaintext_reveal(*, case_id: int, user, target: str, reason: str) -> Revealed:
    """Plaintext of one contact field ("contact:<n>") or of the transcript ("transcript").
    Owner permission and a stated reason required; every reveal is logged (AuditEvent)."""
    if not user.has_perm("handover.reveal_plaintext"):
        raise PermissionDenied
    reason = (reason or "").strip()
    if len(reason) < 5:
        raise ValidationError(gettext("State the reason for revealing (at least 5 characters)."))
    case = Case.objects.get(pk=case_id)
    if target == "transcript":
        if case.conversation_id is None:
            raise ValidationError(gettext("The transcript of this case no longer exists."))
        turns = [
            {"seq": t.seq, "role": t.role, "text": t.text, "at": t.created_at}
            for t in Turn.objects.filter(conversation_id=case.conversation_id).order_by("seq")
        ]
        revealed = Revealed(target=target, label=gettext("transcript"), turns=turns)
        details = {"case": case.pk, "field": "transcript", "turns": len(turns)}
    elif target.startswith("contact:") and target[8:].isdigit():
        index = int(target[8:])
        contacts = case.contact or []
        if index >= len(contacts):
            raise ValidationError(gettext("This field does not exist."))
        item = contacts[index]
        revealed = Revealed(target=target, label=item["kind"], contact=item)
        details = {"case": case.pk, "field": f"contact {index}", "kind": item["kind"]}
    else:
        raise ValidationError(gettext("This field does not exist."))
    AuditEvent.objects.create(
        actor=user, actor_label=user.get_username(), action=AuditEvent.Action.REVEAL,
        site_id=case.site_id, conversation_ref=case.conversation_id,
        target=f"case {case.pk} / {details['field']}", reason=reason, details=details,
    )
    log.info("plaintext revealed", extra={"case": case.pk, "field": details["field"],
                                          "user": user.pk})
    return revealed
