"""One signed delivery attempt, and the signature receivers check.

Signature (documented for receivers in README): header
`X-Chatwidget-Signature: t=<unix seconds>,v1=<hex>` where hex is
HMAC-SHA256(secret, "<t>.<body>") over the exact bytes of the body. The timestamp is new on
every attempt; receivers reject old ones (replays) and compare in constant time. The body's
`id` (also in `X-Chatwidget-Delivery`) stays the same across attempts: deduplicate by it.

One POST through the egress guard (chatwidget/platform/egress.py: never to a loopback,
private or metadata address unless the operator allows the host), a deadline over all of
it, no redirects (a redirect could lead a signed body somewhere the owner did not configure).
"""

import hashlib
import hmac
import logging
import time
from enum import StrEnum

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from chatwidget.integrations.models import WebhookDelivery
from chatwidget.platform.egress import EgressRefused, egress_client, httpx

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Chatwidget-Signature"
EVENT_HEADER = "X-Chatwidget-Event"
DELIVERY_HEADER = "X-Chatwidget-Delivery"


class Attempt(StrEnum):
    DELIVERED = "delivered"
    RETRY = "retry"  # failed; the task tries again later
    FAILED = "failed"  # failed for good (the last attempt, or a hook gone or switched off)
    DONE = "done"  # nothing to do: delivered before (a task run twice)


def _digest(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def webhook_signature(*, secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={_digest(secret, timestamp, body)}"


def webhook_signature_verify(
    *, secret: str, header: str, body: bytes, tolerance_s: int = 300, now: float | None = None
) -> bool:
    """What a receiver does (Python receivers may copy it; the tests use it): parse the
    header, refuse a timestamp older than `tolerance_s`, compare in constant time."""
    try:
        parts = dict(item.strip().split("=", 1) for item in header.split(","))
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs((now if now is not None else time.time()) - timestamp) > tolerance_s:
        return False
    return hmac.compare_digest(_digest(secret, timestamp, body), parts.get("v1", ""))


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    try:
        with egress_client(timeout=timeout, deadline_s=timeout) as client:
            response = client.post(url, content=body, headers=headers)
    except EgressRefused as exc:
        return None, f"refused: {exc}"[:200]
    except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as exc:
        return None, type(exc).__name__[:200]
    if 200 <= response.status_code < 300:
        return response.status_code, ""
    return response.status_code, f"HTTP {response.status_code}"


def webhook_attempt(*, delivery_id: str, last: bool) -> Attempt:
    """POST the delivery once, signed, and log the outcome. `last`: no retry follows, so a
    failure is final. Safe to run twice: a delivered row is not sent again."""
    delivery = WebhookDelivery.objects.select_related("hook").filter(pk=delivery_id).first()
    if delivery is None or delivery.status == WebhookDelivery.Status.DELIVERED:
        return Attempt.DONE
    hook = delivery.hook
    if not hook.active:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.FAILED, error="hook switched off"
        )
        return Attempt.FAILED
    body = delivery.body.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "chatwidget-webhooks/1",
        SIGNATURE_HEADER: webhook_signature(
            secret=hook.secret, timestamp=int(time.time()), body=body
        ),
        EVENT_HEADER: delivery.event,
        DELIVERY_HEADER: str(delivery.pk),
    }
    code, error = _post(hook.url, body, headers)
    ok = code is not None and 200 <= code < 300
    if ok:
        status, outcome = WebhookDelivery.Status.DELIVERED, Attempt.DELIVERED
    elif last:
        status, outcome = WebhookDelivery.Status.FAILED, Attempt.FAILED
    else:
        status, outcome = WebhookDelivery.Status.PENDING, Attempt.RETRY
    with transaction.atomic():
        row = WebhookDelivery.objects.select_for_update().get(pk=delivery.pk)
        row.attempts += 1
        row.status = status
        row.response_code = code
        row.error = error if not ok else ""
        row.last_attempt_at = timezone.now()
        row.save(update_fields=["attempts", "status", "response_code", "error", "last_attempt_at"])
    log.info(
        "webhook attempt",
        extra={
            "delivery": str(delivery.pk),
            "hook": hook.pk,
            "code": code,
            "outcome": outcome.value,
        },
    )
    return outcome
