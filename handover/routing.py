from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from handover.consumers import StaffCaseConsumer, StaffConsumer

# Session auth comes from AuthMiddlewareStack in asgi.py; the Origin must be one of
# ALLOWED_HOSTS (the admin's own host), so another site's page cannot open these sockets
# with a staff member's cookie.
websocket_urlpatterns = [
    path("ws/staff/", AllowedHostsOriginValidator(StaffConsumer.as_asgi())),
    path("ws/staff/case/<int:case_id>/", AllowedHostsOriginValidator(StaffCaseConsumer.as_asgi())),
]
