"""Signed-in customers (DESIGN.md, `hello.identity`): the link from a conversation to the
customer the shop vouched for, and what the customer's data rights mean for it.

The signature is checked before anything here runs (chatwidget.sites.identity, in the
socket at hello); these functions take a verified identity. A conversation is linked once,
to one customer: a session whose conversation belongs to another customer is not resumed
(`customer_may_resume`), so a shared device that changed hands never shows one customer's
chat to the next. The customer row is personal data like a transcript: exported with the
conversations (`customer_export`), erased with them (`customer_erase`), and purged once no
conversation of it is left (`memory.retention.customers_orphaned_purge`).
"""

from __future__ import annotations

import json
import logging

from django.db import IntegrityError, transaction
from django.utils import timezone

from chatwidget.sites.identity import MAX_EMAIL, MAX_ID, MAX_NAME, Identity
from memory.erasure import conversation_erase
from memory.export import conversation_export, customer_export_data
from memory.models import AuditEvent, Conversation, Customer
from memory.profiles.selectors import live_profile
from memory.retention import audit_record

log = logging.getLogger(__name__)


def customer_link(*, site_id: int, conversation_id: int, identity: Identity) -> int | None:
    """Link the conversation to the verified customer (made, or its e-mail and name updated
    to what the shop signed now). A conversation already linked to another customer stays
    theirs. Returns the customer's id, or None when not linked."""
    with transaction.atomic():
        customer = _customer_upsert(site_id=site_id, identity=identity)
        linked = (
            Conversation.objects.filter(pk=conversation_id, site_id=site_id)
            .filter(customer__isnull=True)
            .update(customer=customer)
        )
        if (
            not linked
            and not Conversation.objects.filter(pk=conversation_id, customer=customer).exists()
        ):
            return None
    log.info("customer linked", extra={"conversation": conversation_id, "customer": customer.pk})
    return customer.pk


def customer_upsert(*, site_id: int, identity: Identity) -> int:
    """The verified customer's row, made or updated to what the shop signed now (at hello:
    a conversation started on this socket is linked to it in its first turn's transaction,
    memory.services.conversation_start). Returns its id."""
    return _customer_upsert(site_id=site_id, identity=identity).pk


def _customer_upsert(*, site_id: int, identity: Identity) -> Customer:
    values = {"email": identity.email[:MAX_EMAIL], "name": identity.name[:MAX_NAME]}
    key = identity.id[:MAX_ID]
    try:
        with transaction.atomic():
            customer, _ = Customer.objects.update_or_create(
                site_id=site_id, external_id=key, defaults=values
            )
    except IntegrityError:  # made by another socket at this moment
        customer = Customer.objects.get(site_id=site_id, external_id=key)
        Customer.objects.filter(pk=customer.pk).update(**values, last_seen_at=timezone.now())
    return customer


def customer_may_resume(*, conversation: Conversation, identity: Identity | None) -> bool:
    """Whether a session may resume this conversation: an anonymous one always; one linked
    to a customer only with that customer's verified identity (after `logout`, or on a
    device that changed hands, it is not resumed: the conversation stays the customer's)."""
    if conversation.customer_id is None:
        return True
    if identity is None:
        return False
    return Customer.objects.filter(
        pk=conversation.customer_id, external_id=identity.id[:MAX_ID]
    ).exists()


def customer_profile_id(*, site_id: int, identity: Identity) -> int | None:
    """The recognition profile a verified customer resumes on another device: the live
    profile of the customer's newest conversation that has one. A profile exists only where
    the visitor consented to recognition (and goes when it is withdrawn), so the identity
    never makes a profile, it only finds one the customer agreed to."""
    profile_id = (
        Conversation.objects.filter(
            site_id=site_id,
            customer__external_id=identity.id[:MAX_ID],
            profile__isnull=False,
        )
        .order_by("-last_activity_at")
        .values_list("profile_id", flat=True)
        .first()
    )
    profile = live_profile(profile_id=profile_id, site_id=site_id)
    return profile.pk if profile is not None else None


def customer_for_conversation(*, conversation_id: int) -> Customer | None:
    """The verified customer of a conversation (shop actions take arguments from it)."""
    return Customer.objects.filter(conversations__pk=conversation_id).first()


def customer_export(*, customer_id: int, actor, reason: str, masked: bool = True) -> str:
    """Art. 15 for a signed-in customer: the customer row and every conversation linked to
    it (each as the staff export has it), as JSON. Logged with actor and reason."""
    customer = Customer.objects.get(pk=customer_id)
    ids = list(customer.conversations.order_by("created_at").values_list("pk", flat=True))
    conversations = [
        json.loads(
            conversation_export(conversation_id=pk, fmt="json", masked=masked, for_visitor=False)[0]
        )
        for pk in ids
    ]
    content = json.dumps(
        {
            "customer": {
                **customer_export_data(customer, masked=masked),
                "first_verified_at": customer.created_at.isoformat(),
                "last_verified_at": customer.last_seen_at.isoformat(),
            },
            "conversations": conversations,
        },
        ensure_ascii=False,
        indent=2,
    )
    audit_record(
        action=AuditEvent.Action.EXPORT,
        actor=actor,
        site_id=customer.site_id,
        target=f"customer {customer.pk}",
        reason=reason,
        details={"conversations": len(ids), "masked": masked},
    )
    return content


def customer_erase(*, customer_id: int, actor=None, reason: str = "") -> dict[str, int]:
    """Art. 17 for a signed-in customer: every conversation linked to it is erased (with
    what other apps hold of it; case rows keep trigger, reason and note, as in a staff
    erasure), then the customer row. Audited (counts only)."""
    with transaction.atomic():
        customer = Customer.objects.select_for_update().filter(pk=customer_id).first()
        if customer is None:
            return {}
        ids = list(customer.conversations.values_list("pk", flat=True))
        for pk in ids:
            conversation_erase(conversation_id=pk, actor=actor, reason=reason)
        Customer.objects.filter(pk=customer_id).delete()
        counts = {"conversations": len(ids), "customers": 1}
        audit_record(
            action=AuditEvent.Action.ERASE,
            actor=actor,
            site_id=customer.site_id,
            target=f"customer {customer_id}",
            reason=reason,
            details=counts,
        )
    log.info("customer erased", extra={"customer": customer_id, **counts})
    return counts
