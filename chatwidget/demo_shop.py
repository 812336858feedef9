"""The demo shop's API and its two actions: order status (the demo orders in
chatwidget/demo_data/orders.json) and stock (the sizes in the catalogue's texts).

The order API answers by number alone with the whole order (customer, address), as many
shop APIs do; the demo's `order_status` action is configured as every order lookup should
be (issue 25): it needs the order's e-mail address or postcode from the visitor, checks it
against the answer, and passes only status, items and tracking to the model.

`manage.py demoshop` answers /api/orders/<number> and /api/stock/<article> with
`demo_api_answer`; `manage.py demo` configures both as actions of the demo site
(`demo_actions_configure`), the key in the environment variable DEMO_SHOP_API_KEY (set by
`manage.py demo` for both processes; never stored).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from django.conf import settings

from chatwidget.shop.actions.tools import site_actions_forget
from chatwidget.shop.models.actions import Action
from chatwidget.sites.models import Site

DEMO_DATA = Path(__file__).resolve().parent / "demo_data"
API_KEY_ENV = "DEMO_SHOP_API_KEY"
_SIZE = re.compile(r"size (\w+): ([^;)]+)")

ORDER_STATUS: dict[str, Any] = {
    "name": "order_status",
    "description": "The status of one of the visitor's orders in the shop (shipped, "
    "processing, delivered) with items, carrier, tracking number and dates. Only with the "
    "order number the visitor gave and the order's e-mail address or delivery postcode, "
    "which the visitor must give too.",
    "parameters": {
        "type": "object",
        "properties": {
            "order_number": {
                "type": "string",
                "pattern": "^[0-9]{5}$",
                "examples": ["10452"],  # "(like 10452)" in the admin form
                "description": "The five-digit order number.",
            },
            "postcode": {
                "type": "string",
                "pattern": "^[0-9]{5}$",
                "examples": ["10115"],
                "description": "The order's delivery postcode, as the visitor gave it.",
            },
            "email": {
                "type": "string",
                "pattern": "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$",
                "maxLength": 120,
                "description": "The order's e-mail address, as the visitor gave it.",
            },
        },
        "required": ["order_number"],
    },
    "visitor_args": ["order_number"],
    "customer_data": True,
    "factors": {"postcode": "shipping.postcode", "email": "customer.email"},
    "answer_fields": [
        "order_number",
        "status",
        "items",
        "carrier",
        "tracking",
        "shipped_on",
        "expected_delivery",
        "expected_dispatch",
        "delivered_on",
    ],
    "path": "/api/orders/{order_number}",
}
STOCK: dict[str, Any] = {
    "name": "stock_check",
    "description": "Live stock of an article per size. Only with the article number the "
    "visitor gave (e.g. KU-2291-M).",
    "parameters": {
        "type": "object",
        "properties": {
            "article": {
                "type": "string",
                "pattern": "^[A-Z]{2}-[0-9]{4}-[A-Z]$",
                "description": "The article number.",
            },
            "size": {
                "type": "string",
                "pattern": "^(XS|S|M|L|XL|XXL)$",
                "description": "One size, if asked.",
            },
        },
        "required": ["article"],
    },
    "visitor_args": ["article"],
    "customer_data": False,  # public: stock per size
    "factors": {},
    "answer_fields": [],
    "path": "/api/stock/{article}",
}


def demo_egress_allow(*, shop_port: int) -> dict[str, str]:
    """The two settings the demo shop needs, as an operator would write them, each added to
    what is set already: its address (EGRESS_ALLOW_HOSTS; loopback is refused otherwise)
    and its key's variable (SHOP_ACTION_ENV_ALLOW)."""
    wanted = {"EGRESS_ALLOW_HOSTS": f"127.0.0.1:{shop_port}", "SHOP_ACTION_ENV_ALLOW": API_KEY_ENV}
    return {
        name: ",".join(dict.fromkeys([*getattr(settings, name), value]))
        for name, value in wanted.items()
    }


def demo_actions_configure(*, site: Site, shop_url: str) -> list[Action]:
    """Both demo actions on `site`, calling the demo shop at `shop_url` (idempotent)."""
    made = []
    for spec in (ORDER_STATUS, STOCK):
        action, _ = Action.objects.update_or_create(
            site=site,
            name=spec["name"],
            defaults={
                "description": spec["description"],
                "parameters": spec["parameters"],
                "visitor_args": spec["visitor_args"],
                "customer_data": spec["customer_data"],
                "factors": spec["factors"],
                "answer_fields": spec["answer_fields"],
                "method": Action.Method.GET,
                "url_template": shop_url.rstrip("/") + spec["path"],
                "headers": {"X-Api-Key": f"{{env:{API_KEY_ENV}}}"},
                "timeout_seconds": 3.0,
                "enabled": True,
            },
        )
        action.full_clean()
        made.append(action)
    site_actions_forget(site_id=site.pk)
    return made


def _orders() -> dict[str, dict]:
    with (DEMO_DATA / "orders.json").open(encoding="utf-8") as fh:
        return {o["order_number"]: o for o in json.load(fh)}


def _stock(article: str) -> dict[str, str] | None:
    with (DEMO_DATA / "catalogue.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                item = json.loads(line)
                if item["id"].upper() == article.upper():
                    return dict(_SIZE.findall(item["text"]))
    return None


def demo_api_answer(
    *, path: str, query: dict[str, str], api_key: str | None
) -> tuple[int, dict] | None:
    """(status, JSON) for a demo API path, or None when `path` is not one."""
    orders = re.fullmatch(r"/api/orders/([^/]+)", path)
    stock = re.fullmatch(r"/api/stock/([^/]+)", path)
    if not (orders or stock):
        return None
    expected = os.environ.get(API_KEY_ENV)
    if expected and api_key != expected:
        return 401, {"error": "unauthorised"}
    if orders:  # by number alone, the whole order: the action checks the second factor
        order = _orders().get(orders.group(1))
        if order is None:
            return 404, {"error": "no such order"}
        return 200, order
    sizes = _stock(stock.group(1))
    if sizes is None:
        return 404, {"error": "no such article"}
    size = (query.get("size") or "").upper()
    if size:
        return 200, {
            "article": stock.group(1).upper(),
            "size": size,
            "stock": sizes.get(size, "no such size"),
        }
    return 200, {"article": stock.group(1).upper(), "sizes": sizes}
