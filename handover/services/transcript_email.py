""" "E-mail me the conversation" (issues 18 and 25): the transcript goes only to an address
its owner confirmed.

The widget's button names no address: the newest e-mail address the visitor wrote in the
conversation is the candidate. A shop-branded e-mail to an address someone merely typed is
abuse waiting to happen (anyone could mail a stranger their own words under the shop's
name), so the first e-mail to that address is a confirmation with fixed text and a link,
nothing the visitor wrote; the transcript goes after the click. Without confirmation it goes
at once only to an address already verified for this conversation: confirmed before, or the
address a continuation link was sent to when the request comes from the session that link
made (handover.services.continuation).

Caps, so the button cannot be used to flood a mailbox or the shop's mail server:
- one confirmation per address per TRANSCRIPT_EMAIL_ADDRESS_INTERVAL, whatever the site or
  conversation (database rows, sliding window; they outlive an erasure);
- TRANSCRIPT_EMAIL_PER_ADDRESS and TRANSCRIPT_EMAIL_PER_SITE e-mails of either kind
  (chatwidget.platform.ratelimit; counted in the shared cache, failing closed);
- one transcript per conversation per TRANSCRIPT_EMAIL_INTERVAL.
Only keyed hashes of addresses are stored (handover.services.mail_address).
"""

from __future__ import annotations

import enum
import hashlib
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

from chatwidget.platform import cache_keys
from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.platform.ratelimit import rate_limits_hit
from handover.models import ContinuationCode, TranscriptRequest
from handover.services.cases import contact_from_turns
from handover.services.mail_address import mail_address_find, mail_address_hash
from memory.export import conversation_export
from memory.models import Conversation
from memory.selectors import conversation_is_expired

log = logging.getLogger(__name__)

TRANSCRIPT_EMAIL_TASK = "handover.tasks.transcript_email_send"
TRANSCRIPT_CONFIRM_TASK = "handover.tasks.transcript_confirm_send"
CONFIRM_PATH = "/transcript/confirm/"  # chatwidget/urls.py: the page behind the e-mail's link


class TranscriptOutcome(enum.Enum):
    SENT = "sent"  # the transcript is on its way (a verified address)
    CONFIRM = "confirm"  # a confirmation link is on its way
    NO_ADDRESS = "no_address"  # no e-mail address in the conversation
    LIMITED = "limited"  # a cap: nothing is sent


def _setting(name: str, default):
    return getattr(settings, name, default)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _bound_address_hash(*, linked_session_id: int | None) -> str | None:
    """The address a continuation link was sent to, for the session that link made."""
    if linked_session_id is None:
        return None
    row = ContinuationCode.objects.filter(session_id=linked_session_id).first()
    return row.address_hash if row else None


def _caps_hit(*, site_id: int, address_hash: str) -> bool:
    """Counts one e-mail under the per-address and per-site caps; True when one is over.
    Fails closed: without the shared cache no e-mail goes out."""
    try:
        return rate_limits_hit(
            hits=[
                (
                    cache_keys.transcript_email_address(address_hash),
                    _setting("TRANSCRIPT_EMAIL_PER_ADDRESS", "3/86400"),
                ),
                (
                    cache_keys.transcript_email_site(site_id),
                    _setting("TRANSCRIPT_EMAIL_PER_SITE", "30/3600"),
                ),
            ]
        )
    except (ConnectionInterrupted, RedisError, OSError) as exc:
        log.warning(
            "cache unavailable", extra={"at": "transcript_caps", "error": type(exc).__name__}
        )
        return True


def _send_now(*, conv: Conversation, address_hash: str, now) -> TranscriptOutcome:
    """To an address verified for the conversation: queued at once, within the caps."""
    key = cache_keys.transcript_email_interval(conv.pk)
    if cache.get(key):
        return TranscriptOutcome.SENT  # one went out lately: not again within the interval
    if _caps_hit(site_id=conv.site_id, address_hash=address_hash):
        return TranscriptOutcome.LIMITED
    if not cache.add(key, 1, timeout=int(_setting("TRANSCRIPT_EMAIL_INTERVAL", 600))):
        return TranscriptOutcome.SENT  # a double click: the other request queued it
    request = TranscriptRequest.objects.create(
        site_id=conv.site_id,
        conversation=conv,
        address_hash=address_hash,
        expires_at=now,
        confirmed_at=now,
        verified_before=True,
    )
    task_enqueue_on_commit(TRANSCRIPT_EMAIL_TASK, request.pk, inline_when_broker_down=True)
    return TranscriptOutcome.SENT


def transcript_email_request(
    *, conversation_id: int, linked_session_id: int | None = None, base_url: str
) -> TranscriptOutcome:
    """The visitor asked (widget menu) for the conversation by e-mail. `linked_session_id`:
    the request came through a continuation link's session (its address is verified).
    `base_url`: where the confirmation page is (the public URL of this service)."""
    conv = Conversation.objects.get(pk=conversation_id)
    now = timezone.now()
    bound = _bound_address_hash(linked_session_id=linked_session_id)
    if bound is not None and mail_address_find(conversation_id=conv.pk, address_hash=bound):
        return _send_now(conv=conv, address_hash=bound, now=now)
    emails = contact_from_turns(conversation_id=conv.pk, kinds=("email",))
    if not emails:
        return TranscriptOutcome.NO_ADDRESS
    address_hash = mail_address_hash(emails[-1]["value"])
    confirmed = TranscriptRequest.objects.filter(
        conversation=conv, address_hash=address_hash, confirmed_at__isnull=False
    ).exists()
    if confirmed:
        return _send_now(conv=conv, address_hash=address_hash, now=now)
    if not _confirmation_allowed(site_id=conv.site_id, address_hash=address_hash, now=now):
        log.info("transcript e-mail refused: cap", extra={"conversation": conv.pk})
        return TranscriptOutcome.LIMITED
    max_age = int(_setting("TRANSCRIPT_CONFIRM_MAX_AGE", 86400))
    request = TranscriptRequest.objects.create(
        site_id=conv.site_id,
        conversation=conv,
        address_hash=address_hash,
        expires_at=now + timedelta(seconds=max_age),
    )
    task_enqueue_on_commit(
        TRANSCRIPT_CONFIRM_TASK, request.pk, base_url, inline_when_broker_down=True
    )
    return TranscriptOutcome.CONFIRM


def _confirmation_allowed(*, site_id: int, address_hash: str, now) -> bool:
    """One confirmation per address per TRANSCRIPT_EMAIL_ADDRESS_INTERVAL, whichever site or
    conversation asks: the rows make it last (a cache restart, an erased conversation), the
    shared cache's atomic add orders concurrent requests; then the e-mail caps."""
    interval = int(_setting("TRANSCRIPT_EMAIL_ADDRESS_INTERVAL", 3600))
    recent = TranscriptRequest.objects.filter(
        address_hash=address_hash,
        verified_before=False,
        created_at__gt=now - timedelta(seconds=interval),
    ).exists()
    if recent:
        return False
    try:
        first = cache.add(cache_keys.transcript_confirm_address(address_hash), 1, interval)
    except (ConnectionInterrupted, RedisError, OSError) as exc:
        log.warning(
            "cache unavailable", extra={"at": "transcript_confirm", "error": type(exc).__name__}
        )
        return False
    return first and not _caps_hit(site_id=site_id, address_hash=address_hash)


def _pending(request_id: int) -> tuple[TranscriptRequest, Conversation, str] | None:
    """The request, its live conversation and the address behind its hash, or None."""
    request = TranscriptRequest.objects.filter(pk=request_id).first()
    if request is None or request.conversation_id is None:
        return None
    conv = Conversation.objects.select_related("site").filter(pk=request.conversation_id).first()
    if conv is None or conversation_is_expired(conversation=conv):
        return None
    address = mail_address_find(conversation_id=conv.pk, address_hash=request.address_hash)
    return (request, conv, address) if address else None


def transcript_confirm_send(*, request_id: int, base_url: str) -> bool:
    """On a worker: the confirmation e-mail, fixed text and a link whose one-time token is in
    the URL fragment. Nothing the visitor wrote is in it. Safe to run twice: a request whose
    confirmation went out gets no second one."""
    found = _pending(request_id)
    if found is None:
        return False
    request, conv, address = found
    token = secrets.token_urlsafe(24)
    claimed = TranscriptRequest.objects.filter(
        pk=request.pk, confirmation_sent_at__isnull=True, confirmed_at__isnull=True
    ).update(token_hash=_token_hash(token), confirmation_sent_at=timezone.now())
    if not claimed:
        return False
    max_age = int(_setting("TRANSCRIPT_CONFIRM_MAX_AGE", 86400))
    context = {
        "site": conv.site.name,
        "link": f"{base_url.rstrip('/')}{CONFIRM_PATH}#{token}",
        "hours": max(max_age // 3600, 1),
    }
    with translation.override(conv.language):
        subject = render_to_string("handover/email/transcript_confirm_subject.txt", context)
        body = render_to_string("handover/email/transcript_confirm.txt", context)
    try:
        send_mail(subject.strip(), body, settings.DEFAULT_FROM_EMAIL, [address])
    except Exception:
        TranscriptRequest.objects.filter(pk=request.pk).update(
            token_hash=None, confirmation_sent_at=None
        )  # the retry sends it with a new token
        raise
    log.info("transcript confirmation sent", extra={"request": request.pk})
    return True


def transcript_email_confirm(*, token: str) -> str | None:
    """The confirmation page's button: the request is confirmed once and its transcript
    queued. Returns the conversation's language, or None (unknown, used or expired)."""
    if not token or len(token) > 200:
        return None
    now = timezone.now()
    request = TranscriptRequest.objects.filter(token_hash=_token_hash(token)).first()
    if request is None or request.expires_at <= now or request.conversation_id is None:
        return None
    confirmed = TranscriptRequest.objects.filter(pk=request.pk, confirmed_at__isnull=True).update(
        confirmed_at=now
    )
    if not confirmed:
        return None
    task_enqueue_on_commit(TRANSCRIPT_EMAIL_TASK, request.pk, inline_when_broker_down=True)
    language = Conversation.objects.filter(pk=request.conversation_id).values_list(
        "language", flat=True
    )
    return language.first() or "en"


def transcript_email_send(*, request_id: int) -> bool:
    """On a worker: a confirmed request's transcript (as the visitor saw it, like the widget's
    download) to the address it was confirmed for, in the conversation's language. Safe to
    run twice: a request is sent once."""
    found = _pending(request_id)
    if found is None or found[0].confirmed_at is None:
        return False
    request, conv, address = found
    if not TranscriptRequest.objects.filter(pk=request.pk, sent_at__isnull=True).update(
        sent_at=timezone.now()
    ):
        return False
    content, _, _ = conversation_export(conversation_id=conv.pk, fmt="txt", masked=False)
    context = {"site": conv.site.name, "transcript": content}
    with translation.override(conv.language):
        subject = render_to_string("handover/email/transcript_subject.txt", context).strip()
        body = render_to_string("handover/email/transcript.txt", context)
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    except Exception:
        TranscriptRequest.objects.filter(pk=request.pk).update(sent_at=None)  # for the retry
        raise
    log.info("transcript e-mail sent", extra={"conversation": conv.pk})
    return True
