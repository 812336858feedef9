"""A hook's signing secret: shown to its owner once, when the hook is made or the secret is
rotated, and afterwards only as a hint (its last characters), like a password.

The secret must stay readable to the server (it signs every delivery with it), so it is
stored as it is; what changes is who sees it. Anyone who can open the hook in admin could
otherwise copy it and sign bodies the receiver would trust. A lost secret is rotated, not
looked up: the receiver is given the new one.
"""

import logging

from django.db import transaction

from chatwidget.integrations.models import Webhook, new_webhook_secret

log = logging.getLogger(__name__)

HINT_CHARS = 4


def webhook_secret_hint(secret: str) -> str:
    """What admin shows of a stored secret: enough to tell two apart, not to sign."""
    return f"{'•' * 8}{secret[-HINT_CHARS:]}" if secret else ""


def webhook_secret_rotate(*, hook_id: int) -> Webhook:
    """A new signing secret for the hook; the old one stops working at once (deliveries
    still pending are signed with the new one). Returns the hook with the new secret, for
    the one time it is shown."""
    with transaction.atomic():
        hook = Webhook.objects.select_for_update().get(pk=hook_id)
        hook.secret = new_webhook_secret()
        hook.save(update_fields=["secret"])
    log.info("webhook secret rotated", extra={"hook": hook.pk, "site": hook.site_id})
    return hook
