"""The signed customer identity (DESIGN.md, `hello.identity`): the site's identity secret and
the check of a signature.

The shop's server signs the customer it has signed in: `signature` = hex HMAC-SHA256, key:
the site's identity secret, message: `id + "\\n" + email` (UTF-8). The widget only carries
what the page gave it; the server believes an identity only when the signature checks
(`hmac.compare_digest`, constant time). Like a webhook's signing secret
(chatwidget.integrations.signing) the secret stays readable to the server, and admin shows
it once, when it is made or rotated; afterwards only its last characters.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass

from django.db import transaction

from chatwidget.sites.models import Site

log = logging.getLogger(__name__)

HINT_CHARS = 4
MAX_ID = 200
MAX_EMAIL = 254
MAX_NAME = 200


@dataclass(frozen=True)
class Identity:
    """A customer the shop signed in, as the `hello` frame carries it (not yet checked)."""

    id: str
    email: str
    name: str
    signature: str


def new_identity_secret() -> str:
    return secrets.token_hex(32)  # 256 bits, 64 characters


def identity_secret_hint(secret: str) -> str:
    """What admin shows of a stored secret: enough to tell two apart, not to sign."""
    return f"{'•' * 8}{secret[-HINT_CHARS:]}" if secret else ""


def identity_signature(*, secret: str, customer_id: str, email: str) -> str:
    """The signature the shop's server computes (the README has it in Python, PHP, Node)."""
    message = f"{customer_id}\n{email}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def identity_verify(*, secret: str, identity: Identity | None) -> bool:
    """Whether the identity's signature is the site's (constant-time compare). No secret, no
    identity or an empty id: False."""
    if not secret or identity is None or not identity.id:
        return False
    expected = identity_signature(secret=secret, customer_id=identity.id, email=identity.email)
    return hmac.compare_digest(expected, identity.signature.strip().lower())


def identity_secret_get(*, site_id: int, rotate: bool = False) -> str:
    """The site's identity secret, made on first use; `rotate` replaces it (identities
    signed with the old one stop verifying at the next connection)."""
    with transaction.atomic():
        site = Site.objects.select_for_update().get(pk=site_id)
        if rotate or not site.identity_secret:
            site.identity_secret = new_identity_secret()
            site.save(update_fields=["identity_secret"])
            log.info("identity secret made", extra={"site": site.pk, "rotated": rotate})
        return site.identity_secret
