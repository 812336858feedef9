"""A contract fake of the WooCommerce REST API v3 and WordPress pages on 127.0.0.1, written
from the published documentation:

- https://woocommerce.github.io/woocommerce-rest-api-docs/#authentication-over-https
  (consumer key and secret as HTTP Basic; an unknown key: 401
  `woocommerce_rest_authentication_error`; a key without Read permission: 401
  `woocommerce_rest_cannot_view`)
- https://woocommerce.github.io/woocommerce-rest-api-docs/#pagination (`per_page`, `page`,
  headers `X-WP-Total` and `X-WP-TotalPages`)
- https://woocommerce.github.io/woocommerce-rest-api-docs/#list-all-products (`include`,
  `type: variable`, `variations`), #list-all-product-variations, #retrieve-an-order
  (`billing.email`, `line_items`, `meta_data`), #webhooks (`X-WC-Webhook-Signature`)
- https://developer.wordpress.org/rest-api/reference/pages/#list-pages

Scenario knobs: `key`/`secret`, `read` (the key's Read permission), `too_many_next` (429s
with Retry-After), `delete_after_first` (a product deleted once page 1 is served: page
paging then moves the next product onto a page already read).
"""

from __future__ import annotations

import base64
import math

from tests.shop.platforms.fakeserver import FakeServer

KEY, SECRET = "ck_fake_key", "cs_fake_secret"
API = "/wp-json/wc/v3"


def product(i: int, variants: int = 3, price: str = "19.90") -> tuple[dict, list[dict]]:
    pid = 500 + i
    parent = {
        "id": pid,
        "name": f"Wool socks {i}",
        "slug": f"wool-socks-{i}",
        "type": "variable",
        "status": "publish",
        "permalink": f"https://woo.example/product/wool-socks-{i}/",
        "description": f"<p>Warm wool socks, model {i}.</p>",
        "short_description": "",
        "categories": [{"id": 9, "name": "Socks"}],
        "tags": [{"id": 3, "name": "wool"}],
        "variations": [pid * 100 + v for v in range(variants)],
    }
    rows = [
        {
            "id": pid * 100 + v,
            "sku": f"WS-{i}-{v}",
            "global_unique_id": f"41{i:06d}{v:04d}",
            "price": price,
            "manage_stock": True,
            "stock_quantity": (i + v) % 5,
            "stock_status": "instock" if (i + v) % 5 else "outofstock",
            "attributes": [{"name": "Size", "option": ["36-38", "39-41", "42-44"][v % 3]}],
        }
        for v in range(variants)
    ]
    return parent, rows


class FakeWooCommerce(FakeServer):
    def __init__(self, *, products: int = 0, variants: int = 3) -> None:
        self.products: dict[int, dict] = {}
        self.variations: dict[int, list[dict]] = {}
        for i in range(products):
            self.put(i, variants)
        self.pages = [
            {
                "id": 7,
                "title": {"rendered": "Returns"},
                "link": "https://woo.example/returns/",
                "content": {"rendered": "<p>30 days to return.</p>"},
            }
        ]
        self.orders = {
            1042: {
                "id": 1042,
                "number": "1042",
                "status": "completed",
                "date_created_gmt": "2026-11-20T10:00:00",
                "billing": {"email": "anna.meyer@example.com", "address_1": "Hauptstr. 5"},
                "payment_method_title": "PayPal",
                "line_items": [{"name": "Wool socks 3", "quantity": 2, "sku": "WS-3-1"}],
                "meta_data": [
                    {
                        "key": "_wc_shipment_tracking_items",
                        "value": [
                            {"tracking_provider": "DHL", "tracking_number": "00340434161094042557"}
                        ],
                    }
                ],
            }
        }
        self.key, self.secret, self.read = KEY, SECRET, True
        self.too_many_next = 0
        self.delete_after_first: int | None = None
        self.requests: list[str] = []
        self.start()

    def put(self, i: int, variants: int = 3, price: str = "19.90") -> None:
        parent, rows = product(i, variants, price)
        self.products[parent["id"]] = parent
        self.variations[parent["id"]] = rows

    def handle(self, method, path, query, headers, body):
        self.requests.append(path)
        if not path.startswith(("/wp-json/wc/v3/", "/wp-json/wp/v2/")):
            return 404, {"code": "rest_no_route", "message": "No route was found"}, {}
        if self.too_many_next:
            self.too_many_next -= 1
            return 429, {"code": "too_many_requests"}, {"Retry-After": "1"}
        if path == "/wp-json/wp/v2/pages":
            return self._paged(self.pages, query)
        auth = headers.get("Authorization") or ""
        expected = "Basic " + base64.b64encode(f"{self.key}:{self.secret}".encode()).decode()
        if auth != expected:
            return (
                401,
                {
                    "code": "woocommerce_rest_authentication_error",
                    "message": "Consumer key is invalid.",
                    "data": {"status": 401},
                },
                {},
            )
        if not self.read:
            return (
                401,
                {
                    "code": "woocommerce_rest_cannot_view",
                    "message": "Sorry, you cannot list resources.",
                    "data": {"status": 401},
                },
                {},
            )
        return self._route(path, query)

    def _route(self, path, query):
        if path == f"{API}/settings/general/woocommerce_currency":
            return 200, {"id": "woocommerce_currency", "value": "EUR"}, {}
        if path == f"{API}/products":
            if "include" in query:
                ids = [int(x) for x in query["include"].split(",") if x]
                return 200, [self.products[i] for i in ids if i in self.products], {}
            rows = [self.products[i] for i in sorted(self.products)]
            answer = self._paged(rows, query)
            if self.delete_after_first is not None and query.get("page", "1") == "1":
                self.products.pop(self.delete_after_first, None)
            return answer
        parts = path.removeprefix(API + "/").split("/")
        if parts[0] == "products" and len(parts) == 3 and parts[2] == "variations":
            return self._paged(self.variations.get(int(parts[1]), []), query)
        if parts[0] == "orders" and len(parts) == 1:
            return self._paged(list(self.orders.values()), query)
        if parts[0] == "orders" and len(parts) == 2 and parts[1].isdigit():
            order = self.orders.get(int(parts[1]))
            if order is None:
                return (
                    404,
                    {
                        "code": "woocommerce_rest_shop_order_invalid_id",
                        "message": "Invalid ID.",
                        "data": {"status": 404},
                    },
                    {},
                )
            return 200, order, {}
        return 404, {"code": "rest_no_route"}, {}

    @staticmethod
    def _paged(rows: list, query: dict):
        per_page, page = int(query.get("per_page", 10)), int(query.get("page", 1))
        pages = max(1, math.ceil(len(rows) / per_page))
        chunk = rows[(page - 1) * per_page : page * per_page]
        return 200, chunk, {"X-WP-Total": str(len(rows)), "X-WP-TotalPages": str(pages)}
