"""Erasure (Art. 17): a conversation and everything derived from it goes now.

Its own module because both the conversation services and recognition profiles erase
conversations; neither imports the other. What other apps hold of a conversation (a handover
case's copy of the core and contact details) is cleared by their receivers of
`memory.signals.conversations_removing`, sent in the same transaction; the text that webhook
deliveries quote (chatwidget.integrations, below memory) is taken out here directly.
"""

import logging

from django.db import transaction
from django.utils import timezone

from chatwidget.integrations.retention import webhook_texts_forget
from chatwidget.platform.events import conversation_group, publish_on_commit
from chatwidget.platform.frames import forgotten_frame
from memory.attachments import attachment_files_forget
from memory.models import AuditEvent, Conversation, Customer, ProfileFact
from memory.retention import audit_record, conversation_cache_clear
from memory.signals import conversations_removing, removal_counts

log = logging.getLogger(__name__)


def conversation_erase(
    *, conversation_id: int, actor=None, reason: str = "", delete_cases: bool = False
) -> dict[str, int]:
    """Erase a conversation now (Art. 17): turns, cores, traces, cached state (rate-limit
    buckets, condensation lock) and the raw copies held by its handover cases (condensed
    core, contact details). With `delete_cases` the case rows go too; otherwise each keeps
    trigger, reason and note. Every open tab is told (`forgotten`) and closes. Writes an
    audit event (actor, reason, counts) and returns the counts."""
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().filter(pk=conversation_id).first()
        if conv is None:
            return {}
        cases_key = "cases_deleted" if delete_cases else "cases_cleared"
        others = removal_counts(
            conversations_removing.send(
                sender=Conversation,
                conversation_ids=[conversation_id],
                now=timezone.now(),
                delete_cases=delete_cases,
            )
        )
        files = attachment_files_forget(conversation_ids=[conversation_id])
        _, deleted = conv.delete()
        # a signed-in customer with no conversation left goes with its last one
        customers = (
            Customer.objects.filter(pk=conv.customer_id, conversations__isnull=True).delete()[0]
            if conv.customer_id
            else 0
        )
        counts = {
            "turns": deleted.get("memory.Turn", 0),
            "cores": deleted.get("memory.Core", 0),
            "traces": deleted.get("memory.ContextTrace", 0),
            "attachments": files,  # the files leave storage after the commit
            cases_key: others.pop(cases_key, 0),
            # what this conversation taught a recognition profile goes with it
            "profile_facts": ProfileFact.objects.filter(
                source_conversation=conversation_id
            ).delete()[0],
            # the reason, note and comment quoted by webhook deliveries (the delivery log)
            "webhook_texts": webhook_texts_forget(conversation_ids=[conversation_id]),
            "customers": customers,
            **others,
        }
        audit_record(
            action=AuditEvent.Action.ERASE,
            actor=actor,
            site_id=conv.site_id,
            conversation_ref=conversation_id,
            target=f"conversation {conversation_id}",
            reason=reason,
            details=counts,
        )
        transaction.on_commit(lambda: conversation_cache_clear(conversation_ids=[conversation_id]))
        publish_on_commit(conversation_group(conversation_id), forgotten_frame())
    log.info("conversation erased", extra={"conversation": conversation_id, **counts})
    return counts


def conversation_erase_by_visitor(*, conversation_id: int) -> dict[str, int]:
    """The visitor's `forget`: everything goes, the case rows too (nothing of the person)."""
    return conversation_erase(
        conversation_id=conversation_id, reason="visitor request", delete_cases=True
    )
