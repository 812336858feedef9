"""HTTP views: widget config and export, privacy page. Thin: parse, call, render."""

import logging

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from chatwidget.assistant.uploads import UploadLimits, visitor_upload_receive
from chatwidget.platform.frames import json_load_safe
from chatwidget.platform.languages import language_from_request, language_normalise
from chatwidget.sites.models import Site
from chatwidget.sites.selectors import origin_allowed, site_info_by_key
from chatwidget.widget.config import site_cookie_name, widget_config_for
from handover.services.continuation import continuation_exchange
from handover.services.transcript_email import TranscriptOutcome, transcript_email_request
from memory.export import conversation_export
from memory.privacy import storage_places
from memory.selectors import session_get

log = logging.getLogger(__name__)


def _public_base(request: HttpRequest) -> str:
    return settings.PUBLIC_URL.rstrip("/") or f"{request.scheme}://{request.get_host()}"


def _cors(response: HttpResponse, request: HttpRequest, info) -> HttpResponse:
    origin = request.headers.get("Origin")
    if info is not None and origin_allowed(info=info, origin=origin):
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response["Access-Control-Allow-Headers"] = "Content-Type"
        response["Access-Control-Max-Age"] = "600"
        response["Access-Control-Expose-Headers"] = "Content-Disposition"
    response["Vary"] = "Origin"
    return response


def _language(request: HttpRequest, default: str) -> str:
    """The widget asks with `?lang=` (its choice: setLanguage, the page, the browser)."""
    return language_normalise(request.GET.get("lang")) or default


def _widget_site(request: HttpRequest, site_key: str):
    """What every widget POST checks first: a known site, the CORS preflight, an allowed
    origin. Returns the site info or the response that ends the request."""
    info = site_info_by_key(key=site_key)
    if info is None:
        return JsonResponse({"error": "unknown_site"}, status=404)
    if request.method == "OPTIONS":
        return _cors(HttpResponse(status=204), request, info)
    if not origin_allowed(info=info, origin=request.headers.get("Origin")):
        return JsonResponse({"error": "forbidden_origin"}, status=403)
    return info


def _widget_post(request: HttpRequest, site_key: str) -> tuple | HttpResponse:
    """`_widget_site`, then a JSON body (400, not 500, for any bad JSON). Returns (site
    info, body) or the response that ends the request."""
    info = _widget_site(request, site_key)
    if isinstance(info, HttpResponse):
        return info
    try:
        body = json_load_safe(request.body or b"{}")
    except ValueError:
        return _cors(JsonResponse({"error": "bad_request"}, status=400), request, info)
    return info, body


@require_GET
@cache_control(public=True, max_age=300)
def widget_config(request: HttpRequest, site_key: str) -> HttpResponse:
    info = site_info_by_key(key=site_key)
    if info is None:
        return JsonResponse({"error": "unknown_site"}, status=404)
    origin = request.headers.get("Origin")
    if origin and not origin_allowed(info=info, origin=origin):
        # readable by that page (nothing secret in it), so the widget can hide its launcher
        # and say why in the console instead of a generic CORS error
        response = JsonResponse(
            {
                "error": "origin_not_allowed",
                "origin": origin,
                "message": "Add this origin to the site's allowed origins in admin.",
            },
            status=403,
        )
        response["Access-Control-Allow-Origin"] = origin
        response["Vary"] = "Origin"
        return response
    lang = _language(request, info.language)
    with translation.override(lang):
        data = widget_config_for(info=info, base_url=_public_base(request), lang=lang)
    return _cors(JsonResponse(data, json_dumps_params={"ensure_ascii": False}), request, info)


@csrf_exempt  # no cookies are read; the session token travels in the body, never in a URL
@require_http_methods(["POST", "OPTIONS"])
def widget_export(request: HttpRequest, site_key: str) -> HttpResponse:
    checked = _widget_post(request, site_key)
    if isinstance(checked, HttpResponse):
        return checked
    info, body = checked
    token = body.get("session") if isinstance(body, dict) else None
    fmt = body.get("format", "json") if isinstance(body, dict) else "json"
    access = session_get(site_id=info.id, token=token if isinstance(token, str) else None)
    if access is None:
        return _cors(JsonResponse({"error": "not_found"}, status=404), request, info)
    # a session made by an e-mail continuation link exports masked: the code alone never
    # gives the plaintext (handover.services.continuation)
    content, content_type, filename = conversation_export(
        conversation_id=access.conversation.pk,
        fmt="txt" if fmt == "txt" else "json",
        masked=access.masked,
    )
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return _cors(response, request, info)


@csrf_exempt  # no cookies are read; the one-time code travels in the body
@require_http_methods(["POST", "OPTIONS"])
def widget_continue(request: HttpRequest, site_key: str) -> HttpResponse:
    """E-mail continuation (issues 18, 25): the widget on the shop's page sends the one-time
    code from the e-mail link's fragment in this POST body (never a path or query) and gets
    a linked session of the same conversation (contact details masked); the visitor's other
    sessions keep working."""
    checked = _widget_post(request, site_key)
    if isinstance(checked, HttpResponse):
        return checked
    info, body = checked
    code = body.get("code") if isinstance(body, dict) else None
    current = body.get("session") if isinstance(body, dict) else None
    token = (
        continuation_exchange(
            site_id=info.id, code=code, current=current if isinstance(current, str) else None
        )
        if isinstance(code, str)
        else None
    )
    if token is None:  # invalid, expired or used: the widget starts as usual
        return _cors(JsonResponse({"error": "not_found"}, status=404), request, info)
    response = JsonResponse({"session": token})
    response["Cache-Control"] = "no-store"
    return _cors(response, request, info)


@csrf_exempt  # no cookies are read; the session token travels in the body
@require_http_methods(["POST", "OPTIONS"])
def widget_transcript_email(request: HttpRequest, site_key: str) -> HttpResponse:
    """The visitor asks for the conversation by e-mail: to an address they wrote in it, once
    that address confirmed it (handover.services.transcript_email). 202 with `status`
    `confirm` (a confirmation link is on its way) or `sent`; 409 without an address; 429
    when a cap holds it back."""
    checked = _widget_post(request, site_key)
    if isinstance(checked, HttpResponse):
        return checked
    info, body = checked
    token = body.get("session") if isinstance(body, dict) else None
    access = session_get(site_id=info.id, token=token if isinstance(token, str) else None)
    if access is None:
        return _cors(JsonResponse({"error": "not_found"}, status=404), request, info)
    outcome = transcript_email_request(
        conversation_id=access.conversation.pk,
        linked_session_id=access.linked_session_id,
        base_url=_public_base(request),
    )
    if outcome is TranscriptOutcome.NO_ADDRESS:
        return _cors(JsonResponse({"error": "no_address"}, status=409), request, info)
    if outcome is TranscriptOutcome.LIMITED:
        return _cors(JsonResponse({"error": "limited"}, status=429), request, info)
    return _cors(JsonResponse({"status": outcome.value}, status=202), request, info)


FORM_ROOM = 64 * 1024  # bytes of an upload's body besides the file (fields, boundaries)
# an upload refused, as HTTP: the widget shows its own words for each code (and the server's
# `message` for never_kept, the notice a typed card number gets)
UPLOAD_STATUS = {
    "too_large": 413,
    "bad_type": 415,
    "too_many_pixels": 422,
    "unreadable": 422,
    "never_kept": 422,
    "too_many": 409,
    "rate_limited": 429,
}


@csrf_exempt  # no cookies are read; the session token travels in the body
@require_http_methods(["POST", "OPTIONS"])
def widget_upload(request: HttpRequest, site_key: str) -> HttpResponse:
    """A visitor's photo or file (issue 33), multipart: `session` (the token, as the socket
    has it; none before the first message: the upload starts the conversation and answers
    with its token in `session`), `id` (the client id: a retry is idempotent), `file`, optional `caption`, `lang`,
    `page_url`, `page_title`. 201 with the turn's `seq` and `attachment`; the widget then
    sends `attached` on its socket, which answers the turn (chatwidget.widget.consumers)."""
    info = _widget_site(request, site_key)
    if isinstance(info, HttpResponse):
        return info
    if not info.upload_max_bytes:
        return _cors(JsonResponse({"error": "uploads_off"}, status=403), request, info)
    declared = request.META.get("CONTENT_LENGTH") or ""
    if declared.isdigit() and int(declared) > info.upload_max_bytes + FORM_ROOM:
        return _cors(JsonResponse({"error": "too_large"}, status=413), request, info)
    form, upload = request.POST, request.FILES.get("file")
    token = form.get("session") or None  # none: a photo before the first message starts one
    access = session_get(site_id=info.id, token=token) if token else None
    client_id = form.get("id", "")
    if token and access is None:
        return _cors(JsonResponse({"error": "not_found"}, status=404), request, info)
    if upload is None or not client_id or len(client_id) > 64 or client_id.startswith("~"):
        return _cors(JsonResponse({"error": "bad_request"}, status=400), request, info)
    if (upload.size or 0) > info.upload_max_bytes:  # before reading it
        return _cors(JsonResponse({"error": "too_large"}, status=413), request, info)
    lang = language_normalise(form.get("lang")) or (
        access.conversation.language if access else info.language
    )
    result = visitor_upload_receive(
        site_id=info.id,
        conversation_id=access.conversation.pk if access else None,
        address=request.META.get("REMOTE_ADDR") or "",  # TrustedProxyMiddleware's client
        client_id=client_id,
        data=upload.read(),
        name=upload.name or "",
        caption=form.get("caption", "")[: info.max_length],
        language=lang,
        limits=UploadLimits(max_bytes=info.upload_max_bytes, max_count=info.upload_max_count),
        page_url=form.get("page_url") or None,
        page_title=form.get("page_title", "")[:300],
    )
    if result.outcome is None:
        body = {"error": result.refused}
        if result.notice:
            body["message"] = result.notice
        status = UPLOAD_STATUS.get(result.refused, 422)
        return _cors(JsonResponse(body, status=status), request, info)
    response = JsonResponse(
        {
            "seq": result.seq,
            "session": result.session,  # set when this upload started the conversation
            "text": result.text,
            "attachment": result.attachment,
            "outcome": result.outcome.value,
        },
        status=201,
    )
    response["Cache-Control"] = "no-store"
    return _cors(response, request, info)


def privacy(request: HttpRequest, site_key: str | None = None) -> HttpResponse:
    site = get_object_or_404(Site, key=site_key) if site_key else None
    lang = language_from_request(request, site.default_language if site else "en")
    with translation.override(lang):
        places = storage_places(site=site)
        if site:  # the cookies' real names on this site's pages
            for place in places:
                if place["name"] in (
                    settings.SESSION_COOKIE_NAME_WIDGET,
                    settings.RECOGNITION_COOKIE_NAME,
                ):
                    place["name"] = site_cookie_name(base=place["name"], site_key=site.key)
        response = render(request, "privacy.html", {"site": site, "places": places, "LANG": lang})
    response["Vary"] = "Accept-Language"
    response["Content-Language"] = lang
    return response
