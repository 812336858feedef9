"""Shop actions: what the Owner configures (Action, ActionPolicy) and what each call leaves
behind (ActionCall, linked to the context trace of the answer that made it).

Secrets are never stored: a header value names environment variables (`{env:SHOP_API_KEY}`)
that are read when the call is made, from the operator's allow-list; action_request.py says
what a request may contain (checked on save and again on each call).

A lookup of a customer's data (an order, an account) is protected by default (issue 25):
it needs a second factor the visitor wrote (the order's e-mail or postcode), which the
shop's answer must match, and the model sees only the answer's declared fields
(chatwidget.shop.actions.protect).
"""

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from chatwidget.shop.models.action_request import (
    URL_ARG_RE,
    headers_problem,
    url_template_problem,
)

NAME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9_]{0,63}$")
RESERVED_NAMES = frozenset({"request_handover", "offer_choices"})
FIELD_PATH_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,4}$")


class Action(models.Model):
    """One call to the shop's API the model may make (an openai tool)."""

    class Method(models.TextChoices):
        GET = "GET", "GET"
        POST = "POST", "POST"

    site = models.ForeignKey(
        "sites.Site", on_delete=models.CASCADE, related_name="actions", verbose_name=_("site")
    )
    name = models.CharField(
        _("name"),
        max_length=64,
        help_text=_("The function name the model sees, e.g. order_status (letters, digits, _)."),
    )
    description = models.TextField(
        _("description for the model"),
        help_text=_("When to use it and what it returns, in one or two sentences."),
    )
    parameters = models.JSONField(
        _("arguments (JSON schema)"),
        default=dict,
        help_text=_(
            'An object schema, e.g. {"type": "object", "properties": {"order_number": '
            '{"type": "string"}}, "required": ["order_number"]}'
        ),
    )
    visitor_args = models.JSONField(
        _("arguments the visitor must have given"),
        default=list,
        blank=True,
        help_text=_(
            "Names of arguments whose values must occur in what the visitor wrote in "
            "this conversation (e.g. order number, postcode). Without them no call is "
            "made."
        ),
    )
    customer_data = models.BooleanField(
        _("returns a customer's data"),
        default=True,
        help_text=_(
            "An order or account lookup: it is made only with a second factor the visitor "
            "gave (below), which the shop's answer must match. Untick only for public data "
            "such as stock or prices."
        ),
    )
    factors = models.JSONField(
        _("second factor"),
        default=dict,
        blank=True,
        help_text=_(
            "Arguments that prove the visitor's claim, each with the field of the shop's "
            'answer it must match, e.g. {"email": "email", "postcode": "shipping.postcode"}. '
            "The visitor must have written at least one of them; when the answer's field "
            "differs, the lookup answers 'not found'."
        ),
    )
    answer_fields = models.JSONField(
        _("answer fields the assistant sees"),
        default=list,
        blank=True,
        help_text=_(
            'Fields of the shop\'s answer passed to the model, e.g. ["status", "items", '
            '"tracking"] (a.b for a nested field). Empty: every field except personal ones '
            "(names, addresses, e-mail, phone)."
        ),
    )
    method = models.CharField(
        _("HTTP method"), max_length=6, choices=Method.choices, default=Method.GET
    )
    url_template = models.CharField(
        _("URL template"),
        max_length=500,
        help_text=_(
            "e.g. https://shop.example.com/api/orders/{order_number}. Other arguments "
            "go in the query string (GET) or the JSON body (POST)."
        ),
    )
    headers = models.JSONField(
        _("headers"),
        default=dict,
        blank=True,
        help_text=_(
            'e.g. {"Authorization": "Bearer {env:SHOP_API_TOKEN}"}: secrets come from '
            "environment variables of the server and are never stored here."
        ),
    )
    timeout_seconds = models.FloatField(
        _("timeout (seconds)"),
        default=5.0,
        validators=[MinValueValidator(0.2), MaxValueValidator(30.0)],
    )
    enabled = models.BooleanField(_("enabled"), default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "chatwidget_action"  # the table keeps its name from before the move
        verbose_name = _("shop action")
        verbose_name_plural = _("shop actions")
        ordering = ["site", "name"]
        constraints = [models.UniqueConstraint(fields=["site", "name"], name="action_unique_name")]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if not NAME_RE.match(self.name or "") or self.name in RESERVED_NAMES:
            errors["name"] = _(
                "Letters, digits and _, starting with a letter; not a name "
                "the assistant uses itself."
            )
        params = self.parameters
        if (
            not isinstance(params, dict)
            or params.get("type") != "object"
            or not isinstance(params.get("properties", {}), dict)
        ):
            errors["parameters"] = _(
                'One argument per line ("name: what it is"), or a JSON schema of '
                '"type": "object" with "properties".'
            )
        properties = params.get("properties", {}) if isinstance(params, dict) else {}
        if not isinstance(self.visitor_args, list) or any(
            a not in properties for a in self.visitor_args
        ):
            errors["visitor_args"] = _("Names of arguments listed above.")
        if any(a not in properties for a in URL_ARG_RE.findall(self.url_template or "")):
            errors["url_template"] = _("Every {name} in the URL must be an argument.")
        url_error = url_template_problem(self.url_template or "")
        if url_error:
            errors["url_template"] = url_error
        errors.update(_protection_errors(self, properties))
        header_error = headers_problem(self.headers)
        if header_error:
            errors["headers"] = header_error
        if errors:
            raise ValidationError(errors)


def _protection_errors(action: Action, properties: dict) -> dict[str, Any]:
    """Why the second factor or the answer fields cannot be stored."""
    errors: dict[str, Any] = {}
    factors = action.factors
    if not isinstance(factors, dict) or any(
        name not in properties or not isinstance(path, str) or not FIELD_PATH_RE.match(path)
        for name, path in factors.items()
    ):
        errors["factors"] = _(
            'Arguments listed above, each with a field of the answer (e.g. "postcode = '
            'shipping.postcode").'
        )
    elif action.customer_data and not factors:
        errors["factors"] = _(
            'A lookup of a customer\'s data needs a second factor, e.g. "email = email" '
            '(or untick "returns a customer\'s data").'
        )
    fields = action.answer_fields
    if not isinstance(fields, list) or not all(
        isinstance(f, str) and FIELD_PATH_RE.match(f) for f in fields
    ):
        errors["answer_fields"] = _("Field names such as status, items or shipping.carrier.")
    return errors


class ActionPolicy(models.Model):
    """Per-site limits of shop actions (sites without a row get the defaults)."""

    site = models.OneToOneField(
        "sites.Site",
        on_delete=models.CASCADE,
        related_name="action_policy",
        verbose_name=_("site"),
    )
    result_max_tokens = models.PositiveIntegerField(
        _("result size (tokens)"),
        default=300,
        validators=[MinValueValidator(50), MaxValueValidator(4000)],
        help_text=_("A result longer than this is cut before the model sees it."),
    )
    calls_per_hour = models.PositiveIntegerField(
        _("calls per conversation and hour"),
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(200)],
    )

    class Meta:
        db_table = "chatwidget_actionpolicy"  # the table keeps its name from before the move
        verbose_name = _("shop action limits")
        verbose_name_plural = _("shop action limits")

    def __str__(self) -> str:
        return str(self.site)


class ActionCall(models.Model):
    """One call (or refused call) of an action: ids, outcome and sizes, never arguments,
    results or headers (those are in the redacted `tool` turn). Part of the context trace
    of the answer to `request_seq` (ContextTrace is keyed the same way; the answer flow may
    store that trace after the calls). Purged with the conversation."""

    class Outcome(models.TextChoices):
        OK = "ok", _("Answered")
        TIMEOUT = "timeout", _("Timed out")
        HTTP_ERROR = "http_error", _("Error status")
        MALFORMED = "malformed", _("Not JSON")
        NETWORK = "network", _("Not reachable")
        NOT_CONFIGURED = "not_configured", _("Not configured (secret or second factor)")
        NOT_FOUND = "not_found", _("Not found (or the second factor differs)")
        MISSING_ARGS = "missing_args", _("Arguments not given by the visitor")
        INVALID_ARGS = "invalid_args", _("Arguments that do not fit the schema")
        RATE_LIMITED = "rate_limited", _("Rate limited")
        ADDRESS_LIMITED = "address_limited", _("Rate limited (address or site)")

    conversation = models.ForeignKey(
        "memory.Conversation", on_delete=models.CASCADE, related_name="action_calls"
    )
    action = models.ForeignKey(Action, null=True, blank=True, on_delete=models.SET_NULL)
    name = models.CharField(max_length=64)
    request_seq = models.PositiveIntegerField()
    turn_seq = models.PositiveIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(default=0)
    tokens = models.PositiveIntegerField(default=0)  # of the result the model was sent
    cut = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "chatwidget_actioncall"  # the table keeps its name from before the move
        verbose_name = _("shop action call")
        verbose_name_plural = _("shop action calls")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} #{self.conversation_id}:{self.request_seq} {self.outcome}"
