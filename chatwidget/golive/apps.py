from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GoliveConfig(AppConfig):
    name = "chatwidget.golive"
    label = "golive"
    verbose_name = _("Go-live check")
    default_auto_field = "django.db.models.BigAutoField"
