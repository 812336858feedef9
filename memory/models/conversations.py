"""Conversations, their turns, condensed cores and context traces, signed-in customers and
linked sessions (memory.models).

Text columns hold *redacted* text only: never-kept values (cards, codes, passwords) are
replaced before a row is written; kept-but-marked values (e-mail, phone, IBAN, address) are
listed in `spans` so staff views can mask them.
"""

from django.conf import settings
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
    # The transcript hold, written by handover through `memory.retention.conversation_hold_set`
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
    # an answer's product cards (chatwidget.assistant.cards: built from the site's knowledge
    # documents, never from the answer's text) and quick replies (the `offer_choices` tool's
    # checked labels); shown again with the turn in welcome and history
    cards = models.JSONField(default=list, blank=True)
    choices = models.JSONField(default=list, blank=True)
    # a visitor turn's photos and files (memory.Attachment.public(): id, kind, name, type,
    # size), so the turn shows them without a query
    attachments = models.JSONField(default=list, blank=True)
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
