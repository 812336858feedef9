"""Celery tasks of the handover app. Thin: take ids, call one service, own the retry.

Tasks are transports: they import services at module level; services never import this
module, they enqueue by the registered name (chatwidget.platform.queue.task_enqueue_on_commit)."""

import imaplib
import logging
from smtplib import SMTPException

from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError

from chatwidget.platform import cache_keys
from handover.inbound.imap import ImapError, imap_poll
from handover.services import alert_send, alerts
from handover.services.alerts import (
    ALERT_DISPATCH_TASK,
    ALERT_EMAIL_TASK,
    ALERT_PROMISES_TASK,
    ALERT_PUSH_TASK,
)
from handover.services.continuation import CONTINUATION_EMAIL_TASK, continuation_email_send
from handover.services.inactivity import INACTIVITY_SCAN_TASK
from handover.services.inactivity import inactivity_scan as scan
from handover.services.notification import CASE_NOTIFY_TASK, case_notify_staff
from handover.services.transcript_email import (
    TRANSCRIPT_CONFIRM_TASK,
    TRANSCRIPT_EMAIL_TASK,
    transcript_confirm_send,
    transcript_email_send,
)

log = logging.getLogger(__name__)


@shared_task(
    name=CASE_NOTIFY_TASK,
    autoretry_for=(OperationalError, SMTPException, ConnectionError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def case_notify(case_id: int) -> bool:
    """E-mail HANDOVER_NOTIFY_EMAIL that a case waits. Safe to run twice (one more e-mail,
    no state); sends nothing once the case is no longer waiting."""
    return case_notify_staff(case_id=case_id)


@shared_task(
    name=CONTINUATION_EMAIL_TASK,
    autoretry_for=(OperationalError, SMTPException, ConnectionError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def continuation_email(case_id: int, seq: int | None = None) -> bool:
    """E-mail the staff replies a visitor who has left has not had, as one e-mail (issues 18
    and 32). `seq`: tasks queued before issue 32 name one reply; the batch takes all."""
    return continuation_email_send(case_id=case_id, seq=seq)


INBOUND_IMAP_POLL_TASK = "handover.tasks.inbound_imap_poll"
IMAP_LOCK_SECONDS = 300  # past the task's time limit: a killed poll frees it by expiry


@shared_task(name=INBOUND_IMAP_POLL_TASK, ignore_result=True, acks_late=False)
def inbound_imap_poll() -> int:
    """Replies by e-mail from the mailbox (issue 32; beat, when INBOUND_IMAP_HOST is set). One
    poll at a time; a failed poll is not retried: the next one comes within the interval."""
    lock = cache_keys.inbound_imap_lock()
    if not cache.add(lock, 1, timeout=IMAP_LOCK_SECONDS):
        return 0
    try:
        return imap_poll()
    except (ImapError, imaplib.IMAP4.error, OSError) as exc:
        # the mailbox away or refusing: said once per poll, without the server's words
        log.warning("inbound mailbox not read", extra={"error": type(exc).__name__})
        return 0
    finally:
        cache.delete(lock)


@shared_task(
    name=TRANSCRIPT_CONFIRM_TASK,
    autoretry_for=(OperationalError, SMTPException, ConnectionError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def transcript_confirm(request_id: int, base_url: str) -> bool:
    """E-mail the link that confirms an address before a transcript goes to it (issue 25)."""
    return transcript_confirm_send(request_id=request_id, base_url=base_url)


@shared_task(
    name=TRANSCRIPT_EMAIL_TASK,
    autoretry_for=(OperationalError, SMTPException, ConnectionError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def transcript_email(request_id: int) -> bool:
    """E-mail the visitor their conversation, once the address confirmed it (issue 25)."""
    return transcript_email_send(request_id=request_id)


@shared_task(name="handover.tasks.transcript_email", ignore_result=True)
def transcript_email_unconfirmed(conversation_id: int) -> bool:
    """The task name of issue 18, which mailed an unconfirmed address: messages still queued
    from before the upgrade are dropped, not sent."""
    return False


@shared_task(name=INACTIVITY_SCAN_TASK, ignore_result=True)
def inactivity_scan() -> dict:
    """Beat, every minute: follow up quiet conversations, then close those
    whose follow-up went unanswered (issue 32). Not retried: the next scan is the retry, and
    every conversation is decided again under its lock."""
    result = scan()
    return {"followups": result.followups, "resolved": result.resolved}


# --- staff alerts (issue 32) -------------------------------------------------------------------


@shared_task(
    name=ALERT_DISPATCH_TASK,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def alert_dispatch(case_id: int, kind: str) -> int:
    """Write the alerts of one event on a case and start their sending."""
    return len(alerts.alert_dispatch(case_id=case_id, kind=kind))


@shared_task(
    name=ALERT_PUSH_TASK,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
)
def alert_push(alert_id: int) -> int:
    """Push one alert to its user's devices (never twice; an unreachable push service is
    logged, not retried: the alert's moment has passed, the e-mail is the channel that waits)."""
    return alert_send.alert_push_send(alert_id=alert_id)


@shared_task(
    name=ALERT_EMAIL_TASK,
    autoretry_for=(OperationalError, SMTPException, ConnectionError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def alert_email(user_id: int) -> int:
    """One e-mail with every alert of this user still waiting (the batch)."""
    return alert_send.alert_email_send(user_id=user_id)


@shared_task(name=ALERT_PROMISES_TASK, ignore_result=True)
def alert_promises_due() -> int:
    """Beat: alert the call backs that are due now (ALERT_PROMISE_INTERVAL_SECONDS)."""
    return alerts.alert_promises_due()
