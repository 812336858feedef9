"""The Site form in admin: settings an owner types, not JSON."""

import json

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from chatwidget.sites.models import Site, validate_origin


class OriginsField(forms.Field):
    """Allowed origins, one per line (commas and spaces also separate them; a pasted JSON
    list is read too): each checked as an origin, a trailing slash dropped, duplicates
    removed. Stored as the list the widget's origin check reads."""

    widget = forms.Textarea(attrs={"rows": 3, "cols": 60, "spellcheck": "false"})

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(value)
        return value

    def to_python(self, value) -> list[str]:
        text = "" if value in self.empty_values else str(value)
        items = text.replace(",", " ").split()
        if text.lstrip().startswith("["):
            try:
                items = [str(v) for v in json.loads(text)]
            except (ValueError, TypeError):
                pass
        origins: list[str] = []
        errors = []
        for item in items:
            origin = item.rstrip("/")
            try:
                validate_origin(origin)
            except ValidationError as exc:
                errors.extend(exc.messages)
                continue
            if origin.lower() not in (o.lower() for o in origins):
                origins.append(origin)
        if errors:
            raise ValidationError(errors)
        return origins


class SiteForm(forms.ModelForm):
    allowed_origins = OriginsField(
        label=_("allowed origins"),
        required=False,
        help_text=_(
            "One per line: the shop's address as the browser shows it, without a path, e.g. "
            "https://shop.example.com (add https://www.shop.example.com too if both are used)."
        ),
    )

    class Meta:
        model = Site
        fields = ["allowed_origins"]  # admin adds the fields of its fieldsets
