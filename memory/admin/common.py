"""Shared by memory's admin modules: permission names and HTML fragments from templates."""

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

EXPORT_PERMISSION = "memory.export_conversation"
ERASE_PERMISSION = "memory.erase_conversation"
REVEAL_PERMISSION = "handover.reveal_plaintext"
APPROVE_PERMISSION = "memory.approve_profilefact"


def fragment(name: str, **context) -> SafeString:
    """A piece of an admin page rendered from templates/admin/memory/fragments/<name>.html
    (the templates escape every value)."""
    return render_to_string(f"admin/memory/fragments/{name}.html", context)
