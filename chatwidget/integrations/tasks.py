"""The webhook delivery task: one attempt per run; it owns the retries and their backoff."""

import random

from celery import shared_task
from django.conf import settings

from chatwidget.integrations.delivery import Attempt, webhook_attempt
from chatwidget.integrations.emit import WEBHOOK_DELIVER_TASK


def retry_countdown(retries: int) -> float:
    """Exponential backoff with a little jitter: base, 2x base, 4x base ... capped."""
    base = settings.WEBHOOK_RETRY_BASE_SECONDS * (2**retries)
    return min(base, settings.WEBHOOK_RETRY_MAX_SECONDS) * random.uniform(1.0, 1.25)


@shared_task(name=WEBHOOK_DELIVER_TASK, bind=True, max_retries=None, ignore_result=True)
def webhook_deliver(self, delivery_id: str) -> str:
    retries = self.request.retries or 0
    last = retries + 1 >= settings.WEBHOOK_MAX_ATTEMPTS
    outcome = webhook_attempt(delivery_id=delivery_id, last=last)
    if outcome is Attempt.RETRY:
        raise self.retry(countdown=retry_countdown(retries))
    return outcome.value
