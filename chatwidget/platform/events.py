"""The one module that publishes events to websockets.

Who receives what is a security question, and this file answers it:
- `conversation_group(id)`: every open tab of that conversation's visitor, and staff
  consumers watching that case (they passed the permission check to join).
- `STAFF_ALL_GROUP`: every staff socket (the waiting-cases badge).
Only services call `publish_on_commit`; events go out after the transaction commits.
The events themselves are frames built by chatwidget.platform.frames.
"""

import asyncio
import logging
import os
import weakref
from collections import deque
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def conversation_group(conversation_id: int) -> str:
    return f"conv.{conversation_id}"


STAFF_ALL_GROUP = "staff.all"


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the server this sync code was called from (Daphne, via
    sync_to_async), or None (a Celery worker, a management command)."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    pid = getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None)
    if loop is None or pid != os.getpid() or not loop.is_running():
        return None
    try:
        if asyncio.get_running_loop() is loop:
            return None
    except RuntimeError:
        pass
    return loop


# Per server loop: events waiting to be sent, drained in order by one task at a time.
_outboxes: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, deque]" = (
    weakref.WeakKeyDictionary()
)


def _enqueue(group: str, event: dict[str, Any]) -> None:
    """In the loop's thread: queue the event; start a drain task if none is running."""
    loop = asyncio.get_running_loop()
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = deque()
    outbox.append((group, event))
    if len(outbox) == 1:
        loop.create_task(_drain(outbox))


async def _drain(outbox: deque) -> None:
    while outbox:
        group, event = outbox[0]
        await apublish(group, event)
        outbox.popleft()


def _send(group: str, event: dict[str, Any]) -> None:
    """Hand the event to the server's loop without waiting (the database thread goes on to
    the next conversation's work); events keep their order. Outside a server: send now."""
    loop = _server_loop()
    if loop is not None:
        try:
            loop.call_soon_threadsafe(_enqueue, group, event)
            return
        except RuntimeError:  # the loop closed meanwhile (shutdown): resume repairs it
            log.info("event dropped at shutdown", extra={"group": group})
            return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "chat.event", "event": event})
    except Exception:  # noqa: BLE001 - the turn is committed; a lost live event is repaired by the client's resume
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
    except Exception:  # noqa: BLE001 - the turn is committed; a lost live event is repaired by the client's resume
        log.warning("event publish failed", extra={"group": group, "event_type": event.get("type")})
