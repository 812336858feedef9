"""The shop action form in words, not JSON (issue 27): an Owner writes the arguments one per
line ("order_number: the number on the confirmation e-mail"), the headers as in an HTTP
request ("Authorization: Bearer {env:SHOP_API_TOKEN}"), the second factor as "email =
customer.email" and lists as names separated by commas.

Each text field cleans to the value the model stores (a JSON schema, a dict, a list), so the
model's own checks (chatwidget.shop.models.actions.Action.clean) still decide and report on
the field the Owner typed in. A schema the lines cannot say (types other than text, nested
objects) is shown and accepted as JSON, so nothing an API-made action holds is lost.
"""

import json
import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from chatwidget.shop.models.actions import Action

OPTIONAL = "(optional)"
_LIST_SPLIT = re.compile(r"[\s,;]+")


def schema_lines(schema: Any) -> str | None:
    """The schema as argument lines, or None when lines cannot say it."""
    if not isinstance(schema, dict) or set(schema) - {"type", "properties", "required"}:
        return None
    properties = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    lines = []
    for name, spec in properties.items():
        if not isinstance(spec, dict) or set(spec) - {"type", "description"}:
            return None
        if spec.get("type", "string") != "string":
            return None
        line = f"{name}: {spec.get('description', '')}".rstrip()
        lines.append(line if name in required else f"{line} {OPTIONAL}")
    return "\n".join(lines)


def lines_schema(text: str) -> dict:
    """Argument lines (or a JSON schema) to the JSON schema the model is given."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return json.loads(text)
        except ValueError as exc:
            raise ValidationError(_("Not valid JSON: %(error)s"), params={"error": exc}) from exc
    properties: dict[str, dict] = {}
    required = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        name, _colon, description = line.partition(":")
        name, description = name.strip(), description.strip()
        optional = description.endswith(OPTIONAL)
        if optional:
            description = description[: -len(OPTIONAL)].strip()
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,63}", name) or name in properties:
            raise ValidationError(
                _('Line %(number)s: start with a new name (letters, digits, _) and ":".'),
                params={"number": number},
            )
        properties[name] = (
            {"type": "string", "description": description} if description else {"type": "string"}
        )
        if not optional:
            required.append(name)
    return {"type": "object", "properties": properties, "required": required}


def header_lines(headers: Any) -> str:
    if not isinstance(headers, dict):
        return json.dumps(headers)
    return "\n".join(f"{name}: {value}" for name, value in headers.items())


def lines_headers(text: str) -> dict:
    headers = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        name, colon, value = raw.partition(":")
        if not colon or not name.strip():
            raise ValidationError(
                _('Line %(number)s: write "Name: value".'), params={"number": number}
            )
        headers[name.strip()] = value.strip()
    return headers


def factor_lines(factors: Any) -> str:
    if not isinstance(factors, dict):
        return json.dumps(factors)
    return "\n".join(f"{name} = {path}" for name, path in factors.items())


def lines_factors(text: str) -> dict:
    factors = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        name, equals, path = raw.partition("=")
        if not equals or not name.strip() or not path.strip():
            raise ValidationError(
                _('Line %(number)s: write "argument = field of the answer".'),
                params={"number": number},
            )
        factors[name.strip()] = path.strip()
    return factors


def names_list(text: str) -> list[str]:
    """Names separated by commas or spaces (a JSON list is read as one too)."""
    text = text.strip()
    if text.startswith("["):
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if isinstance(value, list):
            return [str(name) for name in value]
    return [name for name in _LIST_SPLIT.split(text) if name]


class ActionForm(forms.ModelForm):
    parameters = forms.CharField(
        label=_("arguments"),
        widget=forms.Textarea(attrs={"rows": 4, "class": "vLargeTextField"}),
        required=False,
        help_text=_(
            "One per line: the name, a colon and what it is, e.g. "
            '"order_number: the number on the order confirmation". Add "(optional)" at the '
            "end of a line the assistant may leave out. (A JSON schema is accepted too.)"
        ),
    )
    visitor_args = forms.CharField(
        label=_("values the visitor must have written"),
        required=False,
        help_text=_(
            "Argument names separated by commas, e.g. order_number. The assistant calls the "
            "action only when these values occur in what the visitor wrote."
        ),
    )
    factors = forms.CharField(
        label=_("second factor"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text=_(
            'One per line: an argument, "=" and the field of the shop\'s answer it must '
            'match, e.g. "email = customer.email". The visitor must have written at least '
            "one of them."
        ),
    )
    answer_fields = forms.CharField(
        label=_("answer fields the assistant sees"),
        required=False,
        help_text=_(
            "Field names separated by commas, e.g. status, items, tracking (a.b for a nested "
            "field). Empty: every field except personal ones."
        ),
    )
    headers = forms.CharField(
        label=_("headers"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text=_(
            'One per line, as in a request: "Authorization: Bearer {env:SHOP_API_TOKEN}". '
            "Secrets come from environment variables of the server, never stored here."
        ),
    )

    class Meta:
        model = Action
        fields = "__all__"  # noqa: DJ007 - the admin's fieldsets choose and order

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        instance = self.instance
        if self.is_bound:
            return
        lines = schema_lines(instance.parameters or {"type": "object", "properties": {}})
        self.initial["parameters"] = (
            lines if lines is not None else json.dumps(instance.parameters, indent=2)
        )
        self.initial["visitor_args"] = ", ".join(instance.visitor_args or [])
        self.initial["factors"] = factor_lines(instance.factors or {})
        self.initial["answer_fields"] = ", ".join(instance.answer_fields or [])
        self.initial["headers"] = header_lines(instance.headers or {})

    def clean_parameters(self) -> dict:
        return lines_schema(self.cleaned_data["parameters"])

    def clean_visitor_args(self) -> list[str]:
        return names_list(self.cleaned_data["visitor_args"])

    def clean_factors(self) -> dict:
        return lines_factors(self.cleaned_data["factors"])

    def clean_answer_fields(self) -> list[str]:
        return names_list(self.cleaned_data["answer_fields"])

    def clean_headers(self) -> dict:
        return lines_headers(self.cleaned_data["headers"])
