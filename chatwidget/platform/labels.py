"""Quick-reply labels (issue 33): the one rule for what the widget may show as a button that
sends its label as the visitor's message, whoever offers it: the model (the `offer_choices`
tool) or the shop owner (a site's suggested first questions)."""

import re

MAX_LABELS = 5
MAX_LABEL_CHARS = 40

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")
_MARKUP = re.compile(r"[<>`*_\[\]]|https?://", re.IGNORECASE)


def label_clean(value: object) -> str:
    """`value` as a label: plain text (no markup, links or control characters), 1-40
    characters after whitespace is collapsed; "" when it is none."""
    if not isinstance(value, str):
        return ""
    label = " ".join(_CONTROL.sub(" ", value).split())
    if not label or len(label) > MAX_LABEL_CHARS or _MARKUP.search(label):
        return ""
    return label


def labels_clean(values: object) -> list[str]:
    """The labels of `values` the widget may show: each clean, each once (case-insensitive),
    at most five. Anything else is dropped: the model's arguments are untrusted input."""
    if not isinstance(values, list):
        return []
    labels: list[str] = []
    for value in values:
        label = label_clean(value)
        if label and label.casefold() not in (known.casefold() for known in labels):
            labels.append(label)
    return labels[:MAX_LABELS]
