"""Which languages the product speaks, to whom, and the visitor's language for a page we serve.

Two sets (ARCHITECTURE.md, "Languages"):

- `VISITOR_LANGUAGES`: what a shop's visitor reads (the widget, its notices, the privacy
  page, the e-mails, the demo's lines). Each has a catalogue in `chatwidget/locale/`; for
  every language but German it holds only the visitor-facing messages (`chatwidget.i18n`).
- `STAFF_LANGUAGES`: what admin and the staff inbox speak, `settings.LANGUAGES`, so Django's
  LocaleMiddleware never activates another one for a request: a staff user whose browser
  prefers French gets English (or German), never a half-translated admin. Pages for
  visitors choose their language themselves (`language_from_request`) and render inside
  `translation.override`.
"""

from django.http import HttpRequest

VISITOR_LANGUAGES = ("en", "de", "fr", "es", "it", "nl", "pl")
STAFF_LANGUAGES = ("en", "de")
DEFAULT_LANGUAGE = "en"

#: English names, for the model's instruction (it reads English rules best).
LANGUAGE_NAMES = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
    "nl": "Dutch",
    "pl": "Polish",
}


def language_normalise(value: object) -> str | None:
    """The visitor language of a language tag, or None: "fr-CA" -> "fr", "DE" -> "de",
    "pt" -> None. Only the primary subtag counts (a region or script never picks another
    catalogue)."""
    if not isinstance(value, str):
        return None
    primary = value.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in VISITOR_LANGUAGES else None


def staff_language(language: str) -> str:
    """`language` if staff read it, else English: text written for staff (and the model) in
    the site's language when that is a visitor-only language."""
    return language if language in STAFF_LANGUAGES else DEFAULT_LANGUAGE


def language_from_request(request: HttpRequest, default: str) -> str:
    """?lang= first, then the browser's Accept-Language in order of preference (q values),
    then `default`. Visitor languages only."""
    asked = language_normalise(request.GET.get("lang"))
    if asked:
        return asked
    ranked = []
    for position, part in enumerate(request.headers.get("Accept-Language", "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        try:
            quality = float(params.strip()[2:]) if params.strip().startswith("q=") else 1.0
        except ValueError:
            quality = 0.0
        ranked.append((-quality, position, tag))
    for negative_quality, _position, tag in sorted(ranked):
        lang = language_normalise(tag)
        if negative_quality < 0 and lang:
            return lang
    return default
