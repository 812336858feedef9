"""Admin: the site's shop connection, read-only (it is made by `manage.py shop_connect`,
which checks it; the credentials are variable names, their values never leave the server's
environment). Shows the last sync, its counts and figures, and the last error."""

from django.contrib import admin
from django.http import HttpRequest

from chatwidget.shop.models.connections import Connection
from chatwidget.sites.access import queryset_for_staff


@admin.register(Connection)
class ConnectionAdmin(admin.ModelAdmin):
    list_display = (
        "site",
        "platform",
        "base_url",
        "sync_status",
        "last_sync_at",
        "product_count",
        "page_count",
    )
    list_filter = ("platform", "sync_status")
    fields = (
        "site",
        "platform",
        "base_url",
        "token_env",
        "key_env",
        "secret_env",
        "enabled",
        "sync_status",
        "last_sync_at",
        "product_count",
        "page_count",
        "last_summary",
        "last_error",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest):
        return queryset_for_staff(super().get_queryset(request), request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
