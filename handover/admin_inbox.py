"""Admin for staff, issue 18: the live inbox and canned replies. Issue 32: "mine" and
"unassigned" filters, assigning from a row, and the link to the user's alert settings.

The inbox is a page of its own (Cases -> Inbox): waiting and active cases of the sites the
user may see, rendered by the server and then kept current by the staff socket
(static/handover/inbox.js): a new case, a visitor message, claim, release, resolve and
replies each send the case's row again. Imported by handover/admin.py (admin autodiscovery).
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext

from chatwidget.sites.access import queryset_for_staff, staff_site_ids
from handover import selectors
from handover.models import CannedReply


def _sites(user) -> list[int] | None:
    """The sites a colleague may take cases of (None: all): "Assign to…" offers them only
    there (case_assign refuses the others)."""
    ids = staff_site_ids(user)
    return None if ids is None else sorted(ids)


def inbox_view(model_admin: admin.ModelAdmin, request: HttpRequest) -> HttpResponse:
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    show = request.GET.get("show", "all")
    if show not in selectors.INBOX_SHOW:
        show = "all"
    can_act = model_admin.has_change_permission(request)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": gettext("Inbox"),
        "rows": selectors.inbox_rows(
            site_ids=staff_site_ids(request.user), show=show, user_id=request.user.pk
        ),
        "show": show,
        "shows": [
            ("all", gettext("All open cases")),
            ("mine", gettext("Mine")),
            ("unassigned", gettext("Unassigned")),
        ],
        "can_act": can_act,
        "assignable": [
            {"id": u.pk, "name": u.get_full_name() or u.get_username(), "sites": _sites(u)}
            for u in selectors.staff_assignable()
        ]
        if can_act
        else [],
        "case_url": reverse("admin:handover_case_change", args=[0]),
        "action_url": reverse("admin:handover_case_action", args=[0, "assign"]),
        "alerts_url": reverse("admin:handover_alertpreference_changelist"),
        "ws_path": "/ws/staff/?inbox=1",
    }
    response = TemplateResponse(request, "admin/handover/case/inbox.html", context)
    add_never_cache_headers(response)
    return response


@admin.register(CannedReply)
class CannedReplyAdmin(admin.ModelAdmin):
    list_display = ("title", "shortcut", "site", "position")
    list_filter = ("site",)
    search_fields = ("title", "shortcut", "text")
    ordering = ("position", "title")

    def get_queryset(self, request):
        # a Staff user limited to sites manages their sites' replies (shared ones: everyone)
        ids = staff_site_ids(request.user)
        qs = super().get_queryset(request)
        if ids is None:
            return qs
        return queryset_for_staff(qs.exclude(site__isnull=True), request.user) | qs.filter(
            site__isnull=True
        )
