"""Condensation (placeholder until the memory issue lands): schedules nothing yet."""


def condense_schedule_if_due(*, conversation_id: int) -> None:
    return None
