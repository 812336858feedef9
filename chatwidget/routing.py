from django.urls import path

from chatwidget.consumers import ChatConsumer

websocket_urlpatterns = [path("ws/chat/<str:site_key>/", ChatConsumer.as_asgi())]
