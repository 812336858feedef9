"""ASGI entry point: HTTP (Django) and websockets (Channels), served by Daphne."""

import os

import django
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.local")
django.setup(set_prefix=False)

from chatwidget.observability import traces_setup  # noqa: E402

traces_setup()  # when OTEL_EXPORTER_OTLP_ENDPOINT is set; before the handler loads middleware
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from chatwidget import daphne_fix  # noqa: E402
from chatwidget.platform.client_address import TrustedProxyMiddleware  # noqa: E402
from chatwidget.routing import websocket_urlpatterns  # noqa: E402

daphne_fix.apply()

# Load the tokenizer now, not on the first visitor's turn (about 2 s of CPU on a small box).
from memory.tokens import check_encoding_available  # noqa: E402

check_encoding_available()

try:
    from handover.routing import websocket_urlpatterns as staff_patterns
except ImportError:  # pragma: no cover
    staff_patterns = []

# The widget's socket checks the Origin against each Site's allowed origins in the consumer
# (the list is per site); the staff socket sits behind the session auth of admin.
# X-Forwarded-For/-Proto count only from TRUSTED_PROXIES (Daphne runs without --proxy-headers).
application = TrustedProxyMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AuthMiddlewareStack(URLRouter(websocket_urlpatterns + staff_patterns)),
        }
    )
)
