"""The owners' dashboard in admin: a proxy of memory's DailyStat, so the dashboard has its
own entry on the admin index and its own permission (`insights.view_dashboard`, given to
the Owner role by a data migration). It stores nothing."""

from django.utils.translation import gettext_lazy as _

from memory.models import DailyStat


class Dashboard(DailyStat):
    class Meta:
        proxy = True
        verbose_name = _("dashboard")
        verbose_name_plural = _("dashboard")
