"""Presence: is a visitor's widget connected to a conversation, is a staff user's admin
open, right now? Both kept in the cache (Redis in production, shared by every process) as
{channel name: expiry} per conversation or user, so an entry of a process that dies lapses.

Visitors (issue 18): is a visitor's widget connected to a conversation right now?

A staff reply made while the visitor is offline is e-mailed (handover.services.continuation);
one made while a widget is open is not. Presence follows the socket's group membership: the
visitor consumer joins the conversation's group on hello, renews it every GROUP_RENEW_SECONDS
and leaves on disconnect, and `visitor_group` marks the same in the cache (shared by every
process): {channel: expiry} per conversation. A process that dies leaves entries that lapse
after VISITOR_PRESENCE_TTL (three renewals). The cache is reached from a worker thread
(thread_sensitive=False), never the consumers' one database thread, and only on join, renewal
and leave, never per frame; a cache that is down costs the e-mail decision, not the socket.

Staff: who has the admin open right now, from the staff socket (/ws/staff/). A socket
marks itself on connect, renews on every heartbeat and removes itself on disconnect;
entries lapse after STAFF_PRESENCE_TTL_SECONDS. Only one user's own tabs write the same
key, so a lost update between two of them costs at most one heartbeat.
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from chatwidget.platform import cache_keys

log = logging.getLogger(__name__)

VISITOR_PRESENCE_TTL = 90


def visitor_presence_mark(
    *, conversation_id: int, channel: str, present: bool, now: float | None = None
) -> None:
    now = time.time() if now is None else now
    try:
        entries = {
            c: exp
            for c, exp in (cache.get(cache_keys.visitor_presence(conversation_id)) or {}).items()
            if exp > now
        }
        if present:
            entries[channel] = now + VISITOR_PRESENCE_TTL
        else:
            entries.pop(channel, None)
        if entries:
            cache.set(
                cache_keys.visitor_presence(conversation_id), entries, timeout=VISITOR_PRESENCE_TTL
            )
        else:
            cache.delete(cache_keys.visitor_presence(conversation_id))
    except Exception as exc:  # noqa: BLE001 - the cache is away: the socket goes on
        log.warning("visitor presence not stored", extra={"error": type(exc).__name__})


def visitor_online(*, conversation_id: int, now: float | None = None) -> bool:
    """Has this conversation an open widget socket (in any process)?"""
    now = time.time() if now is None else now
    entries = cache.get(cache_keys.visitor_presence(conversation_id)) or {}
    return any(exp > now for exp in entries.values())


async def visitor_group(
    layer,
    *,
    action: str,
    group: str,
    conversation_id: int,
    channel: str,
    presence: bool = True,
) -> None:
    """Join ("add", also the renewal) or leave the conversation's group, and mark the
    visitor's presence to match (`presence=False`: the group only, for a renewal on a
    message while the presence entry is fresh). Channel-layer errors propagate (the caller
    handles them)."""
    if action == "add":
        await layer.group_add(group, channel)
    else:
        await layer.group_discard(group, channel)
    if not presence:
        return
    await sync_to_async(visitor_presence_mark, thread_sensitive=False)(
        conversation_id=conversation_id, channel=channel, present=action == "add"
    )


# --- staff ---------------------------------------------------------------------------------


def _ttl() -> int:
    return int(getattr(settings, "STAFF_PRESENCE_TTL_SECONDS", 90))


def staff_presence_mark(
    *, user_id: int, channel: str, present: bool, now: float | None = None
) -> None:
    """Mark (or unmark) one staff socket of `user_id` as open."""
    now = time.time() if now is None else now
    entries = {
        c: exp
        for c, exp in (cache.get(cache_keys.staff_presence(user_id)) or {}).items()
        if exp > now
    }
    if present:
        entries[channel] = now + _ttl()
    else:
        entries.pop(channel, None)
    if entries:
        cache.set(cache_keys.staff_presence(user_id), entries, timeout=_ttl())
    else:
        cache.delete(cache_keys.staff_presence(user_id))


def staff_present_user_ids(*, user_ids: list[int], now: float | None = None) -> set[int]:
    """Which of `user_ids` have at least one live staff socket."""
    now = time.time() if now is None else now
    found = cache.get_many([cache_keys.staff_presence(u) for u in user_ids])
    return {
        u
        for u in user_ids
        if any(exp > now for exp in (found.get(cache_keys.staff_presence(u)) or {}).values())
    }
