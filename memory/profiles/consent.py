"""Consent and recognition: granting and withdrawing "remember me", erasing a profile,
linking a visit's conversation to its profile."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from memory.erasure import conversation_erase
from memory.models import AuditEvent, Consent, Conversation, Profile
from memory.privacy import CONSENT_WORDING_VERSION, cookie_lifetimes
from memory.profiles.fold import profile_fold_conversation
from memory.profiles.selectors import live_profile, profile_get_by_token
from memory.retention import audit_record
from memory.selectors import token_hash

log = logging.getLogger(__name__)


# --- consent ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConsentResult:
    """What the widget needs back: the new recognition token (it sets the cookie) and the
    cookie's lifetime; or recognition false (it deletes the cookie)."""

    recognition: bool
    token: str | None
    max_age: int
    profile_id: int | None


def _cookie_seconds(site_id: int) -> int:
    return cookie_lifetimes(site_id=site_id)["recognition_seconds"]


def consent_grant(
    *, site_id: int, conversation_id: int | None = None, profile_id: int | None = None
) -> ConsentResult:
    """The visitor ticked "remember me": a profile with a fresh random token (256 bits; only
    its hash is stored), a consent record with the wording version the widget showed, and
    the current conversation linked. Granting again rotates the token of the same profile."""
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        profile = live_profile(profile_id=profile_id, site_id=site_id)
        if profile is None and conversation_id:
            linked = (
                Conversation.objects.filter(pk=conversation_id, site_id=site_id)
                .values_list("profile_id", flat=True)
                .first()
            )
            profile = live_profile(profile_id=linked, site_id=site_id)
        if profile is None:
            profile = Profile.objects.create(site_id=site_id, token_hash=token_hash(token))
        else:
            Profile.objects.filter(pk=profile.pk).update(
                token_hash=token_hash(token), last_visit_at=timezone.now()
            )
        if not Consent.objects.filter(
            profile=profile, withdrawn_at__isnull=True, wording_version=CONSENT_WORDING_VERSION
        ).exists():
            Consent.objects.create(
                site_id=site_id, profile=profile, wording_version=CONSENT_WORDING_VERSION
            )
        if conversation_id:
            _link(profile_id=profile.pk, site_id=site_id, conversation_id=conversation_id)
    log.info(
        "recognition consent granted",
        extra={"site": site_id, "profile": profile.pk, "conversation": conversation_id},
    )
    return ConsentResult(
        recognition=True, token=token, max_age=_cookie_seconds(site_id), profile_id=profile.pk
    )


def consent_withdraw(
    *, site_id: int, profile_id: int | None = None, conversation_id: int | None = None
) -> ConsentResult:
    """The visitor unticked "remember me" or said "forget me": the profile and every
    transcript linked to it are deleted now (each open tab is told and closes); the consent
    record stays, marked withdrawn, as evidence. The widget deletes its cookie."""
    profile = live_profile(profile_id=profile_id, site_id=site_id)
    if profile is None and conversation_id:
        linked = (
            Conversation.objects.filter(pk=conversation_id, site_id=site_id)
            .values_list("profile_id", flat=True)
            .first()
        )
        profile = Profile.objects.filter(pk=linked, site_id=site_id).first() if linked else None
    if profile is None and profile_id:  # expired but not purged yet: delete it all the same
        profile = Profile.objects.filter(pk=profile_id, site_id=site_id).first()
    if profile is not None:
        profile_erase(profile_id=profile.pk, reason="visitor withdrew consent", delete_cases=True)
    return ConsentResult(recognition=False, token=None, max_age=0, profile_id=None)


def profile_erase(
    *, profile_id: int, actor=None, reason: str = "", delete_cases: bool = True
) -> dict[str, int]:
    """Delete a profile, its facts and every conversation linked to it (Art. 17); consent
    records are kept, marked withdrawn. Writes an audit event (counts only)."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().filter(pk=profile_id).first()
        if profile is None:
            return {}
        now = timezone.now()
        consents = Consent.objects.filter(profile=profile, withdrawn_at__isnull=True).update(
            withdrawn_at=now
        )
        conv_ids = list(profile.conversations.values_list("pk", flat=True))
        for conv_id in conv_ids:
            conversation_erase(
                conversation_id=conv_id, actor=actor, reason=reason, delete_cases=delete_cases
            )
        _, deleted = profile.delete()
        counts = {
            "conversations": len(conv_ids),
            "facts": deleted.get("memory.ProfileFact", 0),
            "consents_withdrawn": consents,
        }
        audit_record(
            action=AuditEvent.Action.ERASE,
            actor=actor,
            site_id=profile.site_id,
            target=f"profile {profile_id}",
            reason=reason,
            details=counts,
        )
    log.info("profile erased", extra={"profile": profile_id, **counts})
    return counts


# --- recognition ------------------------------------------------------------------------------


def _link(*, profile_id: int, site_id: int, conversation_id: int) -> bool:
    changed = (
        Conversation.objects.filter(pk=conversation_id, site_id=site_id)
        .exclude(profile_id=profile_id)
        .update(profile_id=profile_id)
    )
    if changed:
        # what the conversation already holds joins the profile (after commit)
        transaction.on_commit(
            lambda: profile_fold_conversation(conversation_id=conversation_id), robust=True
        )
    return bool(changed)


def profile_recognise(
    *, site_id: int, token: str | None, conversation_id: int | None = None
) -> ConsentResult:
    """A `hello` with a recognition token. A live profile: its last visit is now, the resumed
    conversation is linked, and the same token comes back with a renewed cookie lifetime (the
    profile period runs from the last visit, and so does the cookie). No live profile:
    recognition false, so the widget deletes its stale cookie."""
    profile = profile_get_by_token(site_id=site_id, token=token)
    if profile is None:
        return ConsentResult(recognition=False, token=None, max_age=0, profile_id=None)
    with transaction.atomic():
        Profile.objects.filter(pk=profile.pk).update(last_visit_at=timezone.now())
        if conversation_id:
            _link(profile_id=profile.pk, site_id=site_id, conversation_id=conversation_id)
    log.info("visitor recognised", extra={"site": site_id, "profile": profile.pk})
    return ConsentResult(
        recognition=True, token=token, max_age=_cookie_seconds(site_id), profile_id=profile.pk
    )


def profile_link_conversation(*, profile_id: int | None, conversation_id: int) -> bool:
    """Link a conversation started on a recognised visit. False when the profile is gone
    (withdrawn in another tab, expired)."""
    conv = Conversation.objects.only("site_id").filter(pk=conversation_id).first()
    profile = live_profile(profile_id=profile_id, site_id=conv.site_id) if conv else None
    if profile is None:
        return False
    with transaction.atomic():
        return _link(profile_id=profile.pk, site_id=conv.site_id, conversation_id=conversation_id)
