"""Public views of handover (issues 18 and 25). Thin: parse, call one service, answer."""

import base64
import binascii
import hmac
import logging

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chatwidget.platform.languages import language_from_request
from handover.inbound.receive import inbound_mail_receive
from handover.services.transcript_email import transcript_email_confirm

log = logging.getLogger(__name__)


def _private(response: HttpResponse) -> HttpResponse:
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@never_cache
def continuation_old_link(request: HttpRequest, code: str) -> HttpResponse:
    """The link form of e-mails sent before issue 25 (`/continue/<code>/`): the code was in
    the path, so it reached access logs. Such a link is never exchanged nor forwarded (no
    redirect carries it on); the page says to open the chat. 200, not 410, so Django's
    request log does not write the path (with the code) once more."""
    lang = language_from_request(request, "en")
    with translation.override(lang):
        response = render(request, "handover/continuation_expired.html", {"LANG": lang})
    return _private(response)


@csrf_exempt  # no cookie is read or set; the one-time token in the body is the credential
@require_http_methods(["GET", "POST"])
@never_cache
def transcript_confirm(request: HttpRequest) -> HttpResponse:
    """The transcript e-mail's confirmation link (issue 25). Its token is in the URL
    fragment, which the browser never sends: GET shows a button (a mail scanner that opens
    links confirms nothing), the page's script moves the token into the form, and POST
    confirms and queues the transcript."""
    lang = language_from_request(request, "en")
    state = "ask"
    if request.method == "POST":
        confirmed = transcript_email_confirm(token=request.POST.get("token", ""))
        state = "sent" if confirmed else "expired"
        lang = confirmed or lang
    with translation.override(lang):
        response = render(
            request,
            "handover/transcript_confirm.html",
            {"state": state, "LANG": lang},
            status=410 if state == "expired" else 200,
        )
    return _private(response)


SERVICE_WORKER = "handover/sw.js"


def _service_worker_source() -> bytes:
    found = finders.find(SERVICE_WORKER)
    if found:
        with open(found, "rb") as fh:
            return fh.read()
    if staticfiles_storage.exists(SERVICE_WORKER):
        with staticfiles_storage.open(SERVICE_WORKER) as fh:
            return fh.read()
    raise Http404


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The staff inbox's service worker (issue 32: it shows Web Push alerts), the file
    static/handover/sw.js served under /admin/ so that it may control the admin pages
    (`Service-Worker-Allowed`) and keeps one URL across deploys (static names carry a hash).
    Public like any static file: it holds no data, and the browser fetches updates without
    asking the user to sign in again."""
    response = HttpResponse(_service_worker_source(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/admin/"
    response["Cache-Control"] = "no-cache"
    return response


def _inbound_authorised(header: str, secret: str) -> bool:
    """`Bearer <secret>`, or HTTP Basic with the secret as the password (providers that
    take credentials in the URL), compared in constant time."""
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() == "basic":
        try:
            value = base64.b64decode(value, validate=True).decode().partition(":")[2]
        except (binascii.Error, UnicodeDecodeError):
            return False
    elif scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(value.strip().encode(), secret.encode())


@csrf_exempt  # a mail provider posts here; the shared secret is the credential, no cookie
@require_POST
@never_cache
def inbound_email(request: HttpRequest) -> HttpResponse:
    """A visitor's reply to a continuation e-mail, forwarded by the owner's mail provider as
    the raw RFC 822 message in the body (issue 32). Off (404) while INBOUND_EMAIL_SECRET is
    unset. 202 with the outcome once read, stored or refused (a refusal is not an error to
    retry); 503 when the database is away, so the provider tries again."""
    secret = settings.INBOUND_EMAIL_SECRET
    if not secret:
        raise Http404
    if not _inbound_authorised(request.headers.get("Authorization", ""), secret):
        response = JsonResponse({"error": "unauthorised"}, status=401)
        response["WWW-Authenticate"] = 'Bearer realm="inbound-email"'
        return response
    limit = settings.INBOUND_EMAIL_MAX_BYTES
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    raw = b"" if declared > limit else request.read(limit + 1)
    if declared > limit or len(raw) > limit:
        log.info("inbound e-mail refused", extra={"reason": "too_large"})
        return JsonResponse({"error": "too_large"}, status=413)
    if not raw.strip():
        return JsonResponse({"error": "empty"}, status=400)
    try:
        outcome = inbound_mail_receive(raw=raw)
    except DatabaseError as exc:
        log.warning("inbound e-mail not stored", extra={"error": type(exc).__name__})
        return JsonResponse({"error": "unavailable"}, status=503)
    return JsonResponse({"result": outcome.value, "stored": outcome.stored}, status=202)
