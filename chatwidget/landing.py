"""The service's front page (`/`): what this server is, and where to go from here.

People reach it from admin's "View site" link or by opening the service's address; without it
they met Django's 404 page (with DEBUG on, a list of URL patterns). Visitors of a shop never
come here: the widget lives on the shop's pages.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET


@require_GET
def landing(request: HttpRequest) -> HttpResponse:
    """In English or German: `?lang=` first, else the browser's languages (LocaleMiddleware)."""
    lang = (request.GET.get("lang") or "").lower()[:2]
    if lang not in ("en", "de"):
        lang = translation.get_language_from_request(request)[:2]
        lang = lang if lang in ("en", "de") else settings.LANGUAGE_CODE
    with translation.override(lang):
        response = render(request, "landing.html", {"LANG": lang, "docs_url": settings.DOCS_URL})
    response["Vary"] = "Accept-Language, Cookie"
    response["Content-Language"] = lang
    return response
