"""The owners' dashboard in admin: charts per day for one site or all, a table per site, and
the CSV download. Thin: parse the filter, call the selectors, render a template."""

import csv
from datetime import date, timedelta

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _

from chatwidget.insights.charts import Series, chart_build
from chatwidget.insights.models import Dashboard
from chatwidget.insights.selectors import (
    CSV_FIELDS,
    DayStats,
    dashboard_days,
    dashboard_sites,
    dashboard_total,
    rating_distribution,
)
from memory.analytics import stat_day

PERIODS = (7, 30, 90)
DEFAULT_PERIOD = 30


def _filter(request: HttpRequest) -> tuple[list, list[int], int | None, date, date, int]:
    sites = dashboard_sites()
    site_id = request.GET.get("site", "")
    chosen = (
        int(site_id) if site_id.isdigit() and any(s.pk == int(site_id) for s in sites) else None
    )
    period = (
        int(request.GET.get("days", DEFAULT_PERIOD))
        if request.GET.get("days", "").isdigit()
        else DEFAULT_PERIOD
    )
    period = period if period in PERIODS else DEFAULT_PERIOD
    end = stat_day()  # days of the server's zone, as DailyStat counts them
    start = end - timedelta(days=period - 1)
    site_ids = [chosen] if chosen is not None else [s.pk for s in sites]
    return sites, site_ids, chosen, start, end, period


def _charts(rows: list[DayStats]) -> list:
    days = [r.day for r in rows]

    def col(name: str, scale: float = 1) -> list:
        return [None if getattr(r, name) is None else getattr(r, name) * scale for r in rows]

    return [
        chart_build(
            key="conversations",
            title=_("Conversations and handovers"),
            unit="",
            days=days,
            series=[
                Series(_("conversations"), col("conversations")),
                Series(_("handovers"), col("handovers"), css="s2"),
            ],
        ),
        chart_build(
            key="first-reply",
            title=_("Time to the first staff reply (median)"),
            unit=_("min"),
            days=days,
            series=[
                Series(
                    _("median"),
                    [None if v is None else round(v / 60, 1) for v in col("first_reply_p50_s")],
                )
            ],
        ),
        chart_build(
            key="latency",
            title=_("Answer latency"),
            unit="ms",
            days=days,
            series=[
                Series("p50", col("latency_p50_ms"), kind="line"),
                Series("p95", col("latency_p95_ms"), kind="line", css="s2"),
            ],
        ),
        chart_build(
            key="tokens",
            title=_("Tokens per answer (context sent)"),
            unit="",
            days=days,
            series=[Series(_("tokens"), col("tokens_per_answer"))],
        ),
        chart_build(
            key="could-not-answer",
            title=_("Could not answer"),
            unit="%",
            days=days,
            series=[Series(_("share of answers"), col("could_not_answer_rate", 100), kind="line")],
        ),
        chart_build(
            key="condensations",
            title=_("Condensations"),
            unit="",
            days=days,
            series=[Series(_("condensations"), col("condensations"))],
        ),
        chart_build(
            key="ratings",
            title=_("Ratings (average, 1-5)"),
            unit="",
            days=days,
            series=[Series(_("average"), col("rating_average"), kind="line")],
        ),
    ]


def _csv_text(value: str) -> str:
    """A site name a spreadsheet would read as a formula is written as text."""
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


@admin.register(Dashboard)
class DashboardAdmin(admin.ModelAdmin):
    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.has_perm("insights.view_dashboard")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def get_urls(self) -> list:
        csv_view = self.admin_site.admin_view(self.csv_view)
        return [path("csv/", csv_view, name="insights_dashboard_csv"), *super().get_urls()]

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        sites, site_ids, chosen, start, end, period = _filter(request)
        pooled = dashboard_days(site_ids=site_ids, start=start, end=end, per_site=False)
        per_site = dashboard_days(site_ids=site_ids, start=start, end=end, per_site=True)
        names = {s.pk: s.name for s in sites}
        site_totals = [
            (names[site_id], dashboard_total([r for r in per_site if r.site_id == site_id]))
            for site_id in site_ids
        ]
        query = request.GET.urlencode()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Dashboard"),
            "sites": sites,
            "chosen": chosen,
            "periods": PERIODS,
            "period": period,
            "start": start,
            "end": end,
            "charts": _charts(pooled),
            "total": dashboard_total(pooled),
            "site_totals": site_totals,
            "days": list(reversed(pooled)),
            "distribution": rating_distribution(pooled),
            "csv_url": reverse("admin:insights_dashboard_csv") + (f"?{query}" if query else ""),
        }
        return TemplateResponse(request, "admin/insights/index.html", context)

    def csv_view(self, request: HttpRequest) -> HttpResponse:
        """One row per site and day, the same figures as the page (counts only)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        sites, site_ids, _chosen, start, end, _period = _filter(request)
        names = {s.pk: s.name for s in sites}
        rows = dashboard_days(site_ids=site_ids, start=start, end=end, per_site=True)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="dashboard-{start.isoformat()}-{end.isoformat()}.csv"'
        )
        writer = csv.writer(response)
        writer.writerow(["site_id", "site", "day", *CSV_FIELDS])
        for row in rows:
            values = [
                "" if getattr(row, name) is None else getattr(row, name) for name in CSV_FIELDS
            ]
            writer.writerow(
                [row.site_id, _csv_text(names[row.site_id]), row.day.isoformat(), *values]
            )
        return response
