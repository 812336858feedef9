"""Public views of handover (issue 18). Thin: parse, call one service, answer."""

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from handover.services.continuation import continuation_shop_url


@require_GET
@never_cache
def continuation(request: HttpRequest, code: str) -> HttpResponse:
    """The e-mail's link: to the shop's page, where the widget exchanges the code (in the
    URL fragment, which browsers never send to a server) for the conversation. The code is
    only checked here, not used up: a mail scanner that follows links does not spend it."""
    target = continuation_shop_url(code=code)
    if target is None:
        return render(request, "handover/continuation_expired.html", status=410)
    response = HttpResponseRedirect(target)
    response["Referrer-Policy"] = "no-referrer"
    return response
