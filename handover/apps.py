from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HandoverConfig(AppConfig):
    name = "handover"
    verbose_name = _("Handover to staff")
    default_auto_field = "django.db.models.BigAutoField"
