"""Site set-up: a shop that embeds the widget, with the default retention periods."""

from urllib.parse import urlsplit

from chatwidget.models import Site, validate_origin
from memory.retention import retention_policy_ensure


def site_create(*, name: str, origins: list[str]) -> Site:
    cleaned = []
    for origin in origins:
        parts = urlsplit(origin.strip())
        normal = f"{parts.scheme}://{parts.netloc}".lower()
        validate_origin(normal)
        cleaned.append(normal)
    site = Site(name=name, allowed_origins=cleaned)
    site.full_clean()
    site.save()
    retention_policy_ensure(site_id=site.pk)  # every site starts with the default periods
    return site


def embed_snippet(*, site: Site, base_url: str) -> str:
    return (
        f'<script src="{base_url.rstrip("/")}/static/widget/v1/loader.js" '
        f'data-site="{site.key}" async></script>'
    )
