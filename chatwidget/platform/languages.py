"""The visitor's language for a page we serve (privacy page, confirmation pages)."""

from django.http import HttpRequest

OFFERED = ("en", "de")  # the languages of the widget (chatwidget/widget/strings.py)


def language_from_request(request: HttpRequest, default: str) -> str:
    """?lang= first, then the browser's Accept-Language in order of preference (q values),
    then `default`."""
    asked = (request.GET.get("lang") or "").lower()[:2]
    if asked in OFFERED:
        return asked
    ranked = []
    for position, part in enumerate(request.headers.get("Accept-Language", "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        try:
            quality = float(params.strip()[2:]) if params.strip().startswith("q=") else 1.0
        except ValueError:
            quality = 0.0
        ranked.append((-quality, position, tag.strip().lower()[:2]))
    for negative_quality, _position, lang in sorted(ranked):
        if negative_quality < 0 and lang in OFFERED:
            return lang
    return default
