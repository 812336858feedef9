"""The answer lease ("this turn is being answered", one answer per visitor turn across
sockets and processes): renewed while the answer streams, released when it is stored or
handed over (chatwidget/assistant/answers.py)."""

import asyncio
import logging

from django.conf import settings

from chatwidget.platform.owned import owned_release, owned_renew

log = logging.getLogger(__name__)


def lease_renew(key: str, owner: str) -> bool:
    """Extend the lease while it is ours; False once it expired or another process took it."""
    return owned_renew(key, owner, settings.ANSWER_LEASE_SECONDS)


def lease_release(key: str, owner: str) -> None:
    """Let go of the lease if it is still ours (one round trip on Redis)."""
    owned_release(key, owner)


async def lease_keep(key: str, owner: str) -> None:
    """Renew the lease every third of its life while the answer is on its way."""
    while True:
        await asyncio.sleep(settings.ANSWER_LEASE_SECONDS / 3)
        try:
            renewed = lease_renew(key, owner)  # one cache round trip, no thread hop
        except Exception as exc:  # noqa: BLE001 - the cache away: the answer goes on; the lease may lapse
            log.warning("answer lease not renewed", extra={"error": type(exc).__name__})
            continue
        if not renewed:
            log.warning("answer lease lost", extra={"key": key})
            return
