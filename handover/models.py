from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from memory.models import AuditEvent


class Case(models.Model):
    """A handover: the bot stopped and a person owns the conversation."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        HUMAN = "human", _("With a person")
        RESOLVED = "resolved", _("Resolved")
        RELEASED = "released", _("Released to the bot")

    class Trigger(models.TextChoices):
        VISITOR = "visitor", _("Visitor asked for a person")
        MODEL = "model", _("Assistant requested a handover")
        STAFF = "staff", _("Staff took over")

    site = models.ForeignKey("chatwidget.Site", on_delete=models.CASCADE, related_name="cases")
    # SET_NULL: when the raw transcript expires the case note stays.
    conversation = models.ForeignKey(
        "memory.Conversation",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="cases",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    trigger = models.CharField(_("trigger"), max_length=10, choices=Trigger.choices)
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    contact = models.JSONField(_("contact details"), default=list, blank=True)  # [{kind, value}]
    core = models.JSONField(_("condensed core"), default=dict, blank=True)
    core_version = models.PositiveIntegerField(default=0)
    callback_requested = models.BooleanField(_("call back requested"), default=False)
    outside_hours = models.BooleanField(default=False)
    requested_at = models.DateTimeField(_("requested"), auto_now_add=True, db_index=True)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="claimed_cases",
        verbose_name=_("claimed by"),
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True, db_index=True)
    # the first staff reply on this case: the dashboard's "time to the first staff reply"
    first_reply_at = models.DateTimeField(_("first staff reply"), null=True, blank=True)
    note = models.TextField(_("case note"), blank=True)
    transcript_purged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("handover case")
        verbose_name_plural = _("handover cases")
        ordering = ["requested_at"]
        permissions = [("reveal_plaintext", _("Can reveal masked plaintext, stating a reason"))]

    def __str__(self) -> str:
        return str(_("Case %(id)s") % {"id": self.pk})


class RevealManager(models.Manager):
    def get_queryset(self):  # noqa: ANN201
        return super().get_queryset().filter(action=AuditEvent.Action.REVEAL)


class RevealEvent(AuditEvent):
    """The reveal log: every plaintext reveal (who, when, what, why), read-only in admin."""

    objects = RevealManager()

    class Meta:
        proxy = True
        verbose_name = _("plaintext reveal")
        verbose_name_plural = _("plaintext reveals")
        ordering = ["-at"]


# Issue 18: canned replies staff insert into a reply (handover/canned.py) and the visitor's
# rating of a resolved case (handover/ratings.py).
from handover.canned import CannedReply  # noqa: E402, F401
from handover.ratings import Rating  # noqa: E402, F401
