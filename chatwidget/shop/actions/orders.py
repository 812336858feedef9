"""The order-status lookup a shop connection brings (issue 29), with no schema to write.

It is a shop action like an Owner's (chatwidget.shop.actions.tools adds its definition):
the same admission (the order number must be the visitor's words; the e-mail, the second
factor, typed by the visitor or from a verified identity, `admission._words_check`), the
same limits per conversation, address and site, the same check of the answer (the order's
e-mail must equal the visitor's, else "not found", exactly as for an unknown number) and the
same declared answer fields: status, items and tracking, never the address or payment.
Only the request differs: the connection's platform is asked, in a worker thread.
"""

from __future__ import annotations

import time

from asgiref.sync import sync_to_async

from chatwidget.shop.actions.http import HttpResult
from chatwidget.shop.models.actions import ActionCall
from chatwidget.shop.models.connections import Connection
from chatwidget.shop.platforms.base import PlatformError
from chatwidget.shop.platforms.registry import platform_for

Outcome = ActionCall.Outcome
TOOL_NAME = "order_status"
ANSWER_FIELDS = ["order_number", "status", "placed_at", "items", "tracking"]
PARAMETERS = {
    "type": "object",
    "properties": {
        "order_number": {  # with a digit: "1042", "#1042", "SO-1042", never a word
            "type": "string",
            "pattern": "^#?[A-Za-z-]{0,8}[0-9][A-Za-z0-9-]{0,23}$",
        },
        "email": {"type": "string", "maxLength": 254},
    },
    "required": ["order_number"],  # the e-mail may come from a verified identity
}
DESCRIPTION = (
    "The status, items and tracking of the visitor's order. Needs the order number and the "
    "e-mail address of the order, both as the visitor wrote them: ask for what is missing."
)


def order_tool_config(connection: Connection) -> dict:
    """The action config (as tools.action_config) of the connection's order lookup."""
    return {
        "id": None,
        "connection": connection.pk,
        "method": "GET",
        "url": "",
        "headers": {},
        "timeout": 10.0,
        "visitor_args": ["order_number"],
        "customer_data": True,
        "factors": {"email": "email"},
        "answer_fields": ANSWER_FIELDS,
        "parameters": PARAMETERS,
        "properties": list(PARAMETERS["properties"]),
    }


def _lookup(connection_id: int, number: str) -> HttpResult:
    started = time.monotonic()
    connection = Connection.objects.filter(pk=connection_id, enabled=True).first()
    if connection is None:
        return HttpResult(Outcome.NOT_CONFIGURED)
    try:
        order = platform_for(connection).order(number.lstrip("#"))
    except PlatformError as exc:
        outcome = (
            Outcome.NOT_CONFIGURED if exc.code == PlatformError.CREDENTIAL else Outcome.NETWORK
        )
        return HttpResult(outcome, latency_ms=int((time.monotonic() - started) * 1000))
    took = int((time.monotonic() - started) * 1000)
    if order is None:
        return HttpResult(Outcome.HTTP_ERROR, status_code=404, latency_ms=took)
    return HttpResult(Outcome.OK, data=order.answer(), status_code=200, latency_ms=took)


async def order_request(*, config: dict, arguments: dict) -> HttpResult:
    """Ask the connected platform for the order (never raises for what the shop does)."""
    return await sync_to_async(_lookup, thread_sensitive=False)(
        config["connection"], str(arguments.get("order_number", ""))
    )
