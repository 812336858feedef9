"""Webhooks in admin: the hooks of each site (owners) and the delivery log (read-only)."""

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext_lazy as _

from chatwidget.integrations.emit import webhook_hint_clear
from chatwidget.integrations.models import Webhook, WebhookDelivery, WebhookEvent
from chatwidget.integrations.signing import webhook_secret_hint, webhook_secret_rotate


def _https_url(field, **kwargs):
    """Model fields as form fields; a URL typed without a scheme is https (Django 6's default,
    said today so that Django 5.2 does not warn)."""
    if field.name == "url":
        kwargs["assume_scheme"] = "https"
    return field.formfield(**kwargs)


class WebhookForm(forms.ModelForm):
    events = forms.MultipleChoiceField(
        label=_("events"),
        choices=WebhookEvent.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only the events ticked here are sent."),
    )

    class Meta:
        model = Webhook
        # the secret is not a form field: generated, shown once, rotated by the action
        fields = ["site", "url", "events", "include_text", "active"]
        formfield_callback = _https_url


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    """Hooks per site. The signing secret is shown once (after adding the hook or rotating
    its secret, chatwidget.integrations.signing), afterwards only its last characters."""

    form = WebhookForm

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "url":  # the admin builds its own fields: https here too
            kwargs["assume_scheme"] = "https"
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    list_display = ("url", "site", "event_list", "include_text", "active", "created_at")
    list_filter = ("site", "active")
    list_select_related = ("site",)
    readonly_fields = ("secret_hint",)
    actions = ["secret_rotate"]

    @admin.display(description=_("signing secret"))
    def secret_hint(self, obj: Webhook | None) -> str:
        if obj is None or not obj.pk:
            return str(_("Made when the hook is saved and shown once."))
        return webhook_secret_hint(obj.secret)

    @admin.action(description=_("Rotate the signing secret (shown once)"), permissions=["change"])
    def secret_rotate(self, request: HttpRequest, queryset) -> HttpResponse:
        hooks = [webhook_secret_rotate(hook_id=pk) for pk in queryset.values_list("pk", flat=True)]
        return self._secrets_shown_once(request, hooks)

    def response_add(self, request: HttpRequest, obj: Webhook, post_url_continue=None):
        return self._secrets_shown_once(request, [obj])

    def _secrets_shown_once(self, request: HttpRequest, hooks: list[Webhook]) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Signing secret"),
            "hooks": hooks,
        }
        response = TemplateResponse(
            request, "admin/integrations/webhook/secret_shown_once.html", context
        )
        add_never_cache_headers(response)  # not kept by a browser's or a proxy's cache
        return response

    @admin.display(description=_("events"))
    def event_list(self, obj: Webhook) -> str:
        return ", ".join(obj.events or [])

    def save_model(self, request: HttpRequest, obj: Webhook, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        webhook_hint_clear(site_id=obj.site_id)
        if change and "site" in form.changed_data and form.initial.get("site"):
            webhook_hint_clear(site_id=form.initial["site"])

    def delete_model(self, request: HttpRequest, obj: Webhook) -> None:
        super().delete_model(request, obj)
        webhook_hint_clear(site_id=obj.site_id)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        site_ids = set(queryset.values_list("site_id", flat=True))
        super().delete_queryset(request, queryset)
        for site_id in site_ids:
            webhook_hint_clear(site_id=site_id)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    """The delivery log: what was sent where, how often, and the last answer."""

    list_display = (
        "created_at",
        "event",
        "hook",
        "status",
        "attempts",
        "response_code",
        "error",
        "last_attempt_at",
    )
    list_filter = ("status", "event", "hook__site")
    list_select_related = ("hook",)
    readonly_fields = (
        "id",
        "hook",
        "event",
        "status",
        "attempts",
        "response_code",
        "error",
        "created_at",
        "last_attempt_at",
        "body",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
