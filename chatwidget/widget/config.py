"""The widget's configuration JSON, built from the same settings the server enforces."""

import hashlib

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext

from chatwidget.sites.models import STANDARD_GREETING, Site
from chatwidget.sites.selectors import SiteInfo
from chatwidget.widget.strings import WIDGET_STRINGS
from memory.privacy import CONSENT_WORDING_VERSION, cookie_lifetimes
from memory.uploads import ACCEPTED as UPLOAD_ACCEPT

THEME_FIELDS = ("theme_primary", "theme_position", "theme_scheme", "launcher_label")


def site_cookie_name(*, base: str, site_key: str) -> str:
    """A cookie name per site: two shops on one host (or two localhost ports, whose cookies
    browsers share) keep separate sessions. Only [A-Za-z0-9_], as the widget expects."""
    digest = hashlib.sha256(site_key.encode()).hexdigest()[:8]
    return f"{base}_{digest}"


def site_theme(*, site_id: int) -> dict:
    """The widget's look, as the config sends it. Read here, not in SiteInfo, because only
    the config endpoint needs it (SiteInfo is loaded per websocket connection)."""
    row = Site.objects.filter(pk=site_id).values(*THEME_FIELDS).first() or {}
    return {
        "primary": row.get("theme_primary") or "#1f4fd1",
        "position": row.get("theme_position") or "right",
        "scheme": row.get("theme_scheme") or "auto",
        "launcher_label": row.get("launcher_label") or "",
    }


def greeting_for_visitor(greeting: str) -> str:
    """The standard greeting in the active (the visitor's) language; the shop's own words as
    they are."""
    return gettext(STANDARD_GREETING) if greeting == STANDARD_GREETING else greeting


def widget_config_for(*, info: SiteInfo, base_url: str, lang: str) -> dict:
    lifetimes = cookie_lifetimes(site_id=info.id)
    ws_base = base_url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    return {
        "site": info.key,
        "lang": lang,
        "greeting": greeting_for_visitor(info.greeting),
        "starters": list(info.starters),
        "ai_disclosure": info.ai_disclosure or str(WIDGET_STRINGS["ai_disclosure"]),
        "ws": f"{ws_base}/ws/chat/{info.key}/",
        "max_length": info.max_length,
        "privacy_url": base_url + reverse("privacy", args=[info.key]) + f"?lang={lang}",
        "export_url": base_url + reverse("widget-export", args=[info.key]),
        "continue_url": base_url + reverse("widget-continue", args=[info.key]),
        "transcript_email_url": base_url + reverse("widget-transcript-email", args=[info.key]),
        # visitors' photos and files (issue 33): absent when the site takes none
        **(
            {
                "upload_url": base_url + reverse("widget-upload", args=[info.key]),
                "upload_max_bytes": info.upload_max_bytes,
                "upload_accept": UPLOAD_ACCEPT,
            }
            if info.upload_max_bytes
            else {}
        ),
        "session_cookie": {
            "name": site_cookie_name(base=settings.SESSION_COOKIE_NAME_WIDGET, site_key=info.key),
            "max_age": lifetimes["session_seconds"],
        },
        "recognition_cookie": {
            "name": site_cookie_name(base=settings.RECOGNITION_COOKIE_NAME, site_key=info.key),
            "max_age": lifetimes["recognition_seconds"],
            "months": lifetimes["recognition_months"],
        },
        "consent_version": CONSENT_WORDING_VERSION,
        "theme": site_theme(site_id=info.id),
        "strings": {k: str(v) for k, v in WIDGET_STRINGS.items()},
    }
