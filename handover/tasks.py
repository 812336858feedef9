"""Celery tasks of the handover app. Thin: take ids, call one service, own the retry."""

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError


@shared_task(
    name="handover.tasks.case_notify",
    autoretry_for=(OperationalError, SMTPException, ConnectionError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def case_notify(case_id: int) -> bool:
    """E-mail HANDOVER_NOTIFY_EMAIL that a case waits. Safe to run twice (one more e-mail,
    no state); sends nothing once the case is no longer waiting."""
    from handover.services import case_notify_staff

    return case_notify_staff(case_id=case_id)
