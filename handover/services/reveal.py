"""Plaintext for owners: one contact field or the transcript, with a reason, audited."""

import logging
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext

from handover.models import Case
from handover.selectors import case_transcript_is_expired
from memory.models import AuditEvent, Customer, Turn

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Revealed:
    target: str
    label: str
    contact: dict | None = None
    turns: list[dict] | None = None


def plaintext_reveal(*, case_id: int, user, target: str, reason: str) -> Revealed:
    """Plaintext of one contact field ("contact:<n>"), of the signed-in customer's e-mail
    ("customer") or of the transcript ("transcript").
    Owner permission and a stated reason required; every reveal is logged (AuditEvent)."""
    if not user.has_perm("handover.reveal_plaintext"):
        raise PermissionDenied
    reason = (reason or "").strip()
    if len(reason) < 5:
        raise ValidationError(gettext("State the reason for revealing (at least 5 characters)."))
    case = Case.objects.get(pk=case_id)
    if case_transcript_is_expired(case=case):
        # nothing to show, so nothing to audit: the retention period is over
        raise ValidationError(
            gettext("This case has expired: its transcript and contact details are no longer kept.")
        )
    if target == "transcript":
        if case.conversation_id is None:
            raise ValidationError(gettext("The transcript of this case no longer exists."))
        turns = [
            {"seq": t.seq, "role": t.role, "text": t.text, "at": t.created_at}
            for t in Turn.objects.filter(conversation_id=case.conversation_id).order_by("seq")
        ]
        revealed = Revealed(target=target, label=gettext("transcript"), turns=turns)
        details = {"case": case.pk, "field": "transcript", "turns": len(turns)}
    elif target.startswith("contact:") and target[8:].isdigit():
        index = int(target[8:])
        contacts = case.contact or []
        if index >= len(contacts):
            raise ValidationError(gettext("This field does not exist."))
        item = contacts[index]
        revealed = Revealed(target=target, label=item["kind"], contact=item)
        details = {"case": case.pk, "field": f"contact {index}", "kind": item["kind"]}
    elif target == "customer":
        customer = Customer.objects.filter(conversations__cases=case).first()
        if customer is None or not customer.email:
            raise ValidationError(gettext("This field does not exist."))
        item = {"kind": "email", "value": customer.email}
        revealed = Revealed(target=target, label=item["kind"], contact=item)
        details = {"case": case.pk, "field": "customer email", "kind": "email"}
    else:
        raise ValidationError(gettext("This field does not exist."))
    AuditEvent.objects.create(
        actor=user,
        actor_label=user.get_username(),
        action=AuditEvent.Action.REVEAL,
        site_id=case.site_id,
        conversation_ref=case.conversation_id,
        target=f"case {case.pk} / {details['field']}",
        reason=reason,
        details=details,
    )
    log.info(
        "plaintext revealed", extra={"case": case.pk, "field": details["field"], "user": user.pk}
    )
    return revealed
