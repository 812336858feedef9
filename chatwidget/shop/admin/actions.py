"""Admin for shop actions: the Owner configures actions and limits per site; staff read the
calls (ids, outcome, latency, size; the call itself is a `tool` turn on the case page), of
the sites they may see (chatwidget.sites.access). Saving clears the site's cached tool
definitions, so the next answer sees the change."""

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from chatwidget.shop.actions.tools import site_actions_forget
from chatwidget.shop.actions.trial import action_try
from chatwidget.shop.admin.action_form import ActionForm
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
    form = ActionForm
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
    readonly_fields = ("try_it",)
    fieldsets = (
        (None, {"fields": ("site", "name", "enabled", "description", "try_it")}),
        (_("Arguments"), {"fields": ("parameters", "visitor_args")}),
        (
            _("Customer protection"),
            {"fields": ("customer_data", "factors", "answer_fields")},
        ),
        (_("Request"), {"fields": ("method", "url_template", "headers", "timeout_seconds")}),
    )

    @admin.display(description=_("try it"))
    def try_it(self, obj: Action) -> str:
        if not obj.pk:
            return str(_("Save the action first."))
        return format_html(
            '<a class="button" href="{}">{}</a>',
            reverse("admin:shop_action_try", args=[obj.pk]),
            _("Try it with your own values"),
        )

    def get_urls(self):
        view = self.admin_site.admin_view(self.try_view)
        return [path("<int:object_id>/try/", view, name="shop_action_try"), *super().get_urls()]

    def try_view(self, request, object_id: int):
        """One request with values the Owner types: what was sent (secrets as dots) and
        what the assistant would get back."""
        action = get_object_or_404(Action, pk=object_id)
        if not self.has_change_permission(request, action):
            raise PermissionDenied
        form = trial_form(action)(request.POST or None)
        trial = None
        if request.method == "POST" and form.is_valid():
            arguments = {k: v for k, v in form.cleaned_data.items() if v not in ("", None)}
            trial = action_try(action=action, arguments=arguments)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Try %(name)s") % {"name": action.name},
            "action": action,
            "form": form,
            "trial": trial,
        }
        return TemplateResponse(request, "admin/shop/action_try.html", context)


def trial_form(action: Action) -> type[forms.Form]:
    """A field per argument of the action's schema (its description as help)."""
    schema = action.parameters or {}
    required = set(schema.get("required") or [])
    fields = {
        name: forms.CharField(
            label=name,
            required=name in required,
            help_text=str(spec.get("description", "")) if isinstance(spec, dict) else "",
        )
        for name, spec in (schema.get("properties") or {}).items()
    }
    return type("ActionTrialForm", (forms.Form,), fields)


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
