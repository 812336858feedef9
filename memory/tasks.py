"""Celery tasks of the memory app. Thin: take ids, call one service, own the retry."""

from celery import shared_task
from django.db import OperationalError

from chatwidget.platform.llm import ModelUnavailable
from memory.condense.scheduling import condense_lagging_enqueue
from memory.condense.service import CondenseBusy, core_condense

# --- condensation --------------------------------------------------------------------------------


@shared_task(
    name="memory.tasks.condense_conversation",
    bind=True,
    autoretry_for=(ModelUnavailable, CondenseBusy, OperationalError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=5,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def condense_conversation(self, conversation_id: int) -> int:
    """Condense the turns that left the verbatim window. Safe to run twice (a core that
    already covers them makes it a no-op); retried with backoff while the model fails or
    another run holds the conversation's lock; the last attempt falls back to the
    extractive condenser. Returns the stored core version (0: nothing to do)."""
    core = core_condense(
        conversation_id=conversation_id, fallback=self.request.retries >= self.max_retries
    )
    return core.version if core else 0


@shared_task(name="memory.tasks.condense_lagging", ignore_result=True)
def condense_lagging() -> int:
    """Beat (every MEMORY_CONDENSE_LAGGING_INTERVAL_SECONDS): enqueue a condensation for
    conversations whose uncovered turns exceed window + threshold (a lost enqueue, a broker
    outage, a worker that was down)."""
    return condense_lagging_enqueue()
