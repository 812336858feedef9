"""E-mail continuation (issues 18, 25 and 32): a staff reply reaches a visitor who has left.

Consent: whenever a person is to answer, the widget tells the visitor that an e-mail address
left in the chat brings the answer by e-mail (transitions: NOTICE_WAITING_ASK,
NOTICE_NOBODY_ASK, NOTICE_OUTSIDE_HOURS_ASK). An e-mail address among the case's contact
details is that consent, in hours or not; the address is the case's contact detail itself,
not a copy, so it follows the case's retention run-off, erasure and export.

Batching (issue 32): a staff reply stored while no widget of the conversation is connected
(chatwidget.platform.presence) marks a batch due CONTINUATION_BATCH_SECONDS later
(`Case.mail_batch_at`) and queues CONTINUATION_EMAIL_TASK with that countdown, unless a batch
is already due; a reply stored while a widget is open moves `Case.mail_through_seq` (the
visitor read everything up to it). The task sends every staff turn after `mail_through_seq`
in one e-mail, in the conversation's language, unless a widget is open by then, and moves the
mark. So several replies within a few minutes give one e-mail, and running the task twice
sends nothing twice (a failed send is retried, the mark unmoved). The state is in the case's
row, not in the cache or the broker: a lost task is replaced by the next reply's.

Each e-mail carries a link to the shop's page with a one-time code in the URL fragment only
(`<shop origin>/#cw-continue=<code>`): browsers never send a fragment, so the code is in no
request line, access log or Referer. The widget there sends it in a POST body
(chatwidget.widget.views.widget_continue) and gets a session of its own. With
INBOUND_EMAIL_DOMAIN set it also carries a per-case Reply-To
(handover.services.reply_address): the visitor's answer by e-mail becomes a visitor turn
(handover.inbound), accepted only from the address the continuation went to (the code rows'
`address_hash`).

The code (handover.models.ContinuationCode) is random, stored as a hash, bound to the address
it was sent to (a keyed hash), valid for CONTINUATION_LINK_MAX_AGE and spent once, in the
database. The exchange checks that the case still holds that address (erased or changed:
refused) and makes a *linked* session (memory.models.LinkedSession): the visitor's own
session keeps working, and the linked one sees contact details masked, so a code alone never
gives the plaintext transcript; that goes by e-mail to the bound address only
(handover.services.transcript_email).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from chatwidget.platform.presence import visitor_online
from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.sites.models import Site
from handover.models import Case, ContinuationCode
from handover.services.mail_address import mail_address_hash
from handover.services.reply_address import reply_address
from memory.models import Conversation, Turn, TurnRole
from memory.redaction import never_kept_scrub
from memory.selectors import conversation_is_expired, session_get
from memory.sessions import linked_session_create

log = logging.getLogger(__name__)

CONTINUATION_EMAIL_TASK = "handover.tasks.continuation_email"
FRAGMENT_KEY = "cw-continue"  # static/widget/src/continuation.js reads it
BATCH_LATE = timedelta(minutes=5)  # a batch this late was lost with its task


def _max_age() -> int:
    return int(getattr(settings, "CONTINUATION_LINK_MAX_AGE", 7 * 24 * 3600))


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def continuation_address(case: Case) -> str | None:
    """The e-mail address the visitor left (newest), or None."""
    emails = [c.get("value", "") for c in case.contact or [] if c.get("kind") == "email"]
    return emails[-1] if emails else None


def _batch_seconds() -> int:
    return max(0, int(getattr(settings, "CONTINUATION_BATCH_SECONDS", 120)))


def _online(conversation_id: int) -> bool:
    """A widget of the conversation is connected; a cache that is away counts as "no" (an
    e-mail too many rather than a reply the visitor never sees)."""
    try:
        return visitor_online(conversation_id=conversation_id)
    except Exception as exc:  # noqa: BLE001 - presence is a hint; the reply must not fail
        log.warning("visitor presence unknown", extra={"error": type(exc).__name__})
        return False


def continuation_after_reply(*, case: Case, seq: int) -> None:
    """In the staff reply's transaction (the case's row locked): an open widget shows the
    reply (the mark moves past it); otherwise it joins the pending batch, or starts one."""
    if case.conversation_id is None or not continuation_address(case):
        return
    if _online(case.conversation_id):
        Case.objects.filter(pk=case.pk, mail_through_seq__lt=seq).update(mail_through_seq=seq)
        return
    now = timezone.now()
    # a pending batch takes it (one overdue by more than BATCH_LATE was lost: start another)
    if case.mail_batch_at is not None and case.mail_batch_at > now - BATCH_LATE:
        return
    delay = _batch_seconds()
    case.mail_batch_at = now + timedelta(seconds=delay)
    Case.objects.filter(pk=case.pk).update(mail_batch_at=case.mail_batch_at)
    task_enqueue_on_commit(
        CONTINUATION_EMAIL_TASK, case.pk, countdown=delay, inline_when_broker_down=True
    )


def continuation_code(*, case: Case, address: str) -> str:
    """A new one-time code for `case`, bound to `address`; only its hash is stored."""
    code = secrets.token_urlsafe(24)
    ContinuationCode.objects.create(
        case=case,
        code_hash=code_hash(code),
        address_hash=mail_address_hash(address),
        expires_at=timezone.now() + timedelta(seconds=_max_age()),
    )
    return code


def continuation_link(*, site: Site, code: str) -> str | None:
    """The shop's page with the code in the fragment, or None without an allowed origin."""
    origins = site.allowed_origins or []
    if not origins:
        return None
    return f"{origins[0].rstrip('/')}/#{FRAGMENT_KEY}={code}"


def continuation_exchange(*, site_id: int, code: str, current: str | None = None) -> str | None:
    """The one-time code for a linked session token of its conversation (masked view); None
    when the code is unknown, expired, used, of another site, when the case no longer holds
    the address it was sent to, or the conversation is gone. Spent in the database.
    `current`: the browser's session token; when it opens the same conversation it is
    returned as it is (the link opened where the conversation already was)."""
    if not code or len(code) > 200:
        return None
    now = timezone.now()
    row = (
        ContinuationCode.objects.select_related("case")
        .filter(code_hash=code_hash(code), case__site_id=site_id)
        .first()
    )
    if row is None or row.used_at is not None or row.expires_at <= now:
        log.info("continuation code refused", extra={"known": row is not None})
        return None
    address = continuation_address(row.case)
    if address is None or mail_address_hash(address) != row.address_hash:
        log.info("continuation code refused: address changed", extra={"case": row.case_id})
        return None
    conversation_id = row.case.conversation_id
    conv = Conversation.objects.filter(pk=conversation_id).first() if conversation_id else None
    if conv is None or conversation_is_expired(conversation=conv):
        return None
    with transaction.atomic():
        spent = ContinuationCode.objects.filter(pk=row.pk, used_at__isnull=True).update(used_at=now)
        if not spent:  # another request spent it meanwhile
            return None
        here = session_get(site_id=site_id, token=current) if current else None
        if here is not None and here.conversation.pk == conv.pk:
            return current
        token, linked_id = linked_session_create(conversation_id=conv.pk, masked=True)
        ContinuationCode.objects.filter(pk=row.pk).update(session_id=linked_id)
    log.info("conversation continued from e-mail", extra={"conversation": conv.pk})
    return token


def _batch_take(case_id: int) -> Case | None:
    """The case, its pending batch cleared first: a reply stored from now on starts a batch
    of its own (one that finds nothing left to send when this one took it)."""
    with transaction.atomic():
        case = Case.objects.select_for_update().filter(pk=case_id).first()
        if case is not None and case.mail_batch_at is not None:
            Case.objects.filter(pk=case_id).update(mail_batch_at=None)
    return case


def continuation_email_send(*, case_id: int, seq: int | None = None) -> bool:
    """On a worker: e-mail every staff reply the visitor has not had (after
    `Case.mail_through_seq`) in one e-mail, unless a widget of the conversation is open.
    `seq`: the reply that queued it (tasks queued before issue 32 name one); the batch takes
    all. Safe to run twice: the mark moves after the send, so a second run finds nothing."""
    case = _batch_take(case_id)
    address = continuation_address(case) if case else None
    if case is None or address is None or case.conversation_id is None:
        return False
    conv = Conversation.objects.filter(pk=case.conversation_id).first()
    if conv is None or conversation_is_expired(conversation=conv):
        return False
    turns = list(
        Turn.objects.filter(
            conversation_id=conv.pk, role=TurnRole.STAFF, seq__gt=case.mail_through_seq
        ).order_by("seq")
    )
    if not turns:
        return False
    last = turns[-1].seq
    if not _online(conv.pk):
        _send(case=case, conv=conv, address=address, turns=turns)
    Case.objects.filter(pk=case_id, mail_through_seq__lt=last).update(mail_through_seq=last)
    return True


def _send(*, case: Case, conv: Conversation, address: str, turns: list[Turn]) -> None:
    site = Site.objects.get(pk=case.site_id)
    link = continuation_link(site=site, code=continuation_code(case=case, address=address))
    reply_to = reply_address(case_id=case.pk)
    context = {
        "site": site.name,
        "replies": [never_kept_scrub(turn.text) for turn in turns],
        "link": link,
        "reply_by_email": bool(reply_to),
        "days": _max_age() // 86400 or 1,
    }
    with translation.override(conv.language):
        subject = render_to_string("handover/email/continuation_subject.txt", context).strip()
        body = render_to_string("handover/email/continuation.txt", context)
    message = EmailMessage(
        subject,
        body,
        settings.DEFAULT_FROM_EMAIL,
        [address],
        reply_to=[reply_to] if reply_to else None,
    )
    message.extra_headers["Auto-Submitted"] = "auto-generated"  # no out-of-office answers
    message.send()
    log.info(
        "continuation e-mail sent",
        extra={"case": case.pk, "seqs": [t.seq for t in turns], "reply_to": bool(reply_to)},
    )
