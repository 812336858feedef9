"""The per-case reply address of continuation e-mails (issue 32).

`reply+<case id>-<mac>@INBOUND_EMAIL_DOMAIN`, where `mac` is 32 hex characters (128 bits) of
an HMAC-SHA256 under SECRET_KEY naming the case. It is lower case and short, so it survives
mail systems that fold the local part's case and stays under the local part's 64 characters.
Nothing is stored for it: the address verifies itself, and SECRET_KEY_FALLBACKS keep the
addresses of e-mails already sent working through a key rotation. It names a case and nothing
else; whether a reply to it is accepted (the sender, the case still open, the conversation not
expired) is decided by handover.inbound.receive.
"""

from __future__ import annotations

import hmac
import re

from django.conf import settings
from django.utils.crypto import salted_hmac

PREFIX = "reply+"
SALT = "handover.reply_address"
MAC_CHARS = 32
_TOKEN = re.compile(r"reply\+(\d{1,12})-([0-9a-f]{32})@([^\s>]+)", re.IGNORECASE)


def _mac(case_id: int, secret: str | bytes | None = None) -> str:
    value = salted_hmac(SALT, str(case_id), secret=secret, algorithm="sha256").hexdigest()
    return value[:MAC_CHARS]


def reply_address(*, case_id: int) -> str | None:
    """The Reply-To of the case's continuation e-mails, or None when no inbound domain is set
    (replies by e-mail are off; the e-mail's link is the way back)."""
    domain = (settings.INBOUND_EMAIL_DOMAIN or "").strip().lstrip("@")
    if not domain:
        return None
    return f"{PREFIX}{case_id}-{_mac(case_id)}@{domain}"


def reply_address_case(address: str) -> int | None:
    """The case a reply address names, when its MAC is right under SECRET_KEY or one of
    SECRET_KEY_FALLBACKS and its domain is INBOUND_EMAIL_DOMAIN; else None (constant-time
    comparisons)."""
    match = _TOKEN.fullmatch((address or "").strip())
    domain = (settings.INBOUND_EMAIL_DOMAIN or "").strip().lstrip("@").lower()
    if match is None or not domain or match.group(3).lower() != domain:
        return None
    case_id, mac = int(match.group(1)), match.group(2).lower()
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    if any(hmac.compare_digest(mac, _mac(case_id, key)) for key in keys):
        return case_id
    return None


def reply_addresses_in(text: str) -> list[str]:
    """Every reply address written in a header's text (To, Cc, Delivered-To...), unverified."""
    return [m.group(0) for m in _TOKEN.finditer(text or "")]
