from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = _("Conversation memory")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from memory import checks  # noqa: F401
