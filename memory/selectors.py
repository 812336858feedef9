"""Reads. Expired data is treated as gone here, before any purge has run."""

import hashlib
from datetime import timedelta

from django.utils import timezone

from memory.models import Conversation, RetentionPolicy, Turn


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def retention_for_site(*, site_id: int) -> RetentionPolicy:
    policy = RetentionPolicy.objects.filter(site_id=site_id).first()
    return policy or RetentionPolicy(site_id=site_id)  # unsaved: the defaults


def conversation_expires_at(*, conversation: Conversation, policy: RetentionPolicy):
    """When the session transcript expires. A conversation with an open or recently
    resolved case is held by the case's run-off instead (handover.selectors)."""
    return conversation.last_activity_at + timedelta(hours=policy.session_hours)


def conversation_is_expired(*, conversation: Conversation, now=None) -> bool:
    from handover.selectors import case_holds_conversation

    now = now or timezone.now()
    policy = retention_for_site(site_id=conversation.site_id)
    if conversation_expires_at(conversation=conversation, policy=policy) > now:
        return False
    return not case_holds_conversation(conversation_id=conversation.pk, policy=policy, now=now)


def conversation_get_by_token(*, site_id: int, token: str | None) -> Conversation | None:
    """The live conversation for a session token, or None (unknown, other site, expired)."""
    if not token or len(token) > 200:
        return None
    conv = Conversation.objects.filter(token_hash=token_hash(token), site_id=site_id).first()
    if conv is None or conversation_is_expired(conversation=conv):
        return None
    return conv


def turns_for_visitor(*, conversation_id: int, after_seq: int | None = None) -> list[Turn]:
    qs = Turn.objects.filter(conversation_id=conversation_id)
    if after_seq:
        qs = qs.filter(seq__gt=after_seq)
    return list(qs.order_by("seq").only("seq", "role", "text", "created_at"))


def turn_public(turn: Turn) -> dict:
    return {
        "seq": turn.seq,
        "role": turn.role,
        "text": turn.text,
        "at": turn.created_at.isoformat(),
    }
