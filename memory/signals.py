"""Signals memory sends so that higher layers can act on its data without memory importing
them (the layers run one way: handover knows memory, memory does not know handover).

`conversations_removing` is sent inside the transaction that erases or purges
conversations, before their rows go. Handover's receiver clears (or, for `delete_cases`,
deletes) the raw copies its cases hold of those conversations and returns how many case rows
it touched: ``{"cases_cleared": n}`` or ``{"cases_deleted": n}``. Memory adds the counts to
the audit event and the purge totals.

Arguments: ``conversation_ids`` (list[int]), ``now`` (datetime), ``delete_cases`` (bool).

Receivers are connected in the receiving app's `ready` (handover's in `HandoverConfig`).
"""

from django.dispatch import Signal

conversations_removing = Signal()


def removal_counts(responses: list) -> dict[str, int]:
    """The summed counts of the receivers' answers (`Signal.send` returns (receiver, answer)
    pairs; an answer that is not a dict of counts is ignored)."""
    counts: dict[str, int] = {}
    for _receiver, answer in responses:
        if isinstance(answer, dict):
            for key, value in answer.items():
                counts[key] = counts.get(key, 0) + int(value)
    return counts
