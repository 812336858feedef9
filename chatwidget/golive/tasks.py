"""The admin button's go-live check, on a Celery worker. Thin: a run id in, one service."""

from celery import shared_task
from channels.routing import get_default_application

from chatwidget.golive.services import golive_run_execute


@shared_task(
    name="chatwidget.golive.tasks.golive_check",
    ignore_result=True,
    acks_late=False,
    soft_time_limit=30 * 60,
    time_limit=31 * 60,
)
def golive_check(run_id: int) -> str:
    """Execute a created run; progress and report are stored on the run row, which the
    admin page shows while it runs. Not retried and not acknowledged late: a second
    delivery would talk to the owner's model again and double the cost; a run that dies
    stays visible as unfinished and its conversations go with the next run of the site."""
    return golive_run_execute(run_id=run_id, application=get_default_application()).status
