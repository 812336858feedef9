import secrets
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from chatwidget.platform.labels import MAX_LABEL_CHARS, MAX_LABELS, label_clean, labels_clean
from chatwidget.sites.closures import country_choices, validate_holiday_region
from chatwidget.sites.hours import validate_staff_hours
from chatwidget.sites.theme import validate_primary_colour


def new_site_key() -> str:
    """128 random bits, URL-safe. Never with a leading "-": `manage.py golive_check --site
    -abc` would read the key as an option."""
    while (key := secrets.token_urlsafe(16)).startswith("-"):
        pass
    return key


# Translators: visitor. The widget's first line, unless the shop wrote its own greeting.
STANDARD_GREETING = gettext_noop("Hello! How can I help you today?")


def starter_lines(value: str) -> list[str]:
    """The owner's suggested questions as buttons: the lines that are labels, at most five."""
    return labels_clean(value.splitlines())


def validate_starter_choices(value: str) -> None:
    lines = [line.strip() for line in value.splitlines() if line.strip()]
    bad = [line for line in lines if not label_clean(line)]
    if bad:
        raise ValidationError(
            {
                "starter_choices": _(
                    "Each line must be plain text of at most %(chars)d characters (no links "
                    "or markup): %(lines)s"
                )
                % {"chars": MAX_LABEL_CHARS, "lines": "; ".join(line[:60] for line in bad)}
            }
        )
    if len({line.casefold() for line in lines}) > MAX_LABELS:
        raise ValidationError(
            {"starter_choices": _("At most %(n)d suggested questions.") % {"n": MAX_LABELS}}
        )


def validate_origin(value: str) -> None:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise ValidationError(
            _("%(value)s is not an origin such as https://shop.example.com"),
            params={"value": value},
        )


class Site(models.Model):
    """One shop that embeds the widget. Edited by owners in admin."""

    class Language(models.TextChoices):
        """The visitor languages (chatwidget.platform.languages.VISITOR_LANGUAGES)."""

        EN = "en", _("English")
        DE = "de", _("German")
        FR = "fr", _("French")
        ES = "es", _("Spanish")
        IT = "it", _("Italian")
        NL = "nl", _("Dutch")
        PL = "pl", _("Polish")

    name = models.CharField(_("name"), max_length=120)
    key = models.CharField(
        _("public site key"), max_length=64, unique=True, default=new_site_key, editable=False
    )
    allowed_origins = models.JSONField(
        _("allowed origins"),
        default=list,
        help_text=_("Origins allowed to embed the widget, e.g. https://shop.example.com"),
    )
    system_rules = models.TextField(
        _("system rules"),
        blank=True,
        default="You are the shop's helpful assistant. Answer briefly and factually. "
        "If you do not know, say so and offer a person.",
    )
    pinned_conventions = models.TextField(
        _("pinned conventions"),
        blank=True,
        help_text=_("Facts that must always hold, sent with every call."),
    )
    greeting = models.CharField(
        _("greeting"),
        max_length=300,
        blank=True,
        default=STANDARD_GREETING,
        help_text=_(
            "The standard greeting is shown in the visitor's language; a greeting of your own "
            "is shown as you write it. Empty: no greeting."
        ),
    )
    starter_choices = models.TextField(
        _("suggested questions"),
        blank=True,
        help_text=_(
            "Up to five buttons under the greeting before the visitor writes, one per line "
            "(at most 40 characters, plain text); a click sends the line as the visitor's "
            "first message. Shown as you write them."
        ),
    )
    ai_disclosure = models.CharField(
        _("AI disclosure"),
        max_length=200,
        blank=True,
        help_text=_(
            "Tells visitors they are talking to an AI, under the chat's title and the greeting "
            "(EU AI Act, Art. 50). Empty: the standard sentence in the visitor's language. It "
            "cannot be switched off."
        ),
    )
    default_language = models.CharField(
        _("default language"), max_length=2, choices=Language.choices, default=Language.EN
    )
    model_name = models.CharField(
        _("model name"), max_length=100, blank=True, help_text=_("Empty: CHAT_MODEL setting.")
    )
    context_budget = models.PositiveIntegerField(
        _("context budget (tokens)"),
        default=8000,
        validators=[MinValueValidator(1000), MaxValueValidator(1_000_000)],
    )
    answer_reserve = models.PositiveIntegerField(
        _("answer reserve (tokens)"),
        default=800,
        validators=[MinValueValidator(100), MaxValueValidator(100_000)],
    )
    knowledge_share = models.PositiveSmallIntegerField(
        _("knowledge share of the budget (%)"),
        default=25,
        validators=[MaxValueValidator(60)],
        help_text=_(
            "The most of the context budget that excerpts from the shop's knowledge "
            "may take. 0 turns retrieval off."
        ),
    )
    page_query_params = models.CharField(
        _("page query parameters kept"),
        max_length=300,
        blank=True,
        help_text=_(
            "The visitor's page is kept with each message without its query string, except "
            "the parameters named here (separated by commas), e.g. 'variant, size'. Never name "
            "one that can carry an e-mail address, a token or a session."
        ),
    )
    message_max_length = models.PositiveIntegerField(
        _("message length limit (characters)"),
        default=4000,
        validators=[MinValueValidator(50), MaxValueValidator(20_000)],
    )
    # visitors' photos and files (issue 33; memory.uploads, chatwidget.assistant.uploads)
    upload_max_bytes = models.PositiveIntegerField(
        _("largest photo or file from a visitor (bytes)"),
        default=10 * 1024 * 1024,
        validators=[MaxValueValidator(25 * 1024 * 1024)],
        help_text=_("0 turns uploads off. At most 25 MB (the proxies' body limit)."),
    )
    upload_max_count = models.PositiveSmallIntegerField(
        _("photos and files per conversation"),
        default=10,
        validators=[MaxValueValidator(100)],
    )
    model_accepts_images = models.BooleanField(
        _("the model accepts images"),
        default=False,
        help_text=_(
            "On: a visitor's photo is sent to the model with the message (as an image part). "
            "Turn on only for a model that reads images; PDFs are never sent."
        ),
    )
    verbatim_min_exchanges = models.PositiveSmallIntegerField(
        _("verbatim minimum (exchanges)"), default=3, validators=[MinValueValidator(1)]
    )
    condense_after_turns = models.PositiveSmallIntegerField(
        _("condense when this many turns are outside the verbatim window"),
        default=6,
        validators=[MinValueValidator(1)],
        help_text=_("The verbatim window is the newest turns kept word for word."),
    )
    verbatim_window_turns = models.PositiveSmallIntegerField(
        _("verbatim window (turns)"), default=12, validators=[MinValueValidator(6)]
    )
    staff_hours = models.CharField(
        _("staff hours"),
        max_length=200,
        blank=True,
        default="mon-fri 09:00-17:00",
        help_text=_(
            "When a person can answer, e.g. 'mon-fri 09:00-17:00; sat 10:00-14:00'. Empty: always."
        ),
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Berlin")
    # public holidays close the hours (chatwidget.sites.closures: the `holidays` package)
    holiday_country = models.CharField(
        _("public holidays of"),
        max_length=3,
        blank=True,
        choices=country_choices,
        help_text=_("The team is away on this country's public holidays. Empty: none."),
    )
    holiday_subdivision = models.CharField(
        _("region"),
        max_length=10,
        blank=True,
        help_text=_(
            "A region's holidays too, as its code in the holidays calendar, e.g. BY for "
            "Bavaria or NW for North Rhine-Westphalia. Empty: national holidays only."
        ),
    )
    # inactivity (handover.services.inactivity): off by default, as in Chatwoot and Intercom,
    # so an upgrade never starts closing conversations by itself
    inactivity_followup_minutes = models.PositiveIntegerField(
        _("follow-up after (minutes)"),
        default=0,
        validators=[MaxValueValidator(7 * 24 * 60)],
        help_text=_(
            "When the visitor has not answered the assistant or the team for this long, ask "
            "once whether there is anything else. 0: never."
        ),
    )
    inactivity_resolve_minutes = models.PositiveIntegerField(
        _("resolve after the follow-up (minutes)"),
        default=0,
        validators=[MaxValueValidator(7 * 24 * 60)],
        help_text=_(
            "Close the conversation (and resolve its case, with the rating request) when the "
            "visitor has not answered the follow-up for this long. 0: never."
        ),
    )
    inactivity_staff_cases = models.BooleanField(
        _("also for conversations with a person"),
        default=False,
        help_text=_(
            "Off: a conversation a team member has taken gets neither the follow-up nor the "
            "automatic resolution; the team resolves it."
        ),
    )
    # the widget's look (chatwidget/theme.py checks the colour's contrast)
    theme_primary = models.CharField(
        _("primary colour"),
        max_length=7,
        default="#1f4fd1",
        validators=[validate_primary_colour],
        help_text=_(
            "Launcher, header and the visitor's messages, with white text on it: "
            "needs a contrast of at least 4.5:1 with white."
        ),
    )
    theme_position = models.CharField(
        _("position"),
        max_length=5,
        default="right",
        choices=[("right", _("Bottom right")), ("left", _("Bottom left"))],
    )
    theme_scheme = models.CharField(
        _("colour scheme"),
        max_length=5,
        default="auto",
        choices=[
            ("auto", _("Follow the visitor's device (light or dark)")),
            ("light", _("Always light")),
            ("dark", _("Always dark")),
        ],
    )
    launcher_label = models.CharField(
        _("launcher label"),
        max_length=40,
        blank=True,
        help_text=_("Text next to the chat icon, e.g. 'Questions?'. Empty: the icon only."),
    )
    operator_name = models.CharField(
        _("operator"),
        max_length=200,
        blank=True,
        help_text=_("Who runs this chat service; shown on the privacy page."),
    )
    operator_contact = models.TextField(
        _("operator contact"),
        max_length=500,
        blank=True,
        help_text=_("Postal address and e-mail for privacy questions; shown on the privacy page."),
    )
    # The key of the `identity` signature (DESIGN.md, hello): the shop's server signs its
    # signed-in customer with it. Stored as it is (the server computes the HMAC with it);
    # admin shows it once, after it is made or rotated (chatwidget.sites.identity). Empty:
    # none made yet, so no identity verifies.
    identity_secret = models.CharField(max_length=64, blank=True, default="", editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "chatwidget_site"  # the table keeps its name from before the move
        verbose_name = _("site")
        verbose_name_plural = _("sites")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if not isinstance(self.allowed_origins, list):
            raise ValidationError({"allowed_origins": _("Enter a list of origins.")})
        for origin in self.allowed_origins:
            validate_origin(origin)
        try:
            validate_staff_hours(self.staff_hours)
        except ValidationError as exc:
            raise ValidationError({"staff_hours": exc.messages}) from None
        validate_starter_choices(self.starter_choices)
        validate_holiday_region(country=self.holiday_country, subdivision=self.holiday_subdivision)
        if self.inactivity_resolve_minutes and not self.inactivity_followup_minutes:
            raise ValidationError(
                {
                    "inactivity_resolve_minutes": _(
                        "Set the follow-up first: a conversation is resolved only after it."
                    )
                }
            )
        if self.answer_reserve >= self.context_budget // 2:
            raise ValidationError(
                {"answer_reserve": _("The answer reserve must be under half the budget.")}
            )


class ClosedDay(models.Model):
    """Days the owner closed (a company outing, the summer break): the team is away all of
    them, whatever the weekly hours say. `last_day` empty: one day."""

    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="closed_days")
    first_day = models.DateField(_("from"))
    last_day = models.DateField(_("until"), null=True, blank=True)
    reason = models.CharField(
        _("reason"), max_length=200, blank=True, help_text=_("For the team; visitors see none.")
    )

    class Meta:
        verbose_name = _("closed day")
        verbose_name_plural = _("closed days")
        ordering = ["first_day"]
        indexes = [models.Index(fields=["site", "first_day"], name="sites_closed_site_first")]

    def __str__(self) -> str:
        return (
            str(self.first_day) if not self.last_day else f"{self.first_day}\u2013{self.last_day}"
        )

    def clean(self) -> None:
        if self.last_day and self.first_day and self.last_day < self.first_day:
            raise ValidationError({"last_day": _("The last day comes after the first.")})


class AwayMessage(models.Model):
    """What a visitor reads when they ask for a person while the team is away, in one
    language. Without one for the visitor's language they read the standard sentence in
    it (handover.services.notices); the time the team is back follows either."""

    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="away_messages")
    language = models.CharField(_("language"), max_length=2, choices=Site.Language.choices)
    text = models.CharField(
        _("away message"),
        max_length=500,
        help_text=_("E.g. 'Our team is on holiday.' When the team is back is added to it."),
    )

    class Meta:
        verbose_name = _("away message")
        verbose_name_plural = _("away messages")
        ordering = ["language"]
        constraints = [
            models.UniqueConstraint(fields=["site", "language"], name="sites_away_one_per_language")
        ]

    def __str__(self) -> str:
        return self.get_language_display()
