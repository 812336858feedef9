"""E-mail continuation (issue 18): a staff reply reaches a visitor who has left.

Consent: when nobody is available the visitor is asked, in the chat and with the purpose
stated, for an e-mail address "to answer this conversation" (transitions.NOTICE_NOBODY_ASK /
NOTICE_OUTSIDE_HOURS_ASK). A case opened while nobody was available (`outside_hours`) whose
contact details hold an e-mail address has that consent; the address is the case's contact
detail itself, not a copy, so it follows the case's retention run-off, erasure and export.

A staff reply on such a case queues CONTINUATION_EMAIL_TASK; the worker sends it only if no
widget of the conversation is connected then (chatwidget.platform.presence), in the conversation's
language, with a link: PUBLIC_URL/continue/<code>/. The code is signed and timestamped
(TimestampSigner, CONTINUATION_LINK_MAX_AGE) and names the conversation and a nonce; it is
single-use (a used-marker per nonce, kept for as long as the code is valid). The link's view
sends the browser to the shop's page with the code in the URL fragment (never sent to a
server); the widget there exchanges it by POST for a fresh session token
(memory.services.conversation_token_rotate), so no session token is ever in a URL.
"""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from chatwidget.platform import cache_keys
from chatwidget.platform.presence import visitor_online
from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.sites.models import Site
from handover.models import Case
from handover.services.cases import contact_from_turns
from memory.export import conversation_export
from memory.models import Conversation, Turn, TurnRole
from memory.redaction import never_kept_scrub
from memory.selectors import conversation_is_expired
from memory.services import conversation_token_rotate

log = logging.getLogger(__name__)

CONTINUATION_EMAIL_TASK = "handover.tasks.continuation_email"
_SALT = "handover.continuation"


def _max_age() -> int:
    return int(getattr(settings, "CONTINUATION_LINK_MAX_AGE", 7 * 24 * 3600))


def continuation_address(case: Case) -> str | None:
    """The e-mail address the visitor left after being asked (newest), or None."""
    if not case.outside_hours:
        return None
    emails = [c.get("value", "") for c in case.contact or [] if c.get("kind") == "email"]
    return emails[-1] if emails else None


def continuation_after_reply(*, case: Case, seq: int) -> None:
    """In the staff reply's transaction: e-mail it later if the visitor may have left."""
    if continuation_address(case):
        task_enqueue_on_commit(CONTINUATION_EMAIL_TASK, case.pk, seq)


def continuation_code(*, conversation_id: int) -> str:
    nonce = secrets.token_urlsafe(12)
    return signing.TimestampSigner(salt=_SALT).sign_object({"c": conversation_id, "n": nonce})


def _code_read(code: str) -> dict | None:
    try:
        data = signing.TimestampSigner(salt=_SALT).unsign_object(code, max_age=_max_age())
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("c"), int):
        return None
    return data


def continuation_shop_url(*, code: str) -> str | None:
    """Where the link's view sends the browser: the shop's page, the code in the fragment.
    None when the code is invalid or expired (the view says so)."""
    data = _code_read(code)
    conv = Conversation.objects.filter(pk=data["c"]).first() if data else None
    if conv is None:
        return None
    site = Site.objects.get(pk=conv.site_id)
    origins = site.allowed_origins or []
    if not origins:
        return None
    return f"{origins[0].rstrip('/')}/#cw-continue={code}"


def continuation_exchange(*, site_id: int, code: str) -> str | None:
    """The one-time code for a fresh session token of its conversation; None when the code
    is invalid, expired, used, of another site, or the conversation is gone."""
    data = _code_read(code)
    if data is None:
        return None
    conv = Conversation.objects.filter(pk=data["c"], site_id=site_id).first()
    if conv is None or conversation_is_expired(conversation=conv):
        return None
    if not cache.add(cache_keys.continuation_used(data.get("n")), 1, timeout=_max_age()):
        log.info("continuation code reused", extra={"conversation": conv.pk})
        return None
    log.info("conversation continued from e-mail", extra={"conversation": conv.pk})
    return conversation_token_rotate(conversation_id=conv.pk)


def continuation_email_send(*, case_id: int, seq: int) -> bool:
    """On a worker: e-mail the staff reply `seq` unless a widget of the conversation is open.
    Safe to run twice (one more e-mail, no state)."""
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
    code = continuation_code(conversation_id=conv.pk)
    link = settings.PUBLIC_URL.rstrip("/") + reverse("continuation", args=[code])
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


# --- the transcript by e-mail -----------------------------------------------------------------

TRANSCRIPT_EMAIL_TASK = "handover.tasks.transcript_email"
TRANSCRIPT_EMAIL_INTERVAL = 600  # one transcript e-mail per conversation per 10 minutes


def transcript_email_request(*, conversation_id: int) -> bool:
    """The visitor asked (widget menu) for the conversation by e-mail. Sent only to an
    e-mail address the visitor wrote in this conversation, never one typed into a form, so
    the button cannot mail a stranger; at most once per TRANSCRIPT_EMAIL_INTERVAL. False
    when there is no such address (the widget says to leave one first)."""
    if not contact_from_turns(conversation_id=conversation_id, kinds=("email",)):
        return False
    if cache.add(f"transcript.email.{conversation_id}", 1, timeout=TRANSCRIPT_EMAIL_INTERVAL):
        task_enqueue_on_commit(TRANSCRIPT_EMAIL_TASK, conversation_id)
    return True


def transcript_email_send(*, conversation_id: int) -> bool:
    """On a worker: the visitor's own transcript (as typed, like the widget's download) to
    the newest e-mail address they wrote in it, in their language."""
    conv = Conversation.objects.select_related("site").filter(pk=conversation_id).first()
    emails = contact_from_turns(conversation_id=conversation_id, kinds=("email",)) if conv else []
    if conv is None or not emails or conversation_is_expired(conversation=conv):
        return False
    content, _, _ = conversation_export(conversation_id=conv.pk, fmt="txt", masked=False)
    context = {"site": conv.site.name, "transcript": content}
    with translation.override(conv.language):
        subject = render_to_string("handover/email/transcript_subject.txt", context).strip()
        body = render_to_string("handover/email/transcript.txt", context)
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [emails[-1]["value"]])
    log.info("transcript e-mail sent", extra={"conversation": conversation_id})
    return True
