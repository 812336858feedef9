from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.cache import add_never_cache_headers
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from chatwidget.sites.forms import SiteForm
from chatwidget.sites.identity import identity_secret_get, identity_secret_hint
from chatwidget.sites.models import AwayMessage, ClosedDay, Site
from chatwidget.sites.services import embed_snippet
from chatwidget.sites.theme import DEFAULT_PRIMARY, contrast_ratio

admin.site.site_header = _("Shop chat assistant")
admin.site.site_title = _("Shop chat assistant")
admin.site.index_title = _("Conversations, handovers and settings")


class ClosedDayInline(admin.TabularInline):
    """Days the team is away besides public holidays (chatwidget.sites.availability)."""

    model = ClosedDay
    extra = 0
    fields = ("first_day", "last_day", "reason")


class AwayMessageInline(admin.TabularInline):
    """What a visitor reads while the team is away, per language (handover notices)."""

    model = AwayMessage
    extra = 0
    fields = ("language", "text")


@admin.register(Site)
class SiteAdmin(admin.ModelAdmin):
    form = SiteForm
    inlines = (ClosedDayInline, AwayMessageInline)
    list_display = ("name", "key", "default_language", "context_budget", "created_at")
    search_fields = ("name", "key")
    readonly_fields = ("key", "embed_code", "created_at", "theme_preview", "identity_secret_hint")
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
                    "starter_choices",
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
                    "upload_max_bytes",
                    "upload_max_count",
                    "model_accepts_images",
                )
            },
        ),
        (
            _("Handover"),
            {
                "fields": (
                    "staff_hours",
                    "time_zone",
                    "holiday_country",
                    "holiday_subdivision",
                )
            },
        ),
        (
            _("Inactivity"),
            {
                "fields": (
                    "inactivity_followup_minutes",
                    "inactivity_resolve_minutes",
                    "inactivity_staff_cases",
                )
            },
        ),
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
        (_("Signed-in customers"), {"fields": ("identity_secret_hint",)}),
    )

    # --- the identity secret: shown once, after it is made or rotated ------------------------

    @admin.display(description=_("identity secret"))
    def identity_secret_hint(self, obj: Site) -> str:
        if not obj.pk:
            return str(_("Made when the site is saved and shown once."))
        return render_to_string(
            "admin/sites/identity_secret_field.html",
            {
                "hint": identity_secret_hint(obj.identity_secret),
                "rotate_url": reverse("admin:sites_site_identity_secret", args=[obj.pk]),
            },
        )

    def get_urls(self):
        return [
            path(
                "<int:site_id>/identity-secret/",
                self.admin_site.admin_view(require_POST(self.identity_secret_view)),
                name="sites_site_identity_secret",
            ),
            *super().get_urls(),
        ]

    def identity_secret_view(self, request: HttpRequest, site_id: int) -> HttpResponse:
        """Rotate (or make) the site's identity secret and show it this once."""
        site = get_object_or_404(Site, pk=site_id)
        if not self.has_change_permission(request, site):
            raise PermissionDenied
        return self._secret_shown_once(request, site, rotate=True)

    def response_add(self, request: HttpRequest, obj: Site, post_url_continue=None):
        return self._secret_shown_once(request, obj, rotate=False)

    def _secret_shown_once(self, request: HttpRequest, site: Site, *, rotate: bool):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Identity secret"),
            "site": site,
            "secret": identity_secret_get(site_id=site.pk, rotate=rotate),
        }
        response = TemplateResponse(request, "admin/sites/identity_secret_shown_once.html", context)
        add_never_cache_headers(response)  # not kept by a browser's or a proxy's cache
        return response

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
