"""E-mail continuation (issues 18 and 25): a staff reply reaches a visitor who has left.

Consent: when nobody is available the visitor is asked, in the chat and with the purpose
stated, for an e-mail address "to answer this conversation" (transitions.NOTICE_NOBODY_ASK /
NOTICE_OUTSIDE_HOURS_ASK). A case opened while nobody was available (`outside_hours`) whose
contact details hold an e-mail address has that consent; the address is the case's contact
detail itself, not a copy, so it follows the case's retention run-off, erasure and export.

A staff reply on such a case queues CONTINUATION_EMAIL_TASK; the worker sends it only if no
widget of the conversation is connected then (chatwidget.platform.presence), in the
conversation's language, with a link to the shop's page that carries a one-time code in the
URL fragment only (`<shop origin>/#cw-continue=<code>`): browsers never send a fragment, so
the code is in no request line, access log or Referer. The widget there sends it in a POST
body (chatwidget.widget.views.widget_continue) and gets a session of its own.

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
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from chatwidget.platform.presence import visitor_online
from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.sites.models import Site
from handover.models import Case, ContinuationCode
from handover.services.mail_address import mail_address_hash
from memory.models import Conversation, Turn, TurnRole
from memory.redaction import never_kept_scrub
from memory.selectors import conversation_is_expired, session_get
from memory.sessions import linked_session_create

log = logging.getLogger(__name__)

CONTINUATION_EMAIL_TASK = "handover.tasks.continuation_email"
FRAGMENT_KEY = "cw-continue"  # static/widget/src/continuation.js reads it


def _max_age() -> int:
    return int(getattr(settings, "CONTINUATION_LINK_MAX_AGE", 7 * 24 * 3600))


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def continuation_address(case: Case) -> str | None:
    """The e-mail address the visitor left after being asked (newest), or None."""
    if not case.outside_hours:
        return None
    emails = [c.get("value", "") for c in case.contact or [] if c.get("kind") == "email"]
    return emails[-1] if emails else None


def continuation_after_reply(*, case: Case, seq: int) -> None:
    """In the staff reply's transaction: e-mail it later if the visitor may have left."""
    if continuation_address(case):
        task_enqueue_on_commit(CONTINUATION_EMAIL_TASK, case.pk, seq, inline_when_broker_down=True)


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


def continuation_email_send(*, case_id: int, seq: int) -> bool:
    """On a worker: e-mail the staff reply `seq` unless a widget of the conversation is open.
    Safe to run twice (one more e-mail with its own code)."""
    case = Case.objects.select_related("site").filter(pk=case_id).first()
    address = continuation_address(case) if case else None
    if case is None or address is None or case.conversation_id is None:
        return False
    if visitor_online(conversation_id=case.conversation_id):
        return False
    turn = Turn.objects.filter(
        conversation_id=case.conversation_id, seq=seq, role=TurnRole.STAFF
    ).first()
    conv = Conversation.objects.filter(pk=case.conversation_id).first()
    if turn is None or conv is None:
        return False
    link = continuation_link(site=case.site, code=continuation_code(case=case, address=address))
    context = {
        "site": case.site.name,
        "reply": never_kept_scrub(turn.text),
        "link": link,
        "days": _max_age() // 86400 or 1,
    }
    with translation.override(conv.language):
        subject = render_to_string("handover/email/continuation_subject.txt", context).strip()
        body = render_to_string("handover/email/continuation.txt", context)
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    log.info("continuation e-mail sent", extra={"case": case_id, "seq": seq})
    return True
