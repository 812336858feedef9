from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
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

    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE, related_name="cases")
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
    # E-mail continuation (issue 32; handover.services.continuation): staff turns up to this
    # seq reached the visitor (e-mailed, or shown live while a widget was open); a batch
    # e-mail of the later ones is due at `mail_batch_at` (None: none pending).
    mail_through_seq = models.PositiveIntegerField(default=0)
    mail_batch_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("handover case")
        verbose_name_plural = _("handover cases")
        ordering = ["requested_at"]
        permissions = [("reveal_plaintext", _("Can reveal masked plaintext, stating a reason"))]

    def __str__(self) -> str:
        return str(_("Case %(id)s") % {"id": self.pk})


class RevealManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(action=AuditEvent.Action.REVEAL)


class RevealEvent(AuditEvent):
    """The reveal log: every plaintext reveal (who, when, what, why), read-only in admin."""

    objects = RevealManager()

    class Meta:
        proxy = True
        verbose_name = _("plaintext reveal")
        verbose_name_plural = _("plaintext reveals")
        ordering = ["-at"]


# --- the visitor's rating of a resolved case (issue 18) ----------------------------------------
# A score and an optional comment; the comment is redacted like every message and stored
# masked (handover.services.ratings). The dashboard reads scores only, never the comment.

SCORE_MIN = 1
SCORE_MAX = 5
MAX_COMMENT = 1000


class Rating(models.Model):
    """One per case: the visitor rates once, after the team resolved the case."""

    case = models.OneToOneField("handover.Case", on_delete=models.CASCADE, related_name="rating")
    # kept on the row so the dashboard counts per site without a join, and a rating outlives
    # nothing it should not: it goes with its case
    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE, related_name="+")
    score = models.PositiveSmallIntegerField(
        _("score"), validators=[MinValueValidator(SCORE_MIN), MaxValueValidator(SCORE_MAX)]
    )
    # redacted and masked when stored: feedback needs no contact details, so none are kept
    comment = models.TextField(_("comment (redacted)"), blank=True, max_length=MAX_COMMENT)
    created_at = models.DateTimeField(_("rated"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(score__gte=SCORE_MIN, score__lte=SCORE_MAX),
                name="rating_score_range",
            )
        ]

    def __str__(self) -> str:
        return f"{self.score}/{SCORE_MAX}"


# --- canned replies (issue 18) --------------------------------------------------------------
# Short texts staff insert into a reply with a keystroke, per site (or for every site when no
# site is set), managed in admin. On the case page, `/<shortcut>` and Tab in the reply box, or
# Alt+1..9, inserts one; staff edit it before sending: never sent on its own.


class CannedReply(models.Model):
    site = models.ForeignKey(
        "sites.Site",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="canned_replies",
        verbose_name=_("site"),
        help_text=_("Leave empty to offer this reply on every site."),
    )
    title = models.CharField(_("title"), max_length=80)
    shortcut = models.SlugField(
        _("shortcut"),
        max_length=30,
        help_text=_("Type /shortcut and Tab in the reply box to insert the text."),
    )
    text = models.TextField(_("text"), max_length=4000)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        app_label = "handover"
        ordering = ["position", "title", "pk"]
        verbose_name = _("canned reply")
        verbose_name_plural = _("canned replies")

    def __str__(self) -> str:
        return self.title


class ContinuationCode(models.Model):
    """One e-mailed continuation link (issue 25): the link's one-time code, stored as a hash,
    bound to the address it was sent to (a keyed hash: `handover.services.mail_address`).
    The exchange spends it once (`used_at`, in the database: a cache restart does not make
    it usable again) and only while the case still holds that address; `session` is the
    linked session it made (memory.models.LinkedSession), through which the transcript may
    go to that address without a further confirmation."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="continuation_codes")
    code_hash = models.CharField(max_length=64, unique=True)
    address_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)
    session = models.ForeignKey(
        "memory.LinkedSession",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="continuation_codes",
    )

    class Meta:
        verbose_name = _("continuation link")
        verbose_name_plural = _("continuation links")

    def __str__(self) -> str:
        return f"continuation link of case {self.case_id}"


class TranscriptRequest(models.Model):
    """ "E-mail me the conversation" (issue 25): one request to send a transcript to an
    address, which must be confirmed first (a link to that address; `token_hash`) unless the
    address is already verified for the conversation. Holds no address, only its keyed hash:
    the address is read from the conversation when the transcript is sent. The row outlives
    an erased conversation (SET_NULL) for the per-address cap, and is purged after
    TRANSCRIPT_REQUEST_KEEP_DAYS."""

    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE, related_name="+")
    conversation = models.ForeignKey(
        "memory.Conversation",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="transcript_requests",
    )
    address_hash = models.CharField(max_length=64, db_index=True)
    token_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # the address was verified before (confirmed earlier, or a continuation link's): no
    # confirmation e-mail, the transcript goes at once
    verified_before = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    expires_at = models.DateTimeField()
    confirmation_sent_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("transcript e-mail request")
        verbose_name_plural = _("transcript e-mail requests")

    def __str__(self) -> str:
        return f"transcript request {self.pk}"


# --- staff alerts (issue 32) -------------------------------------------------------------------
# Each staff user chooses which events of which sites reach them, by Web Push and/or e-mail
# (handover.services.alerts). The sites are narrowed to those the user may see when an alert
# is made (chatwidget.sites.access), so a right taken away stops the alerts at once.


class AlertKind(models.TextChoices):
    NEW_CASE = "new_case", _("A visitor waits for a person")
    VISITOR_REPLIED = (
        "visitor_replied",
        _("A visitor wrote on a case of mine or an unassigned case"),
    )
    PROMISE_DUE = "promise_due", _("A promised call back is due")


class AlertPreference(models.Model):
    """One staff user's alert settings, edited by the user on the Alerts page."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="alert_preference"
    )
    # empty: every site the user may see
    sites = models.ManyToManyField(
        "sites.Site", blank=True, related_name="+", verbose_name=_("sites")
    )
    new_case = models.BooleanField(_("a visitor waits for a person"), default=True)
    visitor_replied = models.BooleanField(
        _("a visitor wrote on a case of mine or an unassigned case"), default=True
    )
    promise_due = models.BooleanField(_("a promised call back is due"), default=True)
    by_push = models.BooleanField(_("by push notification"), default=False)
    by_email = models.BooleanField(_("by e-mail"), default=False)
    language = models.CharField(
        _("language of the alerts"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("alert settings")
        verbose_name_plural = _("alert settings")

    def __str__(self) -> str:
        return f"alerts of user {self.user_id}"

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, kind, False)) and (self.by_push or self.by_email)


class PushSubscription(models.Model):
    """One browser (phone or desktop) of a staff user that receives Web Push alerts. The
    endpoint is the push service's URL the browser gave; the keys encrypt the payload for that
    browser only. Removed when the push service answers 404 or 410 (the browser unsubscribed)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=64)
    device = models.CharField(_("device"), max_length=120, blank=True)
    created_at = models.DateTimeField(_("added"), auto_now_add=True)
    last_sent_at = models.DateTimeField(_("last alert"), null=True, blank=True)

    class Meta:
        verbose_name = _("push device")
        verbose_name_plural = _("push devices")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.device or f"push device {self.pk}"


class StaffAlert(models.Model):
    """One alert for one staff user: the push goes at once (its own task), the e-mail waits
    for ALERT_EMAIL_DELAY_SECONDS so that alerts made meanwhile go in the same e-mail
    (`emailed_at` is set when that e-mail is sent). The rows also keep an event from alerting
    the same user twice within ALERT_REPEAT_SECONDS, and a due promise from alerting twice
    at all. Deleted with the case, or by the purge after ALERT_KEEP_DAYS."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="alerts")
    kind = models.CharField(max_length=20, choices=AlertKind.choices)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    by_push = models.BooleanField(default=False)
    by_email = models.BooleanField(default=False)
    pushed_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("staff alert")
        verbose_name_plural = _("staff alerts")
        indexes = [models.Index(fields=["user", "case", "kind", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} alert of case {self.case_id} for user {self.user_id}"
