"""The history of go-live checks per site. Registered through chatwidget/models.py, so the
model belongs to the chatwidget app (one migration history for the project package)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GoliveRun(models.Model):
    """One run of the go-live check: its configuration snapshot, progress and report.

    `report` holds the cases (checks, rubric verdict, evidence, tokens and time to first
    token per turn). Evidence is what the throw-away conversations showed, masked as stored;
    the conversations themselves are deleted when the run ends (`conversation_ids` lists
    those not yet deleted, so a crashed run is cleaned up by the next one)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        PASSED = "passed", _("Passed")
        WARNED = "warned", _("Passed with advisory findings")
        FAILED = "failed", _("Failed")
        ERROR = "error", _("Could not run")

    site = models.ForeignKey(
        "sites.Site",
        on_delete=models.CASCADE,
        related_name="golive_runs",
        verbose_name=_("site"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        verbose_name=_("requested by"),
    )
    source = models.CharField(_("started from"), max_length=10, default="command")
    model_name = models.CharField(_("model"), max_length=100, blank=True)
    grader_model = models.CharField(_("grading model"), max_length=100, blank=True)
    config = models.JSONField(_("configuration"), default=dict, blank=True)
    progress_done = models.PositiveSmallIntegerField(default=0)
    progress_total = models.PositiveSmallIntegerField(default=0)
    current_case = models.CharField(max_length=40, blank=True)
    report = models.JSONField(_("report"), default=list, blank=True)
    total_tokens = models.PositiveIntegerField(_("total tokens"), default=0)
    ttft_median_ms = models.PositiveIntegerField(
        _("median time to first token (ms)"), null=True, blank=True
    )
    conversation_ids = models.JSONField(default=list, blank=True)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("requested"), auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        db_table = "chatwidget_goliverun"  # the table keeps its name from before the move
        verbose_name = _("go-live check")
        verbose_name_plural = _("go-live checks")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return str(_("Go-live check %(id)s of %(site)s") % {"id": self.pk, "site": self.site})
