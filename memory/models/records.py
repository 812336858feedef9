"""What the owner decides and what is counted: retention policies, the audit log and the
daily statistics (memory.models)."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


def _bounded(low: int, high: int) -> list:
    return [MinValueValidator(low), MaxValueValidator(high)]


class RetentionPolicy(models.Model):
    """Per-site retention periods. Editable only with the owner permission."""

    site = models.OneToOneField("sites.Site", on_delete=models.CASCADE, related_name="retention")
    session_hours = models.PositiveIntegerField(
        _("session transcript (hours after the last turn)"), default=24, validators=_bounded(1, 720)
    )
    case_days = models.PositiveIntegerField(
        _("case transcript run-off (days after a handover is resolved)"),
        default=30,
        validators=_bounded(1, 365),
    )
    profile_months = models.PositiveIntegerField(
        _("recognition profile (months after the last visit)"),
        default=12,
        validators=_bounded(1, 24),
    )
    audit_days = models.PositiveIntegerField(
        _("reveal and audit log (days)"), default=365, validators=_bounded(30, 3650)
    )
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        verbose_name = _("retention policy")
        verbose_name_plural = _("retention policies")

    def __str__(self) -> str:
        return str(_("Retention for %(site)s") % {"site": self.site})


class AuditEvent(models.Model):
    """Who did what to which data, and why. No message text."""

    class Action(models.TextChoices):
        REVEAL = "reveal", _("Plaintext revealed")
        EXPORT = "export", _("Exported")
        ERASE = "erase", _("Erased")
        RETENTION = "retention", _("Retention policy changed")
        PROFILE = "profile", _("Profile changed")
        PURGE = "purge", _("Expired data purged")

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    actor_label = models.CharField(max_length=150, blank=True)  # survives user deletion
    action = models.CharField(max_length=12, choices=Action.choices)
    site = models.ForeignKey("sites.Site", null=True, blank=True, on_delete=models.CASCADE)
    conversation_ref = models.PositiveBigIntegerField(null=True, blank=True)  # id, not FK
    target = models.CharField(max_length=200, blank=True)  # e.g. "case 12 / field email"
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)  # counts and ids only

    class Meta:
        verbose_name = _("audit event")
        verbose_name_plural = _("audit log")
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.action} {self.target}"


class DailyStat(models.Model):
    """Analytics: counts only, no text and no person."""

    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE)
    day = models.DateField()
    conversations = models.PositiveIntegerField(default=0)
    visitor_turns = models.PositiveIntegerField(default=0)
    assistant_turns = models.PositiveIntegerField(default=0)
    handovers = models.PositiveIntegerField(default=0)
    redactions = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["site", "day"], name="stat_unique_day")]

    def __str__(self) -> str:
        return f"{self.site_id} {self.day}"
