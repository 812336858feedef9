from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.urls import path

from handover.consumers import StaffCaseConsumer, StaffConsumer


def staff_origin_allowed(scope) -> bool:
    """The staff sockets' Origin must be the admin's own origin: the same scheme (wss for
    https), host and port as the request (the Host header, an ALLOWED_HOSTS entry), or one of
    CSRF_TRUSTED_ORIGINS. Channels' AllowedHostsOriginValidator compared the host name only,
    so a page on another port or over http of the same host passed."""
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin", b"").decode("latin-1").rstrip("/").lower()
    host = headers.get(b"host", b"").decode("latin-1").lower()
    if not origin or not host:
        return False
    if origin in {o.rstrip("/").lower() for o in settings.CSRF_TRUSTED_ORIGINS}:
        return True
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    parts = urlsplit(origin)
    return parts.scheme == scheme and parts.netloc == host


class StaffOriginValidator:
    """Refuses the websocket handshake (403) unless `staff_origin_allowed`."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not staff_origin_allowed(scope):
            await send({"type": "websocket.close", "code": 4403})
            return None
        return await self.application(scope, receive, send)


# Session auth comes from AuthMiddlewareStack in asgi.py; the Origin must be the admin's own
# origin, so another site's page (or another port of the same host) cannot open these
# sockets with a staff member's cookie.
websocket_urlpatterns = [
    path("ws/staff/", StaffOriginValidator(StaffConsumer.as_asgi())),
    path("ws/staff/case/<int:case_id>/", StaffOriginValidator(StaffCaseConsumer.as_asgi())),
]
