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
EMAIL = "(an e-mail address)"
EMAIL_SPEC = {"pattern": r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$", "maxLength": 120}
_LIKE = re.compile(r"\(like ([^()\s]{1,40})\)$")
_LIST_SPLIT = re.compile(r"[\s,;]+")


def example_pattern(example: str) -> str:
    """The pattern of values shaped like the example: 10452 -> ^[0-9]{5}$, KU-2291-M ->
    ^[A-Za-z]{2}\\-[0-9]{4}\\-[A-Za-z]{1}$ (the arguments check refuses the rest)."""
    parts = re.findall(r"[0-9]+|[A-Za-z]+|.", example)
    return (
        "^"
        + "".join(
            f"[0-9]{{{len(p)}}}"
            if p.isdigit()
            else f"[A-Za-z]{{{len(p)}}}"
            if p.isalpha()
            else re.escape(p)
            for p in parts
        )
        + "$"
    )


def _spec_words(spec: dict) -> str | None:
    """What a property's checks read as in a line ("(like 10452)"), or None if no words say them."""
    rest = {k: v for k, v in spec.items() if k not in ("type", "description")}
    if not rest:
        return ""
    if rest == EMAIL_SPEC:
        return EMAIL
    examples = rest.get("examples")
    if (
        set(rest) == {"pattern", "examples"}
        and isinstance(examples, list)
        and len(examples) == 1
        and isinstance(examples[0], str)
        and _LIKE.fullmatch(f"(like {examples[0]})")
        and rest["pattern"] == example_pattern(examples[0])
    ):
        return f"(like {examples[0]})"
    return None


def schema_lines(schema: Any) -> str | None:
    """The schema as argument lines, or None when lines cannot say it."""
    if not isinstance(schema, dict) or set(schema) - {"type", "properties", "required"}:
        return None
    properties = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    lines = []
    for name, spec in properties.items():
        if not isinstance(spec, dict) or spec.get("type", "string") != "string":
            return None
        words = _spec_words(spec)
        if words is None:
            return None
        line = " ".join(filter(None, [f"{name}:", spec.get("description", ""), words]))
        lines.append(line if name in required else f"{line} {OPTIONAL}")
    return "\n".join(lines)


def _argument(number: int, line: str) -> tuple[str, dict, bool]:
    name, _colon, description = line.partition(":")
    name, description = name.strip(), description.strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,63}", name):
        raise ValidationError(
            _('Line %(number)s: start with a name (letters, digits, _) and ":".'),
            params={"number": number},
        )
    spec: dict[str, Any] = {"type": "string"}
    optional = False
    while True:  # the marks at the end, in any order
        like = _LIKE.search(description)
        if description.endswith(OPTIONAL):
            optional, description = True, description[: -len(OPTIONAL)].strip()
        elif description.endswith(EMAIL):
            spec.update(EMAIL_SPEC)
            description = description[: -len(EMAIL)].strip()
        elif like:
            example = like.group(1)
            spec.update({"pattern": example_pattern(example), "examples": [example]})
            description = description[: like.start()].strip()
        else:
            break
    if description:
        spec["description"] = description
    return name, spec, optional


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
        if not raw.strip():
            continue
        name, spec, optional = _argument(number, raw.strip())
        if name in properties:
            raise ValidationError(
                _("Line %(number)s: %(name)s is named twice."),
                params={"number": number, "name": name},
            )
        properties[name] = {"type": "string", **{k: v for k, v in spec.items() if k != "type"}}
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
        label=_("Arguments"),
        widget=forms.Textarea(attrs={"rows": 4, "class": "vLargeTextField"}),
        required=False,
        help_text=_(
            "One per line: the name, a colon and what it is, e.g. "
            '"order_number: the number on the order confirmation (like 10452)". At the end '
            'of a line, "(like 10452)" accepts only values shaped like the example, "(an '
            'e-mail address)" only e-mail addresses, and "(optional)" lets the assistant '
            "leave it out. (A JSON schema is accepted too.)"
        ),
    )
    visitor_args = forms.CharField(
        label=_("Values the visitor must have written"),
        widget=forms.TextInput(attrs={"class": "vLargeTextField"}),
        required=False,
        help_text=_(
            "Argument names separated by commas, e.g. order_number. The assistant calls the "
            "action only when these values occur in what the visitor wrote."
        ),
    )
    factors = forms.CharField(
        label=_("Second factor"),
        widget=forms.Textarea(attrs={"rows": 2, "class": "vLargeTextField"}),
        required=False,
        help_text=_(
            'One per line: an argument, "=" and the field of the shop\'s answer it must '
            'match, e.g. "email = customer.email". The visitor must have written at least '
            "one of them."
        ),
    )
    answer_fields = forms.CharField(
        label=_("Answer fields the assistant sees"),
        widget=forms.TextInput(attrs={"class": "vLargeTextField"}),
        required=False,
        help_text=_(
            "Field names separated by commas, e.g. status, items, tracking (a.b for a nested "
            "field). Empty: every field except personal ones."
        ),
    )
    headers = forms.CharField(
        label=_("Headers"),
        widget=forms.Textarea(attrs={"rows": 2, "class": "vLargeTextField"}),
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
