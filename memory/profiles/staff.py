"""Staff work on profile facts: approval, rejection, plaintext reveal and the export, each
logged."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from memory.models import AuditEvent, ProfileFact
from memory.profiles.selectors import Status, profile_export
from memory.retention import audit_record

log = logging.getLogger(__name__)


# --- staff: approval and reveal ---------------------------------------------------------------


def profilefact_approve(*, fact_ids: list[int], actor) -> int:
    """Approve proposed facts (the caller checked `memory.approve_profilefact`): from now on
    they ride in the context. One audit event per profile, ids and fields only."""
    with transaction.atomic():
        facts = list(
            ProfileFact.objects.select_for_update()
            .select_related("profile")
            .filter(pk__in=fact_ids, status=Status.PROPOSED)
        )
        by_profile: dict[int, list[ProfileFact]] = {}
        for fact in facts:
            by_profile.setdefault(fact.profile_id, []).append(fact)
        ProfileFact.objects.filter(pk__in=[f.pk for f in facts]).update(status=Status.ACTIVE)
        for profile_id, items in by_profile.items():
            audit_record(
                action=AuditEvent.Action.PROFILE,
                actor=actor,
                site_id=items[0].profile.site_id,
                target=f"profile {profile_id} / approved "
                + ", ".join(sorted({f.field for f in items})),
                details={"approved": [f.pk for f in items]},
            )
    log.info("profile facts approved", extra={"count": len(facts)})
    return len(facts)


def profilefact_reveal(*, fact_id: int, actor, reason: str) -> str:
    """The plaintext of a masked fact, for an owner who states a reason (logged first)."""
    reason = (reason or "").strip()
    if not reason:
        raise ValueError("a reason is required")
    fact = ProfileFact.objects.select_related("profile").get(pk=fact_id)
    audit_record(
        action=AuditEvent.Action.REVEAL,
        actor=actor,
        site_id=fact.profile.site_id,
        target=f"profile {fact.profile_id} / field {fact.field}",
        reason=reason,
        details={"profile": fact.profile_id, "fact": fact.pk, "field": fact.field},
    )
    return fact.value


def profile_export_for_staff(
    *, profile_id: int, actor, reason: str, masked: bool = True
) -> dict[str, Any]:
    """A staff export of one profile, masked unless the caller allowed plaintext (an owner
    with the reveal permission); logged with actor and reason before it is handed out."""
    with transaction.atomic():
        data = profile_export(profile_id=profile_id, masked=masked)
        audit_record(
            action=AuditEvent.Action.EXPORT,
            actor=actor,
            site_id=data["site"],
            target=f"profile {profile_id}",
            reason=reason,
            details={"facts": len(data["facts"]), "masked": masked},
        )
    log.info("profile exported", extra={"profile": profile_id, "masked": masked})
    return data


def profilefact_reject(*, fact_id: int, actor) -> bool:
    """Staff rejected a proposed fact: it is deleted (logged, field only)."""
    with transaction.atomic():
        fact = (
            ProfileFact.objects.select_for_update()
            .select_related("profile")
            .filter(pk=fact_id, status=Status.PROPOSED)
            .first()
        )
        if fact is None:
            return False
        fact.delete()
        audit_record(
            action=AuditEvent.Action.PROFILE,
            actor=actor,
            site_id=fact.profile.site_id,
            target=f"profile {fact.profile_id} / rejected {fact.field}",
            details={"rejected": [fact_id]},
        )
    return True
