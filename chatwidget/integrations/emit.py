"""`webhook_emit`: the one way a service announces an event to the site's webhooks.

Called inside the service's transaction: the delivery rows are written with the event (no
event without its deliveries, no delivery for an event rolled back) and the delivery task is
queued by name once the transaction commits (chatwidget.platform.queue.task_enqueue_on_commit).

Most sites have no hooks, and events such as "conversation started" are on the hot path: a
cached hint (the site's subscribed events, WEBHOOK_HINT_SECONDS) spares them the query. The
admin clears it when a hook changes (`webhook_hint_clear`).
"""

import json
import logging
import uuid
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from chatwidget.integrations.models import TEXT_KEYS, Webhook, WebhookDelivery, WebhookEvent
from chatwidget.platform import cache_keys
from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.platform.rehearsal import in_rehearsal

log = logging.getLogger(__name__)

WEBHOOK_DELIVER_TASK = "chatwidget.webhooks.tasks.webhook_deliver"


def webhook_hint_clear(*, site_id: int) -> None:
    """A hook of the site was added, changed or deleted: the next event reads the table."""
    cache.delete(cache_keys.webhook_events(site_id))


def _subscribed_events(site_id: int) -> set[str]:
    key = cache_keys.webhook_events(site_id)
    try:
        hint = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache away: read the table, lose nothing
        hint = None
    if hint is not None:
        return set(hint)
    events: set[str] = set()
    for hook_events in Webhook.objects.filter(site_id=site_id, active=True).values_list(
        "events", flat=True
    ):
        events.update(hook_events or [])
    try:
        cache.set(key, sorted(events), timeout=settings.WEBHOOK_HINT_SECONDS)
    except Exception:  # noqa: BLE001, S110 - only a hint
        pass
    return events


def webhook_emit(
    *, site_id: int, event: WebhookEvent, data: dict[str, Any], text: dict[str, str] | None = None
) -> int:
    """Write one delivery per active hook of the site that subscribed to `event` and queue
    their delivery after commit. `data`: ids, counts, scores, times (never text or personal
    data); `text`: message text, added only for hooks whose owner turned it on. Returns the
    number of deliveries. Nothing in a rehearsal (the go-live check's throw-away visitors,
    chatwidget.platform.rehearsal): a receiver cannot take a delivery back.

    Text keys are TEXT_KEYS only (what erasure and retention take out again), and the
    caller masks personal data in them as staff views do. `data["conversation"]`, when
    given, is recorded on the delivery for erasure and the purge."""
    unknown = set(text or {}) - set(TEXT_KEYS)
    if unknown:
        raise ValueError(f"not a webhook text key: {sorted(unknown)}")
    if in_rehearsal() or event not in _subscribed_events(site_id):
        return 0
    hooks = [
        hook
        for hook in Webhook.objects.filter(site_id=site_id, active=True)
        if event in (hook.events or [])
    ]
    created = []
    for hook in hooks:
        delivery_id = uuid.uuid4()
        payload = {
            "id": str(delivery_id),
            "event": str(event),
            "created_at": timezone.now().isoformat(),
            "site": site_id,
            "data": {**data, **(text or {})} if hook.include_text else dict(data),
        }
        created.append(
            WebhookDelivery(
                id=delivery_id,
                hook=hook,
                event=event,
                body=json.dumps(payload, sort_keys=True),
                conversation_ref=data.get("conversation"),
            )
        )
    WebhookDelivery.objects.bulk_create(created)
    for delivery in created:
        task_enqueue_on_commit(WEBHOOK_DELIVER_TASK, str(delivery.id))
    if created:
        log.info(
            "webhook event", extra={"site": site_id, "kind": str(event), "deliveries": len(created)}
        )
    return len(created)
