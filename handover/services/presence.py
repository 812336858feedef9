"""Staff presence: who has the admin open right now, from the staff socket (/ws/staff/).

"Someone is available" for a site means: within the site's staff hours AND at least one
staff user who may take the site's cases has a staff socket open. Without presence a visitor
inside staff hours would be told "a member of the team will reply" while nobody is there.

Kept in the cache (Redis in production, shared by every Daphne process), one key per user:
{channel name: expiry}. A socket marks itself on connect, renews on every heartbeat and
removes itself on disconnect; a process that dies leaves entries that lapse after
STAFF_PRESENCE_TTL_SECONDS. Only one user's own tabs write the same key, so a lost update
between two of them costs at most one heartbeat.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.db.models import Q

from chatwidget.access import staff_site_ids


def _key(user_id: int) -> str:
    return f"staff.presence.{user_id}"


def _ttl() -> int:
    return int(getattr(settings, "STAFF_PRESENCE_TTL_SECONDS", 90))


def staff_presence_mark(
    *, user_id: int, channel: str, present: bool, now: float | None = None
) -> None:
    """Mark (or unmark) one staff socket of `user_id` as open."""
    now = time.time() if now is None else now
    entries = {c: exp for c, exp in (cache.get(_key(user_id)) or {}).items() if exp > now}
    if present:
        entries[channel] = now + _ttl()
    else:
        entries.pop(channel, None)
    if entries:
        cache.set(_key(user_id), entries, timeout=_ttl())
    else:
        cache.delete(_key(user_id))


def staff_present_user_ids(*, user_ids: list[int], now: float | None = None) -> set[int]:
    """Which of `user_ids` have at least one live staff socket."""
    now = time.time() if now is None else now
    found = cache.get_many([_key(u) for u in user_ids])
    return {u for u in user_ids if any(exp > now for exp in (found.get(_key(u)) or {}).values())}


def staff_available(*, site_id: int) -> bool:
    """Is a staff user who may take this site's cases online now? (Staff hours are checked
    by the caller.) With STAFF_PRESENCE_REQUIRED off, staff hours alone decide."""
    if not getattr(settings, "STAFF_PRESENCE_REQUIRED", True):
        return True
    perm = Permission.objects.filter(content_type__app_label="handover", codename="change_case")
    users = list(
        get_user_model()
        .objects.filter(is_active=True, is_staff=True)
        .filter(
            Q(is_superuser=True) | Q(groups__permissions__in=perm) | Q(user_permissions__in=perm)
        )
        .distinct()
    )
    present = staff_present_user_ids(user_ids=[u.pk for u in users])
    for user in users:
        if user.pk in present:
            ids = staff_site_ids(user)
            if ids is None or site_id in ids:
                return True
    return False
