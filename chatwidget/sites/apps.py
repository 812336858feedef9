from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SitesConfig(AppConfig):
    name = "chatwidget.sites"
    label = "sites"
    verbose_name = _("Sites")
    default_auto_field = "django.db.models.BigAutoField"
