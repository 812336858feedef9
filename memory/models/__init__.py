"""Conversations, turns, condensed cores, context traces, retention, consent and profiles:
the models of memory, one module per family (conversations, records, profiles).

Text columns hold *redacted* text only: never-kept values (cards, codes, passwords) are
replaced before a row is written; kept-but-marked values (e-mail, phone, IBAN, address) are
listed in `spans` so staff views can mask them.
"""

from memory.models.attachments import Attachment
from memory.models.conversations import (
    ContextTrace,
    Conversation,
    ConversationState,
    Core,
    Customer,
    LinkedSession,
    Turn,
    TurnRole,
)
from memory.models.profiles import (
    Consent,
    Profile,
    ProfileFact,
)
from memory.models.records import (
    AuditEvent,
    DailyStat,
    RetentionPolicy,
)

__all__ = [
    "Attachment",
    "ConversationState",
    "Conversation",
    "Customer",
    "LinkedSession",
    "TurnRole",
    "Turn",
    "Core",
    "ContextTrace",
    "Profile",
    "ProfileFact",
    "Consent",
    "RetentionPolicy",
    "AuditEvent",
    "DailyStat",
]
