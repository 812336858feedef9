from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SitesConfig(AppConfig):
    name = "chatwidget.sites"
    label = "sites"
    verbose_name = _("Sites")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the cached site info's invalidation (receivers of Site's saves) registers on import
        from chatwidget.sites import selectors  # noqa: F401, PLC0415 - needs the app registry
