from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HandoverConfig(AppConfig):
    name = "handover"
    verbose_name = _("Handover to staff")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # connects handover's receivers of memory's signals (Django's documented place)
        from handover import receivers  # noqa: F401, PLC0415 - needs the app registry ready
