"""Recognition profiles, their facts and the visitor's consent (memory.models)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """A recognition profile: exists only with consent. Fixed, structured fields."""

    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE, related_name="profiles")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_visit_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("recognition profile")
        verbose_name_plural = _("recognition profiles")
        permissions = [("approve_profilefact", _("Can approve proposed profile facts"))]

    def __str__(self) -> str:
        return f"profile #{self.pk}"


class ProfileFact(models.Model):
    """One field of a profile. Overwritten, not accumulated: one row per (field, key)."""

    class Field(models.TextChoices):
        """The labels are visitor-facing too: the widget's "What do you know about me?"."""

        # Translators: visitor
        LANGUAGE = "language", _("Preferred language")
        # Translators: visitor
        CONTACT_PREFERENCE = "contact_preference", _("Contact preference")
        # Translators: visitor
        OBJECT = "object", _("Named object")
        # Translators: visitor
        PAST_CASE = "past_case", _("Past case")
        # Translators: visitor
        PROMISE = "promise", _("Open promise")
        # Translators: visitor
        EMAIL = "email", _("E-mail address")
        # Translators: visitor
        PHONE = "phone", _("Phone number")
        # Translators: visitor
        NAME = "name", _("Name")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        PROPOSED = "proposed", _("Proposed, needs approval")

    SENSITIVE = {Field.EMAIL, Field.PHONE, Field.NAME}

    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="facts")
    field = models.CharField(max_length=24, choices=Field.choices)
    key = models.CharField(max_length=64, blank=True, default="")  # e.g. object kind
    value = models.CharField(max_length=500)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    source_conversation = models.PositiveBigIntegerField(null=True, blank=True)
    source_seq = models.PositiveIntegerField(null=True, blank=True)
    recorded_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("profile fact")
        verbose_name_plural = _("profile facts")
        constraints = [
            models.UniqueConstraint(fields=["profile", "field", "key"], name="fact_unique_field")
        ]

    def __str__(self) -> str:
        return f"{self.field}:{self.key}"


class Consent(models.Model):
    """Evidence of a recognition consent: when and which wording. Kept after withdrawal."""

    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE)
    profile = models.ForeignKey(Profile, null=True, blank=True, on_delete=models.SET_NULL)
    wording_version = models.CharField(max_length=20)
    granted_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("consent record")
        verbose_name_plural = _("consent records")

    def __str__(self) -> str:
        return f"consent {self.wording_version} ({self.granted_at:%Y-%m-%d})"
