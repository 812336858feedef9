from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = _("Conversation memory")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the system checks register on import; Django's documented place for that is
        # ready(), once the app registry is ready
        from memory import checks  # noqa: F401, PLC0415 - needs the app registry ready
