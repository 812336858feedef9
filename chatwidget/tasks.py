"""The project's own Celery task (each app's `tasks` module is found by
`app.autodiscover_tasks()`). Thin: call one
service, own the retry."""

from celery import shared_task
from django.db import OperationalError

from chatwidget.metrics import purge_ran
from chatwidget.purge import retention_purge_all


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
    if counts.finished:
        purge_ran()  # /metrics: chatwidget_purge_last_run_timestamp_seconds
    else:
        purge_expired.apply_async(countdown=1)
    return counts.as_dict()
