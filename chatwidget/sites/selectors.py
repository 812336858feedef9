from dataclasses import dataclass, field

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from chatwidget.platform import cache_keys
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


SITE_INFO_SECONDS = 300  # a bound on staleness should an invalidation be lost


def site_info_by_key(*, key: str) -> SiteInfo | None:
    """The site of a widget key, cached (every socket's connect and every widget request
    looks it up, issue 30); a site's save or deletion drops it (`site_info_forget`). The
    cache away: read from the database."""
    try:
        cached = cache.get(cache_keys.site_info(key))
    except Exception:  # noqa: BLE001 - the cache away: the database answers
        cached = None
    if cached is not None:
        return cached
    info = _site_info_read(key)
    if info is not None:
        try:
            cache.set(cache_keys.site_info(key), info, SITE_INFO_SECONDS)
        except Exception:  # noqa: BLE001, S110 - the cache away: read again next time
            pass
    return info


def site_info_forget(*, keys: list[str]) -> None:
    """A site saved or deleted: its cached info goes (every process), at once and again
    after the commit (a lookup by another process before the commit would have cached the
    old row again)."""

    def forget() -> None:
        try:
            cache.delete_many([cache_keys.site_info(k) for k in keys if k])
        except Exception:  # noqa: BLE001, S110 - lost: it lapses after SITE_INFO_SECONDS
            pass

    forget()
    transaction.on_commit(forget)


@receiver(pre_save, sender=Site, dispatch_uid="site-info-key")
def _site_key_before(sender, instance: Site, **kwargs) -> None:
    """The key a site had, should its save change it: that key's cached info goes too."""
    fields = kwargs.get("update_fields")
    instance._key_before = (  # type: ignore[attr-defined]
        Site.objects.filter(pk=instance.pk).values_list("key", flat=True).first()
        if instance.pk and (fields is None or "key" in fields)
        else None
    )


@receiver(post_save, sender=Site, dispatch_uid="site-info-save")
@receiver(post_delete, sender=Site, dispatch_uid="site-info-delete")
def _site_changed(sender, instance: Site, **kwargs) -> None:
    site_info_forget(keys=[instance.key, getattr(instance, "_key_before", None) or ""])


def _site_info_read(key: str) -> SiteInfo | None:
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
