"""Admin for shop actions: the Owner configures actions and limits per site; staff read the
calls (ids, outcome, latency, size; the call itself is a `tool` turn on the case page), of
the sites they may see (chatwidget.sites.access). Saving clears the site's cached tool
definitions, so the next answer sees the change."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from chatwidget.shop.actions.tools import site_actions_forget
from chatwidget.shop.models.actions import Action, ActionCall, ActionPolicy
from chatwidget.sites.access import queryset_for_staff


class _ForgetOnSave:
    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        site_actions_forget(site_id=obj.site_id)

    def delete_model(self, request, obj) -> None:
        super().delete_model(request, obj)
        site_actions_forget(site_id=obj.site_id)


@admin.register(Action)
class ActionAdmin(_ForgetOnSave, admin.ModelAdmin):
    list_display = (
        "name",
        "site",
        "method",
        "url_template",
        "customer_data",
        "timeout_seconds",
        "enabled",
    )
    list_filter = ("site", "enabled", "customer_data")
    search_fields = ("name", "description")
    fieldsets = (
        (None, {"fields": ("site", "name", "enabled", "description")}),
        (_("Arguments"), {"fields": ("parameters", "visitor_args")}),
        (
            _("Customer protection"),
            {"fields": ("customer_data", "factors", "answer_fields")},
        ),
        (_("Request"), {"fields": ("method", "url_template", "headers", "timeout_seconds")}),
    )


@admin.register(ActionPolicy)
class ActionPolicyAdmin(_ForgetOnSave, admin.ModelAdmin):
    list_display = ("site", "result_max_tokens", "calls_per_hour")


@admin.register(ActionCall)
class ActionCallAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "name",
        "conversation",
        "request_seq",
        "outcome",
        "status_code",
        "latency_ms",
        "tokens",
        "cut",
    )
    list_filter = ("outcome", "name")
    list_select_related = ("conversation",)

    def get_queryset(self, request):
        # a Staff user limited to sites sees their sites' calls only
        return queryset_for_staff(
            super().get_queryset(request), request.user, site_field="conversation__site_id"
        )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
