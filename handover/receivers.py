"""Handover's answers to memory's signals (memory does not import handover).

`memory.signals.conversations_removing`: conversations are erased or purged; the raw copies
their cases hold (condensed core, contact details) go in the same transaction. With
`delete_cases` (the visitor's own erasure) the case rows go too; otherwise each keeps
trigger, reason and note.
"""

from django.dispatch import receiver

from handover.models import Case
from memory.signals import conversations_removing


@receiver(conversations_removing, dispatch_uid="handover.case_copies_clear")
def case_copies_clear(
    *,
    conversation_ids: list[int],
    now,
    delete_cases: bool,
    **kwargs,
) -> dict[str, int]:
    cases = Case.objects.filter(conversation_id__in=conversation_ids)
    if delete_cases:
        return {"cases_deleted": cases.delete()[1].get("handover.Case", 0)}
    return {"cases_cleared": cases.update(core={}, contact=[], transcript_purged_at=now)}
