from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ShopConfig(AppConfig):
    name = "chatwidget.shop"
    label = "shop"
    verbose_name = _("Shop knowledge and actions")
    default_auto_field = "django.db.models.BigAutoField"
