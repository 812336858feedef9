"""Alerts to staff users (issue 32): who is told of which event on a case, and by which way.

Each staff user chooses on the Alerts page (handover.admin_alerts) the events, the sites and
the ways (Web Push to a phone or desktop, e-mail). An event starts one task after commit
(`alert_later`); the task (`alert_dispatch`) finds the users to tell, writes one StaffAlert
row each and starts the push at once and the e-mail later, so that alerts made meanwhile go
in one e-mail (handover.services.alert_email). Nothing is sent inside a request.

Who is told:
- the user's rights first: the sites they may see (chatwidget.sites.access.staff_site_ids,
  read when the alert is made, so a right taken away stops the alerts) and the permission to
  view cases; then the sites they chose (none chosen: all they may see);
- "a visitor wrote" and "a call back is due" go to the case's assignee, or to everyone who
  chose them while the case is unassigned; "a visitor waits" to everyone who chose it;
- one event on one case tells a user at most once in ALERT_REPEAT_SECONDS (a visitor writing
  five lines is one alert), and a due call back once per case.

HANDOVER_NOTIFY_EMAIL stays the fallback: it is told of a waiting case when no user is
(handover.services.notification).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.platform.rehearsal import in_rehearsal
from chatwidget.sites.access import staff_site_ids
from chatwidget.sites.availability import site_availability
from handover.models import AlertKind, AlertPreference, Case, StaffAlert
from handover.services.cases import OPEN_STATUSES
from handover.services.webpush import push_enabled

log = logging.getLogger(__name__)

ALERT_DISPATCH_TASK = "handover.tasks.alert_dispatch"
ALERT_PUSH_TASK = "handover.tasks.alert_push"
ALERT_EMAIL_TASK = "handover.tasks.alert_email"
ALERT_PROMISES_TASK = "handover.tasks.alert_promises_due"

# kinds that count as "already told of this case" for each other within the repeat interval
_CHATTY = (AlertKind.NEW_CASE, AlertKind.VISITOR_REPLIED)


def alert_later(*, case_id: int, kind: str) -> None:
    """After commit, on a worker. None for a rehearsal's case (the go-live check's)."""
    if in_rehearsal():
        return
    task_enqueue_on_commit(ALERT_DISPATCH_TASK, case_id, str(kind))


def alert_recipients(*, case: Case, kind: str) -> list[AlertPreference]:
    """The users to tell of `kind` on `case`, with their settings (the rules above)."""
    prefs = (
        AlertPreference.objects.filter(user__is_active=True, user__is_staff=True, **{kind: True})
        .filter(Q(by_push=True) | Q(by_email=True))
        .select_related("user")
        .prefetch_related("sites")
        .order_by("user_id")
    )
    push = push_enabled()
    chosen: list[AlertPreference] = []
    for pref in prefs:
        user = pref.user
        if not ((pref.by_push and push) or (pref.by_email and user.email)):
            continue  # no way to reach them: the fallback address is told instead
        if kind != AlertKind.NEW_CASE and case.claimed_by_id not in (None, user.pk):
            continue  # a colleague has the case
        if not user.has_perm("handover.view_case"):
            continue
        allowed = staff_site_ids(user)
        if allowed is not None and case.site_id not in allowed:
            continue
        sites = {s.pk for s in pref.sites.all()}
        if sites and case.site_id not in sites:
            continue
        chosen.append(pref)
    return chosen


def _told_lately(*, user_id: int, case: Case, kind: str, now: datetime) -> bool:
    rows = StaffAlert.objects.filter(user_id=user_id, case=case)
    if kind == AlertKind.PROMISE_DUE:
        return rows.filter(kind=kind).exists()
    since = now - timedelta(seconds=settings.ALERT_REPEAT_SECONDS)
    return rows.filter(kind__in=_CHATTY, created_at__gte=since).exists()


def alert_dispatch(*, case_id: int, kind: str, now: datetime | None = None) -> list[StaffAlert]:
    """Write the alerts of one event and start their sending (push now, e-mail later). Safe
    to run twice within the repeat interval (the second run finds the users told)."""
    now = now or timezone.now()
    case = Case.objects.select_related("site").filter(pk=case_id).first()
    if case is None or case.status not in OPEN_STATUSES or kind not in AlertKind.values:
        return []
    if kind == AlertKind.NEW_CASE and case.status != Case.Status.WAITING:
        return []  # claimed before the task ran: nobody needs telling
    push = push_enabled()
    made: list[StaffAlert] = []
    with transaction.atomic():
        for pref in alert_recipients(case=case, kind=kind):
            if _told_lately(user_id=pref.user_id, case=case, kind=kind, now=now):
                continue
            alert = StaffAlert.objects.create(
                user_id=pref.user_id,
                case=case,
                kind=kind,
                by_push=pref.by_push and push,
                by_email=pref.by_email and bool(pref.user.email),
            )
            if alert.by_push:
                task_enqueue_on_commit(ALERT_PUSH_TASK, alert.pk)
            if alert.by_email:
                task_enqueue_on_commit(
                    ALERT_EMAIL_TASK, pref.user_id, countdown=settings.ALERT_EMAIL_DELAY_SECONDS
                )
            made.append(alert)
    if made:
        log.info("staff alerts", extra={"case": case_id, "kind": kind, "users": len(made)})
    return made


def alert_promises_due(*, now: datetime | None = None) -> int:
    """Open cases with a promised call back whose site's staff hours are open now (holidays
    and the owner's closed days count as closed: chatwidget.sites.availability): the call
    back is due, so the assignee (or, unassigned, everyone who chose it) is told, once.

    The only promise with a time: the condensed core's other promises ("we will send the
    invoice") are free text without a deadline, so they are shown on the case, not alerted."""
    now = now or timezone.now()
    told = 0
    cases = Case.objects.filter(status__in=OPEN_STATUSES, callback_requested=True).select_related(
        "site"
    )
    for case in cases:
        if site_availability(site=case.site, at=now).open:
            told += len(alert_dispatch(case_id=case.pk, kind=AlertKind.PROMISE_DUE, now=now))
    return told


ALERT_KEEP_DAYS = 30


def alert_rows_purge(*, now: datetime) -> int:
    """Alert rows past the repeat interval are only a record (ids and times, no text): the
    retention purge (chatwidget.purge) deletes them after ALERT_KEEP_DAYS. A case's rows go
    with the case anyway."""
    cutoff = now - timedelta(days=ALERT_KEEP_DAYS)
    deleted, _ = StaffAlert.objects.filter(created_at__lt=cutoff).delete()
    return deleted
