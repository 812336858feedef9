from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from chatwidget.models import Site
from memory.models import ConversationState, Turn, TurnRole


@dataclass(frozen=True)
class SiteInfo:
    """What a consumer needs of a Site, loaded once per connection."""

    id: int
    key: str
    origins: frozenset[str]
    max_length: int
    language: str
    greeting: str


def site_info_by_key(*, key: str) -> SiteInfo | None:
    site = Site.objects.filter(key=key).first()
    if site is None:
        return None
    return SiteInfo(
        id=site.pk,
        key=site.key,
        origins=frozenset(o.rstrip("/").lower() for o in site.allowed_origins),
        max_length=site.message_max_length,
        language=site.default_language,
        greeting=site.greeting,
    )


def origin_allowed(*, info: SiteInfo, origin: str | None) -> bool:
    return bool(origin) and origin.rstrip("/").lower() in info.origins


def sites_time_zone() -> str | None:
    """The time zone every site shares, or None when they differ or there is no site."""
    zones = list(Site.objects.order_by().values_list("time_zone", flat=True).distinct()[:2])
    return zones[0] if len(zones) == 1 else None


@dataclass(frozen=True)
class UnansweredTurn:
    seq: int
    client_id: str | None


def turn_unanswered(*, conversation_id: int, max_age_s: float) -> UnansweredTurn | None:
    """The conversation's newest visitor turn when nothing answered it yet (no assistant or
    staff turn after it) while the bot has the conversation, at most `max_age_s` old. One
    query. An older question is left alone: the visitor has moved on."""
    newest = (
        Turn.objects.filter(
            conversation_id=conversation_id,
            conversation__state=ConversationState.BOT,
            role__in=(TurnRole.VISITOR, TurnRole.ASSISTANT, TurnRole.STAFF),
        )
        .order_by("-seq")
        .values("seq", "role", "client_id", "created_at")
        .first()
    )
    if newest is None or newest["role"] != TurnRole.VISITOR:
        return None
    if newest["created_at"] < timezone.now() - timedelta(seconds=max_age_s):
        return None
    return UnansweredTurn(seq=newest["seq"], client_id=newest["client_id"])
