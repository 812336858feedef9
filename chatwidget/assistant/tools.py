"""The tools the assistant offers the model in every call, whatever the site configured:
handing the conversation to a person, and quick replies (offer_choices). The site's shop
actions come from chatwidget.shop.actions.tools."""

import re

HANDOVER_TOOL = {
    "type": "function",
    "function": {
        "name": "request_handover",
        "description": "Hand the conversation over to a human member of the shop's team when "
        "the visitor asks for a person or the request needs one.",
        "parameters": {
            "type": "object",
            "properties": {"reason": {"type": "string", "description": "Why, in one sentence."}},
            "required": ["reason"],
        },
    },
}

# Quick replies (issue 33): the model offers the visitor up to five short answers as buttons;
# a click sends the label as the visitor's message.
MAX_CHOICES = 5
MAX_CHOICE_CHARS = 40

OFFER_CHOICES_TOOL = {
    "type": "function",
    "function": {
        "name": "offer_choices",
        "description": "Offer the visitor up to five short answers as buttons under your reply "
        "(for example sizes or colours to choose from) when the next step is one of a few "
        "choices. Write the question in your reply; a click sends the label as the visitor's "
        "message.",
        "parameters": {
            "type": "object",
            "properties": {
                "choices": {
                    "type": "array",
                    "items": {"type": "string", "maxLength": MAX_CHOICE_CHARS},
                    "maxItems": MAX_CHOICES,
                    "description": "Plain-text labels, at most 40 characters each.",
                }
            },
            "required": ["choices"],
        },
    },
}

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")
_MARKUP = re.compile(r"[<>`*_\[\]]|https?://", re.IGNORECASE)


def choices_clean(arguments: object) -> list[str]:
    """The labels of an `offer_choices` call the widget may show: plain text (no markup,
    links or control characters), 1-40 characters after whitespace is collapsed, each once,
    at most five. Anything else is dropped: the model's arguments are untrusted input."""
    raw = arguments.get("choices") if isinstance(arguments, dict) else None
    if not isinstance(raw, list):
        return []
    labels: list[str] = []
    for item in raw:
        if not isinstance(item, str):
            continue
        label = " ".join(_CONTROL.sub(" ", item).split())
        if not label or len(label) > MAX_CHOICE_CHARS or _MARKUP.search(label):
            continue
        if label.casefold() not in (known.casefold() for known in labels):
            labels.append(label)
    return labels[:MAX_CHOICES]
