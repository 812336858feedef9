"""Admin for go-live checks: the history per site (the change list, filtered by site), the
report of one run (read-only, with progress while it runs), and the start button's endpoint
(the button itself sits on the site's page: templates/admin/sites/site/change_form.html).
Thin: authorise, call one service, render a template."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from chatwidget.golive.models import GoliveRun
from chatwidget.golive.report import ARTICLE_TTFT_MS
from chatwidget.golive.selectors import golive_changes, golive_run_previous
from chatwidget.golive.services import GoliveRefused, golive_run_start
from chatwidget.sites.models import Site


@admin.register(GoliveRun)
class GoliveRunAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "site",
        "status",
        "progress",
        "total_tokens",
        "ttft_median_ms",
        "model_name",
        "requested_by",
    )
    list_filter = ("site", "status")
    list_select_related = ("site", "requested_by")
    change_list_template = "admin/golive/history.html"

    @admin.display(description=gettext_lazy("cases done"))
    def progress(self, obj: GoliveRun) -> str:
        return f"{obj.progress_done}/{obj.progress_total}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def get_urls(self) -> list:
        start = self.admin_site.admin_view(require_POST(self.start_view))
        return [
            path("start/<int:site_id>/", start, name="golive_goliverun_start"),
            *super().get_urls(),
        ]

    def start_view(self, request: HttpRequest, site_id: int) -> HttpResponse:
        """The button on the site's page: start a run on a worker, show its report."""
        if not (
            request.user.has_perm("golive.add_goliverun")
            or request.user.has_perm("sites.change_site")
        ):
            raise PermissionDenied
        site = get_object_or_404(Site, pk=site_id)
        try:
            run = golive_run_start(site=site, requested_by=request.user)
        except GoliveRefused as exc:
            messages.error(request, str(exc))
            return HttpResponseRedirect(reverse("admin:sites_site_change", args=[site.pk]))
        messages.info(
            request, _("The go-live check runs on a worker; this page shows its progress.")
        )
        return HttpResponseRedirect(reverse("admin:golive_goliverun_change", args=[run.pk]))

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> HttpResponse:
        """The report: each case with its checks, rubric verdict, evidence and figures."""
        run = get_object_or_404(GoliveRun.objects.select_related("site"), pk=object_id)
        if not self.has_view_permission(request, run):
            raise PermissionDenied
        running = run.status in (GoliveRun.Status.QUEUED, GoliveRun.Status.RUNNING)
        previous = golive_run_previous(run=run)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": str(run),
            "run": run,
            "cases": run.report,
            "running": running,
            "article_ttft_ms": ARTICLE_TTFT_MS,
            "previous": previous,
            "changes": golive_changes(previous=previous, run=run) if previous else None,
            "history_url": reverse("admin:golive_goliverun_changelist")
            + f"?site__id__exact={run.site_id}",
        }
        return TemplateResponse(request, "admin/golive/report.html", context)
