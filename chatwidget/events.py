"""The one module that publishes events to websockets.

Who receives what is a security question, and this file answers it:
- `conversation_group(id)`: every open tab of that conversation's visitor, and staff
  consumers watching that case (they passed the permission check to join).
- `staff_group(site_id)`: staff consumers of that site (waiting counts, new cases).
Only services call `publish_on_commit`; events go out after the transaction commits.
"""

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def conversation_group(conversation_id: int) -> str:
    return f"conv.{conversation_id}"


def staff_group(site_id: int) -> str:
    return f"staff.{site_id}"


STAFF_ALL_GROUP = "staff.all"


def _send(group: str, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "chat.event", "event": event})
    except Exception:
        # The turn is committed; a lost live event is repaired by the client's resume.
        log.warning("event publish failed", extra={"group": group, "event_type": event.get("type")})


def publish_on_commit(group: str, event: dict[str, Any]) -> None:
    transaction.on_commit(lambda: _send(group, event))


async def apublish(group: str, event: dict[str, Any]) -> None:
    """For async callers outside any transaction (e.g. the streaming consumer)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group, {"type": "chat.event", "event": event})
    except Exception:
        log.warning("event publish failed", extra={"group": group, "event_type": event.get("type")})
