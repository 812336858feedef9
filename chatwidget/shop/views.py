"""The shop platforms' product webhooks: thin, the signature check and the refresh are
chatwidget.shop.connect.webhooks'."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from chatwidget.shop.connect.webhooks import webhook_receive

MAX_BODY_BYTES = 1024 * 1024


@csrf_exempt
@require_POST
def shop_webhook(request: HttpRequest, key: str) -> HttpResponse:
    if int(request.headers.get("Content-Length") or 0) > MAX_BODY_BYTES:
        return HttpResponse(status=413)
    status = webhook_receive(key=key, body=request.body, headers=request.headers)
    return HttpResponse(status=status)
