import secrets
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

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
        if self.answer_reserve >= self.context_budget // 2:
            raise ValidationError(
                {"answer_reserve": _("The answer reserve must be under half the budget.")}
            )
