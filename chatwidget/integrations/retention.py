"""What the delivery log keeps, and for how long.

A delivery's body quotes message text when its hook has text turned on (a case's reason, the
staff's case note, a rating's comment; TEXT_KEYS). That text is personal data of the
visitor, so it goes with the visitor's conversation:
- `webhook_texts_forget`: the conversation is erased or purged (memory.erasure and
  memory.retention call it in their transaction); the bodies keep ids, counts and times;
- `webhook_deliveries_purge_expired`: the rows themselves go WEBHOOK_DELIVERY_RETENTION_DAYS
  after they were written (the retention purge, chatwidget.purge). The log is for finding
  out why a receiver missed an event, which is a matter of days.
A delivery still pending when its text is forgotten is sent without the text.
"""

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from chatwidget.integrations.models import TEXT_KEYS, WebhookDelivery


def _body_without_text(body: str) -> str | None:
    """The body with the text keys taken out of its data, or None when it has none."""
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, dict) or not set(TEXT_KEYS) & set(data):
        return None
    payload["data"] = {k: v for k, v in data.items() if k not in TEXT_KEYS}
    return json.dumps(payload, sort_keys=True)


def webhook_texts_forget(*, conversation_ids: list[int]) -> int:
    """Take the message text out of every delivery about these conversations; returns how
    many bodies changed. Runs in the caller's transaction (the erasure or the purge)."""
    changed = 0
    deliveries = WebhookDelivery.objects.filter(conversation_ref__in=conversation_ids)
    for pk, body in deliveries.values_list("pk", "body"):
        stripped = _body_without_text(body)
        if stripped is not None:
            changed += WebhookDelivery.objects.filter(pk=pk).update(body=stripped)
    return changed


def webhook_deliveries_delete(*, conversation_ids: list[int]) -> int:
    """Delete every delivery about these conversations (the go-live check's throw-away
    ones, should any have been written); returns how many went."""
    if not conversation_ids:
        return 0
    return WebhookDelivery.objects.filter(conversation_ref__in=conversation_ids).delete()[0]


def webhook_deliveries_purge_expired(*, now: datetime, batch_size: int = 500) -> int:
    """Delete deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS, in batches; returns how
    many went. Safe to run twice."""
    cutoff = now - timedelta(days=settings.WEBHOOK_DELIVERY_RETENTION_DAYS)
    expired = WebhookDelivery.objects.filter(created_at__lt=cutoff)
    deleted = 0
    while True:
        ids = list(expired.order_by("created_at").values_list("pk", flat=True)[:batch_size])
        if not ids:
            return deleted
        with transaction.atomic():
            deleted += WebhookDelivery.objects.filter(pk__in=ids).delete()[0]
