import os

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class ChatwidgetConfig(AppConfig):
    name = "chatwidget"
    verbose_name = _("Chat widget")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        os.environ.setdefault("TIKTOKEN_CACHE_DIR", settings.TIKTOKEN_CACHE_DIR)
