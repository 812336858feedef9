"""Starting a Celery task by its registered name, after the current transaction commits.

Below every app, so services of any layer start tasks without importing a tasks module
(tasks are transports, like views) or the project's Celery app (`current_app` is the app
the process configured: chatwidget.celery in the web and worker processes)."""

import importlib

from celery import current_app
from django.db import transaction


def task_enqueue_on_commit(name: str, *args) -> None:
    """Queue the Celery task registered as `name` once the current transaction commits.

    The one way services start tasks. Tasks are transports (like views): they import
    services, and services never import tasks; naming the task keeps that one-way. The
    registered task is looked up, loading its module by name if needed (so
    `task_always_eager` still runs it in place)."""

    def enqueue() -> None:
        app = current_app
        if name not in app.tasks:
            importlib.import_module(name.rpartition(".")[0])
        app.tasks[name].delay(*args)

    transaction.on_commit(enqueue, robust=True)
