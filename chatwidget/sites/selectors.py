from dataclasses import dataclass, field

from chatwidget.sites.models import Site, starter_lines


@dataclass(frozen=True)
class SiteInfo:
    """What a consumer needs of a Site, loaded once per connection."""

    id: int
    key: str
    origins: frozenset[str]
    max_length: int
    language: str
    greeting: str
    # the owner's suggested first questions, as buttons under the greeting (issue 33)
    starters: tuple[str, ...] = ()
    ai_disclosure: str = ""  # empty: the standard sentence (chatwidget.widget.strings)
    # the key of `hello.identity` (chatwidget.sites.identity); empty: nothing verifies
    identity_secret: str = field(default="", repr=False)
    # visitors' photos and files (issue 33): 0 bytes turns them off
    upload_max_bytes: int = 0
    upload_max_count: int = 0


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
        starters=tuple(starter_lines(site.starter_choices)),
        ai_disclosure=site.ai_disclosure.strip(),
        identity_secret=site.identity_secret,
        upload_max_bytes=site.upload_max_bytes,
        upload_max_count=site.upload_max_count,
    )


def origin_allowed(*, info: SiteInfo, origin: str | None) -> bool:
    return bool(origin) and origin.rstrip("/").lower() in info.origins


def sites_time_zone() -> str | None:
    """The time zone every site shares, or None when they differ or there is no site."""
    zones = list(Site.objects.order_by().values_list("time_zone", flat=True).distinct()[:2])
    return zones[0] if len(zones) == 1 else None
