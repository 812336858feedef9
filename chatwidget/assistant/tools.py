"""The tools the assistant offers the model in every call, whatever the site configured:
handing the conversation to a person, and quick replies (offer_choices). The site's shop
actions come from chatwidget.shop.actions.tools."""

from chatwidget.platform.labels import MAX_LABEL_CHARS, MAX_LABELS, labels_clean

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
                    "items": {"type": "string", "maxLength": MAX_LABEL_CHARS},
                    "maxItems": MAX_LABELS,
                    "description": "Plain-text labels, at most 40 characters each.",
                }
            },
            "required": ["choices"],
        },
    },
}


def choices_clean(arguments: object) -> list[str]:
    """The labels of an `offer_choices` call the widget may show (chatwidget.platform.labels)."""
    return labels_clean(arguments.get("choices") if isinstance(arguments, dict) else None)
