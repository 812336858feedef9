import importlib
import os
from pathlib import Path

from celery import Celery, signals
from django.conf import settings
from django.db import transaction
from django.utils.log import configure_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.local")

app = Celery("chatwidget")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def task_enqueue_on_commit(name: str, *args) -> None:
    """Queue the Celery task registered as `name` once the current transaction commits.

    The one way services start tasks. Tasks are transports (like views): they import
    services, and services never import tasks; naming the task keeps that one-way. The
    registered task is looked up, loading its module by name if needed (so
    `task_always_eager` still runs it in place)."""

    def enqueue() -> None:
        if name not in app.tasks:
            importlib.import_module(name.rpartition(".")[0])
        app.tasks[name].delay(*args)

    transaction.on_commit(enqueue, robust=True)


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
