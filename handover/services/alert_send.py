"""Sending the alerts handover.services.alerts wrote: one push per alert to each of the user's
devices, and one e-mail per user for all alerts waiting (the batch).

Both re-check the user's rights when they send (a site taken away between the alert and the
e-mail is left out) and carry no conversation text: the event, the site's name, the case's
number and a link to the case page, which the user opens signed in.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from chatwidget.sites.access import staff_site_ids
from handover.models import AlertKind, AlertPreference, PushSubscription, StaffAlert
from handover.services.webpush import push_send

log = logging.getLogger(__name__)


def _language(user_id: int) -> str:
    pref = AlertPreference.objects.filter(user_id=user_id).only("language").first()
    return pref.language if pref else settings.LANGUAGE_CODE


def _may_see(alert: StaffAlert) -> bool:
    user = alert.user
    if not (user.is_active and user.is_staff and user.has_perm("handover.view_case")):
        return False
    allowed = staff_site_ids(user)
    return allowed is None or alert.case.site_id in allowed


def _case_path(case_id: int) -> str:
    return reverse("admin:handover_case_change", args=[case_id])


def alert_title(kind: str) -> str:
    """The alert's headline (in the active language): the event, never its content."""
    titles: dict[str, str] = {
        AlertKind.NEW_CASE: gettext("A visitor is waiting for a person"),
        AlertKind.VISITOR_REPLIED: gettext("A visitor wrote"),
        AlertKind.PROMISE_DUE: gettext("A promised call back is due"),
    }
    return titles.get(kind, gettext("Chat alert"))


def alert_push_payload(alert: StaffAlert) -> dict:
    """What the service worker shows (static/handover/sw.js): the event, site and case, and
    the case page's path to open on a click. Nothing the user could not see on the inbox."""
    with translation.override(_language(alert.user_id)):
        return {
            "kind": alert.kind,
            "case": alert.case_id,
            "site": alert.case.site.name,
            "title": alert_title(alert.kind),
            "body": gettext("%(site)s · case %(id)s")
            % {
                "site": alert.case.site.name,
                "id": alert.case_id,
            },
            "url": _case_path(alert.case_id),
        }


def alert_push_send(*, alert_id: int) -> int:
    """Push one alert to each of its user's devices; returns how many took it. Safe to run
    twice: an alert pushed once is not pushed again."""
    alert = (
        StaffAlert.objects.select_related("user", "case__site")
        .filter(pk=alert_id, by_push=True, pushed_at__isnull=True)
        .first()
    )
    if alert is None or not _may_see(alert):
        return 0
    claimed = StaffAlert.objects.filter(pk=alert.pk, pushed_at__isnull=True).update(
        pushed_at=timezone.now()
    )
    if not claimed:
        return 0  # another run took it
    payload = alert_push_payload(alert)
    sent = 0
    for subscription in PushSubscription.objects.filter(user_id=alert.user_id):
        sent += push_send(subscription=subscription, payload=payload) == "sent"
    log.info("alert pushed", extra={"alert": alert.pk, "devices": sent})
    return sent


def alert_email_send(*, user_id: int) -> int:
    """One e-mail with every alert of this user still waiting for one (those written since the
    last e-mail, within ALERT_EMAIL_DELAY_SECONDS of the first: the tasks of the later ones find
    nothing left and send nothing). Returns how many alerts it held. The rows are marked in the
    same transaction as the e-mail is handed to the mail server: a failed send is retried."""
    with transaction.atomic():
        rows = list(
            StaffAlert.objects.select_for_update(of=("self",))
            .select_related("user", "case__site")
            .filter(user_id=user_id, by_email=True, emailed_at__isnull=True)
            .order_by("created_at", "pk")
        )
        if not rows:
            return 0
        StaffAlert.objects.filter(pk__in=[r.pk for r in rows]).update(emailed_at=timezone.now())
        visible = [r for r in rows if _may_see(r)]
        user = rows[0].user
        if not visible or not user.email:
            return 0
        _email(user=user, alerts=visible)
    log.info("alert e-mail sent", extra={"user": user_id, "alerts": len(visible)})
    return len(visible)


def _email(*, user, alerts: list[StaffAlert]) -> None:
    base = settings.PUBLIC_URL.rstrip("/")
    with translation.override(_language(user.pk)):
        lines = [
            {
                "title": alert_title(a.kind),
                "site": a.case.site.name,
                "case": a.case_id,
                "link": base + _case_path(a.case_id),
            }
            for a in alerts
        ]
        subject = ngettext("%(n)s chat alert", "%(n)s chat alerts", len(alerts)) % {
            "n": len(alerts)
        }
        body = render_to_string(
            "admin/handover/alerts_email.txt",
            {
                "lines": lines,
                "settings_link": base + reverse("admin:handover_alertpreference_changelist"),
            },
        )
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])
