"""The tools the assistant offers the model in every call, whatever the site configured:
handing the conversation to a person. The site's shop actions come from
chatwidget.shop.actions.tools."""

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
