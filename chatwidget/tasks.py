"""Celery tasks of the chatwidget app, found by `app.autodiscover_tasks()`. Thin: call one
service, own the retry."""

from celery import shared_task
from django.db import OperationalError

from chatwidget.golive.tasks import golive_check  # noqa: F401 (the go-live check, issue 19)
from chatwidget.services.retention import retention_purge_all
from chatwidget.webhooks.tasks import webhook_deliver  # noqa: F401 (webhooks, issue 18)


@shared_task(
    name="chatwidget.tasks.purge_expired",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
)
def purge_expired() -> dict:
    """The retention purge (beat, every CHATWIDGET_PURGE_INTERVAL_SECONDS). Bounded by a
    time budget below the soft time limit; a backlog continues in an immediate follow-up."""
    counts = retention_purge_all(time_budget_s=60.0)
    if not counts.finished:
        purge_expired.apply_async(countdown=1)
    return counts.as_dict()
