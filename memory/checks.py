from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured

from memory.tokens import check_encoding_available


@register()
def tiktoken_encoding_check(app_configs, **kwargs):
    try:
        check_encoding_available()
    except ImproperlyConfigured as exc:
        return [Error(str(exc), id="memory.E001")]
    return []
