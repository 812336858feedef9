from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WidgetConfig(AppConfig):
    name = "chatwidget.widget"
    label = "widget"
    verbose_name = _("Widget")
    default_auto_field = "django.db.models.BigAutoField"
