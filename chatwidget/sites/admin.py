from django.contrib import admin
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from chatwidget.sites.forms import SiteForm
from chatwidget.sites.models import Site
from chatwidget.sites.services import embed_snippet
from chatwidget.sites.theme import DEFAULT_PRIMARY, contrast_ratio

admin.site.site_header = _("Shop chat assistant")
admin.site.site_title = _("Shop chat assistant")
admin.site.index_title = _("Conversations, handovers and settings")


@admin.register(Site)
class SiteAdmin(admin.ModelAdmin):
    form = SiteForm
    list_display = ("name", "key", "default_language", "context_budget", "created_at")
    search_fields = ("name", "key")
    readonly_fields = ("key", "embed_code", "created_at", "theme_preview")
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "name",
                    "key",
                    "embed_code",
                    "allowed_origins",
                    "default_language",
                    "greeting",
                    "ai_disclosure",
                )
            },
        ),
        (_("Assistant"), {"fields": ("system_rules", "pinned_conventions", "model_name")}),
        (
            _("Memory and limits"),
            {
                "fields": (
                    "context_budget",
                    "answer_reserve",
                    "knowledge_share",
                    "verbatim_window_turns",
                    "verbatim_min_exchanges",
                    "condense_after_turns",
                    "message_max_length",
                    "page_query_params",
                )
            },
        ),
        (_("Handover"), {"fields": ("staff_hours", "time_zone")}),
        (
            _("Widget appearance"),
            {
                "fields": (
                    "theme_primary",
                    "theme_position",
                    "theme_scheme",
                    "launcher_label",
                    "theme_preview",
                )
            },
        ),
        (_("Privacy page"), {"fields": ("operator_name", "operator_contact")}),
    )

    @admin.display(description=_("Preview"))
    def theme_preview(self, obj: Site) -> str:
        primary = obj.theme_primary if obj.pk else DEFAULT_PRIMARY
        return render_to_string(
            "admin/sites/theme_preview.html",
            {
                "primary": primary,
                "label": obj.launcher_label if obj.pk else "",
                "position": obj.get_theme_position_display() if obj.pk else "",
                "contrast": f"{contrast_ratio(primary, '#ffffff'):.2f}",
            },
        )

    @admin.display(description=_("Script tag to paste"))
    def embed_code(self, obj: Site) -> str:
        if not obj.pk:
            return "-"
        request = getattr(self, "_request", None)
        base = request.build_absolute_uri("/") if request else "/"
        return format_html("<code>{}</code>", embed_snippet(site=obj, base_url=base))

    def get_form(self, request, obj=None, **kwargs):
        self._request = request
        return super().get_form(request, obj, **kwargs)
