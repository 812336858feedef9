"""The visitor writes while the team has the conversation (waiting or human): the inbox
hears of it, the case's staff are alerted, new contact details join the case, and outside
staff hours the first contact details make the call back a promise. No state changes here
(handover.services.transitions owns those)."""

import logging

from django.db import transaction

from chatwidget.sites.hours import hours_describe
from chatwidget.sites.models import Site
from handover.models import AlertKind, Case
from handover.services.alerts import alert_later
from handover.services.cases import (
    OPEN_STATUSES,
    callback_promise,
    contact_from_turns,
    contact_merge,
    inbox_publish,
    notice_send,
)
from handover.services.notices import NOTICE_CALLBACK_NOTED
from memory.core import core_promise_add
from memory.models import Conversation

log = logging.getLogger(__name__)


def handover_visitor_message(*, conversation_id: int, seq: int) -> None:
    """The visitor wrote while the team has the conversation. New contact details join the
    case; outside staff hours, the first contact details make the call back a promise."""
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        case = (
            Case.objects.select_for_update()
            .filter(conversation_id=conversation_id, status__in=OPEN_STATUSES)
            .order_by("-requested_at")
            .first()
        )
        if case is None:
            return
        inbox_publish(case_id=case.pk, site_id=case.site_id)  # unread count, last message
        alert_later(case_id=case.pk, kind=AlertKind.VISITOR_REPLIED)
        new = contact_from_turns(conversation_id=conversation_id, after_seq=seq - 1)
        new = [c for c in new if c["seq"] == seq]
        if not new:
            return
        case.contact = contact_merge(case.contact or [], new)
        promise = (
            case.status == Case.Status.WAITING
            and case.outside_hours
            and not case.callback_requested
        )
        case.callback_requested = case.callback_requested or promise
        case.save(update_fields=["contact", "callback_requested"])
        site = Site.objects.get(pk=case.site_id)
        if promise:
            hours = hours_describe(
                spec=site.staff_hours, language=conv.language, time_zone=site.time_zone
            )
            notice_send(conv, NOTICE_CALLBACK_NOTED, hours=hours)
    if promise:
        core = core_promise_add(conversation_id=conversation_id, text=callback_promise(site))
        Case.objects.filter(pk=case.pk).update(core=core.data, core_version=core.version)
    log.info("case contact updated", extra={"case": case.pk, "kinds": [c["kind"] for c in new]})
