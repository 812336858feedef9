"""Conversations, turns, condensed cores, context traces, retention, consent and profiles.

Text columns hold *redacted* text only: never-kept values (cards, codes, passwords) are
replaced before a row is written; kept-but-marked values (e-mail, phone, IBAN, address) are
listed in `spans` so staff views can mask them.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class ConversationState(models.TextChoices):
    BOT = "bot", _("Bot")
    WAITING = "waiting", _("Waiting for a person")
    HUMAN = "human", _("With a person")
    CLOSED = "closed", _("Closed")


class Conversation(models.Model):
    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE, related_name="conversations")
    token_hash = models.CharField(max_length=64, unique=True)
    state = models.CharField(
        _("state"), max_length=10, choices=ConversationState.choices, default=ConversationState.BOT
    )
    language = models.CharField(max_length=2, default="en")
    created_at = models.DateTimeField(_("started"), auto_now_add=True)
    last_activity_at = models.DateTimeField(_("last activity"), auto_now_add=True, db_index=True)
    next_seq = models.PositiveIntegerField(default=1)
    # The highest seq covered by the current core (0: no core yet).
    condensed_through_seq = models.PositiveIntegerField(default=0)
    core_version = models.PositiveIntegerField(default=0)
    findings = models.JSONField(default=dict, blank=True, help_text=_("Kinds and counts only."))
    profile = models.ForeignKey(
        "memory.Profile",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="conversations",
    )
    # The customer the shop signed in (a verified `hello.identity`, memory.customers): set
    # once, never changed to another customer; the conversation stays the customer's after
    # a `logout` on the device.
    customer = models.ForeignKey(
        "memory.Customer",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="conversations",
    )
    # The transcript hold, written by handover through `memory.services.conversation_hold_set`
    # on every case transition: an open case keeps the raw transcript alive, and a resolved
    # case keeps it for the site's case run-off (`RetentionPolicy.case_days`) after
    # `case_resolved_at`. Data, so memory's expiry rules need not query handover's tables.
    case_hold = models.BooleanField(default=False)
    case_resolved_at = models.DateTimeField(null=True, blank=True)
    # What the latest turns leave open for the visitor's next message (credential families,
    # comma-separated, memory.redaction.sequence): "pin" after "do you need my PIN?", "card"
    # after a message with part of a card number. Words, never a value.
    redaction_open = models.CharField(max_length=120, blank=True, default="")
    # Inactivity (handover.services.inactivity): the seq of the follow-up question sent after
    # the visitor went quiet (null: none). While it is the newest turn the conversation may
    # be resolved; a visitor turn after it means the visitor came back.
    followup_seq = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("conversation")
        verbose_name_plural = _("conversations")
        ordering = ["-last_activity_at"]
        indexes = [
            # the inactivity scan: open conversations quiet since a time (a range per state)
            models.Index(fields=["state", "last_activity_at"], name="memory_conv_state_activity"),
            # and those whose follow-up went out, for the resolution
            models.Index(
                fields=["last_activity_at"],
                name="memory_conv_followed_up",
                condition=Q(followup_seq__isnull=False),
            ),
        ]
        permissions = [
            ("export_conversation", _("Can export a conversation")),
            ("erase_conversation", _("Can erase a conversation")),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} ({self.site_id})"


class Customer(models.Model):
    """A customer the shop signed in and vouched for with the site's identity secret: the
    shop's own id, e-mail and name as last verified. Personal data like a transcript:
    masked in staff views, in the export, gone with the customer's erasure, and purged once
    no conversation of it is left (memory.customers, memory.retention)."""

    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE, related_name="customers")
    external_id = models.CharField(_("customer id in the shop"), max_length=200)
    email = models.EmailField(_("e-mail address"), max_length=254, blank=True)
    name = models.CharField(_("name"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("signed-in customer")
        verbose_name_plural = _("signed-in customers")
        constraints = [
            models.UniqueConstraint(
                fields=["site", "external_id"], name="customer_unique_external_id"
            )
        ]

    def __str__(self) -> str:
        return f"customer #{self.pk}"


class LinkedSession(models.Model):
    """A further session of a conversation, besides the one its first browser holds: made
    when the visitor opens an e-mail continuation link (handover.ContinuationCode) on another
    device or browser. The first session keeps working. A linked session sees the
    conversation `masked` (contact details as staff views mask them, in the welcome frame,
    live messages and the export): whoever holds a link's code gets no plaintext contact
    details without more (the full transcript goes by e-mail, to the link's address only).
    Only the token's hash is stored; it lives and dies with its conversation."""

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="linked_sessions"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    masked = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("linked session")
        verbose_name_plural = _("linked sessions")

    def __str__(self) -> str:
        return f"session of #{self.conversation_id}"


class TurnRole(models.TextChoices):
    VISITOR = "visitor", _("Visitor")
    ASSISTANT = "assistant", _("Assistant")
    STAFF = "staff", _("Staff")
    SYSTEM = "system", _("System")
    TOOL = "tool", _("Shop lookup")  # a shop action's call and result (chatwidget.shop.actions)


class Turn(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="turns")
    seq = models.PositiveIntegerField()
    role = models.CharField(max_length=10, choices=TurnRole.choices)
    text = models.TextField()  # redacted
    spans = models.JSONField(default=list, blank=True)  # [[kind, start, end], ...] to mask
    findings = models.JSONField(default=dict, blank=True)  # kind -> count, never values
    health = models.BooleanField(default=False)
    token_count = models.PositiveIntegerField()
    client_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (unique when set)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # a visitor turn's page (the `message` frame's `page`), as memory.pages.page_clean keeps
    # it: {"url", "title", "url_spans", "title_spans", "tokens"}; None without one
    page = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["conversation", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "seq"], name="turn_unique_seq"),
            models.UniqueConstraint(
                fields=["conversation", "client_id"],
                condition=Q(client_id__isnull=False),
                name="turn_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.conversation_id}:{self.seq} {self.role}"


class Core(models.Model):
    """One version of a conversation's condensed core (the structured form in DESIGN.md)."""

    class Source(models.TextChoices):
        MODEL = "model", _("Model")
        EXTRACTIVE = "extractive", _("Extractive (no model)")
        INLINE = "inline", _("Inline before a call")

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="cores")
    version = models.PositiveIntegerField()
    data = models.JSONField()
    covers_through_seq = models.PositiveIntegerField()
    token_count = models.PositiveIntegerField(default=0)
    source = models.CharField(max_length=12, choices=Source.choices)
    condense_prompt_tokens = models.PositiveIntegerField(default=0)
    condense_completion_tokens = models.PositiveIntegerField(default=0)
    repairs = models.JSONField(default=dict, blank=True)  # what verification changed: counts
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("condensed core")
        verbose_name_plural = _("condensed cores")
        ordering = ["conversation", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "version"], name="core_unique_version")
        ]

    def __str__(self) -> str:
        return f"core v{self.version} of #{self.conversation_id}"


class ContextTrace(models.Model):
    """What one model call was sent: token counts per section and turn ids, never text."""

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="traces")
    request_seq = models.PositiveIntegerField()
    mode = models.CharField(max_length=10, default="model")  # model | demo
    model_name = models.CharField(max_length=100, blank=True)
    budget = models.PositiveIntegerField()
    reserve = models.PositiveIntegerField()
    sections = models.JSONField(default=dict)  # section -> tokens
    total_tokens = models.PositiveIntegerField()
    verbatim_seqs = models.JSONField(default=list)
    core_version = models.PositiveIntegerField(default=0)
    core_covers_through = models.PositiveIntegerField(default=0)
    left_out = models.JSONField(default=list)  # [{"reason": str, "seqs": [...], "count": n}]
    inline_condensed = models.BooleanField(default=False)
    # The answer this context was built for (chatwidget.assistant.answers): milliseconds from
    # the built context to the stored answer, and whether one came (False: the model failed).
    # None where no answer followed the build. Read by the owners' dashboard (issue 18).
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    answered = models.BooleanField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("context trace")
        verbose_name_plural = _("context traces")
        ordering = ["conversation", "-request_seq", "-id"]

    def __str__(self) -> str:
        return f"trace #{self.conversation_id}:{self.request_seq}"


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
