from django.urls import path

from chatwidget.widget.consumers import ChatConsumer

websocket_urlpatterns = [path("ws/chat/<str:site_key>/", ChatConsumer.as_asgi())]
