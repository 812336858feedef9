"""A visitor's answer to a continuation e-mail becomes a visitor turn (issue 32).

Every transport (the HTTP endpoint, the IMAP poller) hands the raw message to
`inbound_mail_receive`. It is accepted only when all of these hold, else refused and nothing
is stored:

- it is addressed to a reply address whose MAC is right (handover.services.reply_address),
  and to one case only;
- it is not an auto-reply or a bounce (handover.inbound.message);
- the case is open (waiting or with a person) and its conversation is neither erased nor
  expired: a resolved or released case takes no more messages, as the widget takes none in
  a closed conversation;
- the sender (From) is an address a continuation e-mail of this case went to (the keyed
  hashes of the case's ContinuationCode rows) and the case still holds it (erased or
  changed: refused). The reply address is a secret only the e-mail carried; From alone can be
  forged, so neither is enough alone;
- the newest e-mail to that address is at most CONTINUATION_LINK_MAX_AGE old (its code
  row's expiry): an old e-mail's address stops working as its link does.

The turn is stored by the same service as a widget message
(memory.services.visitor_message_receive): redacted at ingestion (never-kept values removed,
with the visitor's hint; contact details marked), published to the conversation's group (the
case page and any open widget tab see it live), idempotent per message (the client id is a
hash of the Message-ID: a provider's retry or a second poll stores nothing twice). Then the
case hears of it as of a widget message (handover_visitor_message: the inbox row, contact
details). Logs carry the outcome and the case id, never an address, a subject or text.
"""

from __future__ import annotations

import logging
from enum import StrEnum

from django.db import transaction
from django.utils import timezone

from handover.inbound.message import InboundMail, MailUnreadable, mail_parse
from handover.models import Case, ContinuationCode
from handover.services import OPEN_STATUSES, handover_visitor_message
from handover.services.continuation import continuation_address
from handover.services.mail_address import mail_address_hash
from handover.services.reply_address import reply_address_case
from memory.models import Conversation, ConversationState
from memory.selectors import conversation_is_expired
from memory.services import visitor_message_receive

log = logging.getLogger(__name__)

CLIENT_ID_PREFIX = "~mail:"  # `~` ids are reserved: no widget frame can carry one


class Outcome(StrEnum):
    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"  # this message was stored before
    UNREADABLE = "unreadable"
    NOT_A_REPLY = "not_a_reply"  # to no reply address
    BAD_TOKEN = "bad_token"
    AUTOMATIC = "automatic"
    CLOSED = "closed"  # the case is resolved or released
    GONE = "gone"  # the case or its conversation is erased or expired
    SENDER = "sender"  # not from the address the continuation went to
    EMPTY = "empty"  # nothing new in it

    @property
    def stored(self) -> bool:
        return self in (Outcome.ACCEPTED, Outcome.DUPLICATE)


class _Refused(Exception):
    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome


def _case_for(mail: InboundMail) -> Case:
    if mail.automatic:
        raise _Refused(Outcome.AUTOMATIC)
    if not mail.reply_addresses:
        raise _Refused(Outcome.NOT_A_REPLY)
    named = [reply_address_case(a) for a in mail.reply_addresses]
    case_ids = {i for i in named if i is not None}
    if len(case_ids) != 1 or len(case_ids) != len(set(named)):
        raise _Refused(Outcome.BAD_TOKEN)
    case = Case.objects.filter(pk=case_ids.pop()).first()
    if case is None or case.conversation_id is None:
        raise _Refused(Outcome.GONE)
    if case.status not in OPEN_STATUSES:
        raise _Refused(Outcome.CLOSED)
    return case


def _sender_check(case: Case, sender: str) -> None:
    """From is an address a continuation e-mail of the case went to, the case still holds
    it, and the newest such e-mail is at most CONTINUATION_LINK_MAX_AGE old."""
    sender_hash = mail_address_hash(sender)
    codes = ContinuationCode.objects.filter(case=case, address_hash=sender_hash)
    held = continuation_address(case)
    held_hashes = {
        mail_address_hash(c.get("value", ""))
        for c in case.contact or []
        if c.get("kind") == "email" and c.get("value")
    }
    if not (held and sender_hash in held_hashes and codes.exists()):
        raise _Refused(Outcome.SENDER)
    if not codes.filter(expires_at__gt=timezone.now()).exists():
        raise _Refused(Outcome.GONE)


def _store(conversation_id: int, mail: InboundMail) -> tuple[int, bool]:
    """The visitor turn, under the conversation's row lock; (seq, created)."""
    with transaction.atomic():
        conv = (
            Conversation.objects.select_for_update(of=("self",)).filter(pk=conversation_id).first()
        )
        if conv is None or conversation_is_expired(conversation=conv):
            raise _Refused(Outcome.GONE)
        if conv.state not in (ConversationState.WAITING, ConversationState.HUMAN):
            raise _Refused(Outcome.CLOSED)
        site_max = conv.site.message_max_length if conv.site_id else 4000
        text = mail.text if len(mail.text) <= site_max else mail.text[: site_max - 1] + "…"
        result, stored, _token, _hint = visitor_message_receive(
            site_id=conv.site_id,
            token=None,
            client_id=CLIENT_ID_PREFIX + mail.message_key,
            text=text,
            language=conv.language,
            conversation_id=conv.pk,
        )
        if stored.pk != conv.pk:  # never a new conversation from an e-mail
            raise _Refused(Outcome.GONE)
    return result.turn.seq, result.created


def inbound_mail_receive(*, raw: bytes) -> Outcome:
    """Take one raw RFC 822 message: a visitor turn when it is a valid reply, else nothing.
    Database errors propagate (the transport retries: the provider, the next poll)."""
    case_id = conversation_id = None
    try:
        try:
            mail = mail_parse(raw)
        except MailUnreadable:
            raise _Refused(Outcome.UNREADABLE) from None
        case = _case_for(mail)
        case_id = case.pk
        _sender_check(case, mail.sender)
        if not mail.text.strip():
            raise _Refused(Outcome.EMPTY)
        conversation_id = case.conversation_id
        assert conversation_id is not None  # _case_for refused a case without one
        seq, created = _store(conversation_id, mail)
    except _Refused as refused:
        log.info("inbound e-mail refused", extra={"reason": refused.outcome, "case": case_id})
        return refused.outcome
    if not created:
        log.info("inbound e-mail already stored", extra={"case": case_id, "seq": seq})
        return Outcome.DUPLICATE
    handover_visitor_message(conversation_id=conversation_id, seq=seq)
    log.info("inbound e-mail stored", extra={"case": case_id, "seq": seq})
    return Outcome.ACCEPTED
