"""Public views of handover (issues 18 and 25). Thin: parse, call one service, answer."""

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from chatwidget.platform.languages import language_from_request
from handover.services.transcript_email import transcript_email_confirm


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
