"""The widget's configuration JSON, built from the same settings the server enforces."""

from django.conf import settings
from django.urls import reverse

from chatwidget.selectors import SiteInfo

CONSENT_WORDING_VERSION = "v1"


def widget_config_for(*, info: SiteInfo, base_url: str, lang: str) -> dict:
    from chatwidget.widget_strings import WIDGET_STRINGS
    from memory.privacy import cookie_lifetimes

    lifetimes = cookie_lifetimes(site_id=info.id)
    ws_base = base_url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    return {
        "site": info.key,
        "lang": lang,
        "greeting": info.greeting,
        "ws": f"{ws_base}/ws/chat/{info.key}/",
        "max_length": info.max_length,
        "privacy_url": base_url + reverse("privacy", args=[info.key]) + f"?lang={lang}",
        "export_url": base_url + reverse("widget-export", args=[info.key]),
        "session_cookie": {
            "name": settings.SESSION_COOKIE_NAME_WIDGET,
            "max_age": lifetimes["session_seconds"],
        },
        "recognition_cookie": {
            "name": settings.RECOGNITION_COOKIE_NAME,
            "max_age": lifetimes["recognition_seconds"],
            "months": lifetimes["recognition_months"],
        },
        "consent_version": CONSENT_WORDING_VERSION,
        "strings": {k: str(v) for k, v in WIDGET_STRINGS.items()},
    }
