"""handover's services, by responsibility:

- transitions: the conversation's state machine and what staff do on a case
- cases: what a case holds (contact details, reason, core) and the visitor's notices
- notification: the e-mail that a visitor waits
- reveal: plaintext for owners, audited
- retention: a case's raw copies cleared after its run-off
- ratings: the visitor's satisfaction rating of a resolved case
- presence: which staff have the admin open ("someone is available")
- visitor_messages: the visitor writes while the team has the conversation
"""

from handover.services.cases import (
    CONTACT_KINDS,
    OPEN_STATUSES,
    case_note_update,
    contact_from_turns,
)
from handover.services.notification import case_notify_later, case_notify_staff
from handover.services.retention import case_copies_purge_expired
from handover.services.reveal import Revealed, plaintext_reveal
from handover.services.transitions import (
    NOTICE_WAITING,
    TRANSITIONS,
    CaseClosed,
    IllegalTransition,
    case_assign,
    case_claim,
    case_open_promises,
    case_release,
    case_resolve,
    conversation_take_over,
    handover_request,
    staff_reply,
    transition_check,
)
from handover.services.visitor_messages import handover_visitor_message

__all__ = [
    "CONTACT_KINDS",
    "NOTICE_WAITING",
    "OPEN_STATUSES",
    "TRANSITIONS",
    "CaseClosed",
    "IllegalTransition",
    "Revealed",
    "case_assign",
    "case_copies_purge_expired",
    "case_claim",
    "case_note_update",
    "case_notify_later",
    "case_notify_staff",
    "case_open_promises",
    "case_release",
    "case_resolve",
    "contact_from_turns",
    "conversation_take_over",
    "handover_request",
    "handover_visitor_message",
    "plaintext_reveal",
    "staff_reply",
    "transition_check",
]
