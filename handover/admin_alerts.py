"""The Alerts page (issue 32): each staff user's own alert settings and push devices.

One page per user, for that user only (Handover -> Alert settings, linked from the inbox):
the events, sites and ways of handover.models.AlertPreference, and the browsers that get
Web Push. The browser subscribes with static/handover/alerts.js and posts its subscription
here (staff only, CSRF checked like every admin form); the service worker is served by
handover.views.service_worker. Registered by handover/admin.py (admin autodiscovery).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from chatwidget.sites.access import queryset_for_staff
from chatwidget.sites.models import Site
from handover.forms import AlertPreferenceForm
from handover.models import AlertPreference, PushSubscription
from handover.services.webpush import (
    push_enabled,
    push_subscription_remove,
    push_subscription_save,
)

MAX_SUBSCRIPTION_BYTES = 4096


def _is_staff(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_staff)


class AlertPreferenceAdmin(admin.ModelAdmin):
    """Not a list of everyone's settings: the changelist is the user's own page."""

    def has_module_permission(self, request) -> bool:
        return _is_staff(request)

    def has_view_permission(self, request, obj=None) -> bool:
        return _is_staff(request) and (obj is None or obj.user_id == request.user.pk)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("", wrap(self.alerts_view), name="handover_alertpreference_changelist"),
            path("push/", wrap(self.push_view), name="handover_alert_push"),
            path(
                "push/<int:subscription_id>/remove/",
                wrap(self.push_remove_view),
                name="handover_alert_push_remove",
            ),
        ]

    def alerts_view(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if user.pk is None:  # admin_view lets signed-in staff only through
            raise PermissionDenied
        pref, _created = AlertPreference.objects.get_or_create(
            user_id=user.pk, defaults={"language": request.LANGUAGE_CODE or "en"}
        )
        sites = queryset_for_staff(Site.objects.order_by("name"), user, site_field="pk")
        email = getattr(user, "email", "")
        data = request.POST if request.method == "POST" else None
        form = AlertPreferenceForm(data, instance=pref, sites=sites, email=email)
        if data is not None and form.is_valid():
            form.save()
            messages.success(request, gettext("Your alert settings are saved."))
            return HttpResponseRedirect(request.path)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": gettext("My alerts"),
            "form": form,
            "devices": PushSubscription.objects.filter(user_id=user.pk),
            "push_enabled": push_enabled(),
            "vapid_public_key": settings.VAPID_PUBLIC_KEY,
            "push_url": reverse("admin:handover_alert_push"),
            "sw_url": reverse("handover:service-worker"),
            "inbox_url": reverse("admin:handover_case_inbox"),
        }
        response = TemplateResponse(request, "admin/handover/alerts.html", context)
        add_never_cache_headers(response)
        return response

    def push_view(self, request: HttpRequest) -> HttpResponse:
        return require_POST(self._push)(request)

    def _push(self, request: HttpRequest) -> HttpResponse:
        """This browser's subscription (PushSubscription.toJSON() and a device label)."""
        if not push_enabled():
            return JsonResponse({"ok": False, "error": gettext("Push is not set up.")}, status=409)
        if len(request.body) > MAX_SUBSCRIPTION_BYTES:
            return JsonResponse({"ok": False}, status=413)
        try:
            data = json.loads(request.body)
            keys = data.get("keys") or {}
            push_subscription_save(
                user=request.user,
                endpoint=str(data.get("endpoint") or ""),
                p256dh=str(keys.get("p256dh") or ""),
                auth=str(keys.get("auth") or ""),
                device=str(data.get("device") or ""),
            )
        except (ValueError, AttributeError):
            return JsonResponse({"ok": False}, status=400)
        except ValidationError as exc:
            return JsonResponse({"ok": False, "error": " ".join(exc.messages)}, status=400)
        return JsonResponse({"ok": True})

    def push_remove_view(self, request: HttpRequest, subscription_id: int) -> HttpResponse:
        return require_POST(self._push_remove)(request, subscription_id)

    def _push_remove(self, request: HttpRequest, subscription_id: int) -> HttpResponse:
        if push_subscription_remove(user=request.user, subscription_id=subscription_id):
            messages.success(request, gettext("The device gets no more push notifications."))
        return HttpResponseRedirect(reverse("admin:handover_alertpreference_changelist"))
