"""Starting a Celery task by its registered name, after the current transaction commits.

Below every app, so services of any layer start tasks without importing a tasks module
(tasks are transports, like views) or the project's Celery app (`current_app` is the app
the process configured: chatwidget.celery in the web and worker processes)."""

import importlib
import logging

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)


def task_enqueue_on_commit(
    name: str, *args, inline_when_broker_down: bool = False, countdown: float | None = None
) -> None:
    """Queue the Celery task registered as `name` once the current transaction commits.

    The one way services start tasks. Tasks are transports (like views): they import
    services, and services never import tasks; naming the task keeps that one-way. The
    registered task is looked up, loading its module by name if needed (so
    `task_always_eager` still runs it in place).

    The broker down (issue 31; deploy/README.md, "When something goes away"): publishing
    fails within about a second (one quick retry) and is logged. A task marked
    `inline_when_broker_down` (e-mails a person waits for) then runs here, in this process,
    at once; the others raise, and Django logs them (condensation: `condense-lagging`
    catches up; a webhook delivery stays pending in admin). `countdown`: seconds the task
    waits in the broker before a worker runs it (run inline, it runs at once)."""

    def enqueue() -> None:
        app = current_app
        if name not in app.tasks:
            importlib.import_module(name.rpartition(".")[0])
        task = app.tasks[name]
        try:
            if countdown:
                task.apply_async(args=args, countdown=countdown)
            else:
                task.delay(*args)
        except Exception as exc:
            log.warning(
                "task not enqueued: broker unreachable",
                extra={
                    "task": name,
                    "error": type(exc).__name__,
                    "inline": inline_when_broker_down,
                },
            )
            if not inline_when_broker_down:
                raise
            task.apply(args=args)

    transaction.on_commit(enqueue, robust=True)
