"""Admin of retention policies (owner-only changes, every change logged) and the audit log."""

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from chatwidget.platform.times import site_time
from memory.models import AuditEvent, RetentionPolicy
from memory.retention import POLICY_FIELDS, retention_policies_ensure, retention_policy_update

# --- retention policy (owner-only changes, every change logged) ---------------------------------


@admin.register(RetentionPolicy)
class RetentionPolicyAdmin(admin.ModelAdmin):
    """Changing needs `memory.change_retentionpolicy` (the Owner group); with only the view
    permission a staff user sees the periods read-only, without it not at all."""

    list_display = ("site", *POLICY_FIELDS, "updated_at", "updated_by")
    fields = ("site", *POLICY_FIELDS, "updated_at", "updated_by")
    readonly_fields = ("site", "updated_at", "updated_by")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # every site has its row: made on the list page when missing

    def changelist_view(self, request: HttpRequest, extra_context=None):
        retention_policies_ensure()
        return super().changelist_view(request, extra_context)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: RetentionPolicy, form, change: bool) -> None:
        saved = retention_policy_update(
            site_id=obj.site_id,
            actor=request.user,
            values={field: form.cleaned_data[field] for field in POLICY_FIELDS},
        )
        obj.updated_at, obj.updated_by = saved.updated_at, saved.updated_by


# --- the audit log (read-only, owners only) -------------------------------------------------------


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Visible with `memory.view_auditevent` (the Owner group); nobody edits or deletes it:
    entries go when the audit period of the retention policy is over."""

    list_display = ("when", "action", "actor_label", "site", "conversation_ref", "target", "reason")
    list_filter = ("action", "site")
    list_select_related = ("site",)
    search_fields = ("actor_label", "target", "reason")
    date_hierarchy = "at"
    readonly_fields = (
        "at",
        "action",
        "actor",
        "actor_label",
        "site",
        "conversation_ref",
        "target",
        "reason",
        "details",
    )
    fields = readonly_fields

    @admin.display(description=_("when"), ordering="at")
    def when(self, obj: AuditEvent) -> str:
        """In the event's site's zone (the server's when it has none), the zone named."""
        return site_time(obj.at, time_zone=obj.site.time_zone if obj.site_id else None)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
