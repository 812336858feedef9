"""Web Push to staff browsers (issue 32): the subscriptions, and one push to one of them.

`pywebpush` encrypts the payload for the browser (aes128gcm, RFC 8291) and signs the VAPID
header (RFC 8292, ES256 over the push service's origin) with the key pair from settings
(VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT; `manage.py vapid_keys` makes one).
The request itself goes through the egress guard (chatwidget.platform.egress), not through
pywebpush's own `requests`: an endpoint is a URL a browser sent us, so it is treated like an
address an owner typed. Push services are public HTTPS hosts (FCM, Mozilla, Apple); an
endpoint on a private or loopback address, or over plain http, is refused when it is saved
and again at connect time, unless the operator listed its host in EGRESS_ALLOW_HOSTS (the
tests' stand-in on 127.0.0.1 is).

The payload is what the staff user may see anyway and no more: the event's kind, the case's
number and site, the case page's path, and a title in the user's language. Never message
text, never contact details.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from chatwidget.platform.egress import (
    EgressRefused,
    egress_client,
    host_allowed,
    httpx,
    url_problem,
)
from handover.models import PushSubscription

log = logging.getLogger(__name__)

MAX_DEVICES = 20  # per user: a browser re-subscribing replaces its own row (same endpoint)
PUSH_TIMEOUT_SECONDS = 10.0
GONE = (404, 410)  # the push service forgot the subscription: the browser unsubscribed


def push_enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def _b64url_bytes(value: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValidationError(gettext("The browser's push keys cannot be read.")) from exc


def push_endpoint_problem(endpoint: str) -> str | None:
    """Why a push endpoint is refused, or None. https only (a listed host may use http),
    and no address the egress guard refuses."""
    parts = urlsplit(endpoint)
    try:
        port = parts.port
    except ValueError:
        return gettext("The port is not a number.")
    if parts.scheme != "https" and not (parts.hostname and host_allowed(parts.hostname, port)):
        return gettext("A push service is reached over https only.")
    return url_problem(endpoint)


def push_subscription_save(
    *, user, endpoint: str, p256dh: str, auth: str, device: str = ""
) -> PushSubscription:
    """Store this browser's subscription for `user` (a browser that subscribes again, or a
    shared computer where another staff user signs in, keeps one row: the endpoint's)."""
    endpoint = (endpoint or "").strip()
    if not endpoint or len(endpoint) > 1000:
        raise ValidationError(gettext("The browser sent no push address."))
    problem = push_endpoint_problem(endpoint)
    if problem:
        raise ValidationError(problem)
    key = _b64url_bytes(p256dh or "")
    secret = _b64url_bytes(auth or "")
    if len(key) != 65 or key[0] != 4 or len(secret) != 16:
        raise ValidationError(gettext("The browser's push keys cannot be read."))
    with transaction.atomic():
        others = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint)
        if others.count() >= MAX_DEVICES:
            raise ValidationError(
                gettext("Remove a device first: %(n)s is the most.") % {"n": MAX_DEVICES}
            )
        sub, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "device": device[:120]},
        )
    log.info("push device saved", extra={"user": user.pk, "subscription": sub.pk})
    return sub


def push_subscription_remove(*, user, subscription_id: int) -> bool:
    deleted, _ = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    return bool(deleted)


@dataclass
class _Answer:
    """What pywebpush reads of a response (its `requests` shape)."""

    status_code: int
    reason: str
    text: str
    headers: dict


class _EgressPoster:
    """Stands in for pywebpush's `requests` session: the POST goes through the egress guard."""

    def post(self, url: str, *, data=None, headers=None, timeout=None) -> _Answer:
        with egress_client(timeout=PUSH_TIMEOUT_SECONDS, deadline_s=PUSH_TIMEOUT_SECONDS) as client:
            response = client.post(url, content=data or b"", headers=dict(headers or {}))
            return _Answer(
                status_code=response.status_code,
                reason=response.reason_phrase,
                text=response.text[:500],
                headers=dict(response.headers),
            )


def _origin(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def _subject() -> str:
    return settings.VAPID_SUBJECT or f"mailto:{settings.DEFAULT_FROM_EMAIL}"


def push_send(*, subscription: PushSubscription, payload: dict) -> str:
    """Send one push. "sent", "gone" (404/410: the row is removed), or "failed" (refused by
    the guard, unreachable, or another answer; logged, not retried)."""
    if push_endpoint_problem(subscription.endpoint):
        return "failed"
    # pywebpush and py_vapid (with aiohttp and requests: about 0.13 s of CPU) load with the
    # first push, not in every process that sets Django up (issue 24)
    from py_vapid import Vapid  # noqa: PLC0415
    from pywebpush import WebPushException, webpush  # noqa: PLC0415

    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        webpush(
            info,
            data=json.dumps(payload, separators=(",", ":")),
            vapid_private_key=Vapid.from_string(settings.VAPID_PRIVATE_KEY),
            vapid_claims={"sub": _subject(), "aud": _origin(subscription.endpoint)},
            ttl=settings.ALERT_PUSH_TTL_SECONDS,
            headers={"Urgency": "high"},
            requests_session=_EgressPoster(),  # type: ignore[arg-type]
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in GONE:
            subscription.delete()
            log.info("push device gone", extra={"subscription": subscription.pk})
            return "gone"
        log.warning("push refused", extra={"subscription": subscription.pk, "status": status})
        return "failed"
    except EgressRefused:
        log.warning("push endpoint refused by the guard", extra={"subscription": subscription.pk})
        return "failed"
    except httpx.TransportError as exc:
        # not retried: an alert is worth its moment (and the e-mail is the channel that waits)
        log.warning(
            "push service unreachable",
            extra={"subscription": subscription.pk, "error": type(exc).__name__},
        )
        return "failed"
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
    return "sent"


def vapid_keys_generate() -> tuple[str, str]:
    """A new P-256 key pair as (public, private): base64url without padding, the public key
    uncompressed (65 bytes, what `applicationServerKey` takes), the private key raw (32
    bytes, what Vapid.from_string reads)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return _b64url(public), _b64url(private)


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
