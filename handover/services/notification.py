"""Telling staff that a visitor waits: each staff user's alerts (handover.services.alerts,
issue 32), and the one address HANDOVER_NOTIFY_EMAIL as the fallback when no user is told.
An e-mail with a link, never conversation text."""

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.platform.rehearsal import in_rehearsal
from handover.models import AlertKind, Case
from handover.services.alerts import alert_later, alert_recipients

log = logging.getLogger(__name__)

CASE_NOTIFY_TASK = "handover.tasks.case_notify"


def case_notify_later(*, case_id: int) -> None:
    """After commit, on a worker: the e-mail must not delay the visitor's handover. None for
    a rehearsal's case (the go-live check's, deleted within seconds)."""
    if in_rehearsal():
        return
    task_enqueue_on_commit(CASE_NOTIFY_TASK, case_id, inline_when_broker_down=True)
    alert_later(case_id=case_id, kind=AlertKind.NEW_CASE)


def case_notify_staff(*, case_id: int) -> bool:
    """E-mail the configured address that a case waits, unless a staff user's own alerts tell
    someone of it (the address is the fallback). No message text: a link only."""
    address = settings.HANDOVER_NOTIFY_EMAIL
    case = Case.objects.select_related("site").filter(pk=case_id).first()
    if not address or case is None or case.status != Case.Status.WAITING:
        return False
    if alert_recipients(case=case, kind=AlertKind.NEW_CASE):
        return False
    link = settings.PUBLIC_URL.rstrip("/") + reverse("admin:handover_case_change", args=[case.pk])
    with translation.override(settings.LANGUAGE_CODE):
        subject = gettext("[%(site)s] A visitor is waiting for a person (case %(id)s)") % {
            "site": case.site.name,
            "id": case.pk,
        }
        body = gettext(
            "A visitor on %(site)s asked for a person.\n\nOpen the case: %(link)s\n\n"
            "This e-mail holds no conversation content; read it in admin."
        ) % {"site": case.site.name, "link": link}
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    log.info("case notification sent", extra={"case": case_id})
    return True
