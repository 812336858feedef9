"""Webhook hooks and their delivery log. Registered with the chatwidget app by one import at
the end of chatwidget/models.py."""

import secrets
import uuid

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from chatwidget.platform.egress import url_problem


def new_webhook_secret() -> str:
    return secrets.token_urlsafe(32)


# The keys of an event's message text (`webhook_emit(text=...)`): only hooks whose owner
# turned text on receive them, and they are what erasure and retention take out of the
# delivery log (chatwidget.integrations.retention).
TEXT_KEYS = ("reason", "note", "comment")


class WebhookEvent(models.TextChoices):
    CASE_WAITING = "case.waiting", _("Case waiting")
    CASE_RESOLVED = "case.resolved", _("Case resolved")
    CONVERSATION_STARTED = "conversation.started", _("Conversation started")
    CONVERSATION_FOLLOWUP = "conversation.followup", _("Follow-up asked after inactivity")
    CONVERSATION_RESOLVED = "conversation.resolved", _("Conversation resolved after inactivity")
    RATING_GIVEN = "rating.given", _("Rating given")


class Webhook(models.Model):
    """One receiver of one site. Events are opt-in; message text only when the owner turns
    it on for this hook (the reason of a case, the case note, a rating's comment)."""

    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(
        _("receiver URL"),
        max_length=500,
        help_text=_("https:// in production. Redirects are not followed."),
    )
    events = models.JSONField(_("events"), default=list, blank=True)
    include_text = models.BooleanField(
        _("include message text"),
        default=False,
        help_text=_("Off: events carry ids, counts and scores only."),
    )
    secret = models.CharField(
        _("signing secret"),
        max_length=100,
        default=new_webhook_secret,
        help_text=_("The receiver checks the X-Chatwidget-Signature header with it."),
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "chatwidget_webhook"  # the table keeps its name from before the move
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["site", "pk"]

    def __str__(self) -> str:
        return self.url

    def clean(self) -> None:
        """A receiver on this server or its private network is refused here already (the
        egress guard refuses it again at delivery, after resolving the name)."""
        problem = url_problem(self.url or "")
        if problem:
            raise ValidationError({"url": problem})


class WebhookDelivery(models.Model):
    """One event for one hook: the body as sent (the same on every attempt, so a receiver
    may deduplicate by its id) and how the attempts went. The message text leaves the body
    when its conversation is erased or purged; the row goes after
    WEBHOOK_DELIVERY_RETENTION_DAYS (chatwidget.integrations.retention)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(_("event"), max_length=40, choices=WebhookEvent.choices)
    body = models.TextField()
    # The conversation the event is about: a number, not a link (integrations sits below
    # memory), so that erasure and the purge find the deliveries that quote it.
    conversation_ref = models.BigIntegerField(null=True, blank=True, db_index=True, editable=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    response_code = models.PositiveSmallIntegerField(_("last HTTP status"), null=True, blank=True)
    error = models.CharField(_("last error"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    last_attempt_at = models.DateTimeField(_("last attempt"), null=True, blank=True)

    class Meta:
        db_table = "chatwidget_webhookdelivery"  # the table keeps its name from before the move
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.event} -> {self.hook_id}"
