import os
from pathlib import Path

from celery import Celery, signals
from django.conf import settings
from django.utils.log import configure_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.local")

app = Celery("chatwidget")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.setup_logging.connect
def _logging_from_django(**kwargs) -> None:
    """The worker logs through Django's LOGGING (one format with the web process) instead of
    configuring its own handlers; connecting this signal is Celery's documented way."""
    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)


@signals.worker_ready.connect
def _tell_supervisor(**kwargs) -> None:
    """`manage.py demo` prints its banner once the worker takes tasks: it names a file here."""
    ready_file = os.environ.get("CHATWIDGET_WORKER_READY_FILE")
    if ready_file:
        Path(ready_file).touch()


@signals.worker_process_init.connect
def _traces(**kwargs) -> None:
    """OpenTelemetry in each pool process (its exporter's thread does not survive the fork),
    when OTEL_EXPORTER_OTLP_ENDPOINT is set (chatwidget/observability.py)."""
    from chatwidget.observability import traces_setup  # noqa: PLC0415  (after Django's setup)

    traces_setup(service=f"{settings.OTEL_SERVICE_NAME}-worker")
