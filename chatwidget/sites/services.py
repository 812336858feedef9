"""Site set-up: a shop that embeds the widget.

Its retention periods start at the defaults: memory reads the defaults for a site without a
policy row, and the retention admin lists a row for every site (memory.retention
`retention_policies_ensure`), so sites made here and in the Site admin are alike."""

from urllib.parse import urlsplit

from chatwidget.sites.models import Site, validate_origin


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
    return site


def embed_snippet(*, site: Site, base_url: str) -> str:
    return (
        f'<script src="{base_url.rstrip("/")}/static/widget/v1/loader.js" '
        f'data-site="{site.key}" async></script>'
    )
