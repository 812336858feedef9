from datetime import timedelta

from django.db.models import Q

from handover.models import Case


def case_holds_conversation(*, conversation_id: int, policy, now) -> bool:
    """An open case, or one resolved within the run-off, keeps the raw transcript alive."""
    cutoff = now - timedelta(days=policy.case_days)
    return Case.objects.filter(
        Q(resolved_at__isnull=True) | Q(resolved_at__gt=cutoff),
        conversation_id=conversation_id,
        status__in=[Case.Status.WAITING, Case.Status.HUMAN, Case.Status.RESOLVED],
    ).exists()
