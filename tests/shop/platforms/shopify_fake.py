"""A contract fake of Shopify's Admin GraphQL API on 127.0.0.1, written from the published
documentation (the queries and fields the client sends, the answers' shapes):

- https://shopify.dev/docs/api/admin-graphql/latest/queries/products (cursor paging:
  `first`, `after`, `pageInfo { hasNextPage endCursor }`, `nodes`)
- https://shopify.dev/docs/api/admin-graphql/latest/queries/orders (`query: "name:#1042"`)
- https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits (`extensions.cost`
  with `requestedQueryCost` and `throttleStatus {maximumAvailable currentlyAvailable
  restoreRate}`; a throttled call: HTTP 200, `errors[0].extensions.code == "THROTTLED"`;
  429 with Retry-After)
- https://shopify.dev/docs/api/usage/authentication (`X-Shopify-Access-Token`; a wrong or
  revoked token: 401 `[API] Invalid API key or access token`)
- https://shopify.dev/docs/api/usage/access-scopes (a field outside the granted scopes:
  `errors[].extensions.code == "ACCESS_DENIED"`)
- https://shopify.dev/docs/apps/build/webhooks/subscribe/https (the HMAC header)
- https://shopify.dev/docs/api/admin-graphql/latest/queries/shopLocales (`shopLocales(
  published: true) { locale primary }`, scope read_locales)
- https://shopify.dev/docs/api/admin-graphql/latest/objects/Translation and
  https://shopify.dev/docs/apps/build/markets/manage-translated-content (a product's
  `translations(locale: "de") { key value }`: only the keys translated in that locale,
  e.g. `title` and `body_html`; scope read_translations)

It is not a GraphQL server: it tells the client's operations apart by their names and
answers them from its catalogue. Scenario knobs: `throttle_next` (THROTTLED answers to
give), `too_many_next` (429s), `fail_on_cursor` (a 500 for that page), `delete_after_first`
(a product deleted once the first page is served), `token`/`scopes`, `locales` (the
shop's locales) and `translate()` (a product's translations).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = "shpat_fake_token"
SECRET = "shopify-webhook-secret"
PATH = "/admin/api/2025-01/graphql.json"
ALL_SCOPES = [
    "read_products",
    "read_inventory",
    "read_orders",
    "read_content",
    "read_locales",
    "read_translations",
]
_TRANSLATIONS = re.compile(r'(\w+): translations\(locale: "([^"]+)"\) \{ key value \}')


def product(i: int, variants: int = 3, price: str = "19.90") -> dict:
    return {
        "id": f"gid://shopify/Product/{1000 + i}",
        "legacyResourceId": str(1000 + i),
        "handle": f"linen-shirt-{i}",
        "title": f"Linen shirt {i}",
        "descriptionHtml": f"<p>A light linen shirt, model {i}.</p>",
        "onlineStoreUrl": f"https://shop.example/products/linen-shirt-{i}",
        "vendor": "Leinenwerk",
        "productType": "Shirts",
        "tags": ["linen", "summer"],
        "variants": [
            {
                "id": f"gid://shopify/ProductVariant/{100000 + i * 10 + v}",
                "title": ["S", "M", "L", "XL"][v % 4],
                "sku": f"LS-{i}-{v}",
                "barcode": f"40{i:06d}{v:04d}",
                "price": price,
                "inventoryQuantity": (i + v) % 7,
                "availableForSale": (i + v) % 7 > 0,
            }
            for v in range(variants)
        ],
    }


def sign(body: bytes, secret: str = SECRET) -> str:
    return base64.b64encode(hmac.new(secret.encode(), body, hashlib.sha256).digest()).decode()


class FakeShopify:
    def __init__(self, *, products: int = 0, variants: int = 3) -> None:
        self.products = {1000 + i: product(i, variants) for i in range(products)}
        self.pages = [
            {
                "id": "gid://shopify/Page/1",
                "title": "Shipping",
                "handle": "shipping",
                "body": "<p>We ship within 2 days.</p>",
            }
        ]
        self.orders = [
            {
                "name": "#1042",
                "email": "anna.meyer@example.com",
                "displayFulfillmentStatus": "FULFILLED",
                "displayFinancialStatus": "PAID",
                "cancelledAt": None,
                "createdAt": "2026-11-20T10:00:00Z",
                "lineItems": {
                    "nodes": [{"title": "Linen shirt 3", "quantity": 1, "sku": "LS-3-1"}]
                },
                "fulfillments": [
                    {
                        "trackingInfo": [
                            {
                                "company": "DHL",
                                "number": "00340434161094042557",
                                "url": "https://www.dhl.de/track?00340434161094042557",
                            }
                        ]
                    }
                ],
                "shippingAddress": {"address1": "Hauptstr. 5", "city": "Berlin"},
                "paymentGatewayNames": ["paypal"],
            }
        ]
        self.locales = [{"locale": "en", "primary": True, "published": True}]
        self.translations: dict[int, dict[str, dict[str, str]]] = {}  # id -> locale -> key
        self.token = TOKEN
        self.scopes = list(ALL_SCOPES)
        self.throttle_next = 0
        self.too_many_next = 0
        self.retry_after = "1.0"
        self.fail_on_cursor: str | None = None
        self.delete_after_first: int | None = None
        self.requests: list[str] = []  # operation names
        self.asked: list[tuple[str, str]] = []  # the last query's (alias, locale) translations
        self.cursors: list[str | None] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, answer, headers = fake.handle(self.path, self.headers, body)
                raw = json.dumps(answer).encode()
                self.send_response(status)
                for k, v in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def translate(self, product_id: int, locale: str, **fields: str) -> None:
        """Register a product's translation (keys as Shopify's: title, body_html)."""
        self.translations.setdefault(product_id, {})[locale] = fields

    # --- answers -----------------------------------------------------------------------

    @staticmethod
    def _cost(requested: int = 100, available: float = 900.0) -> dict:
        return {
            "cost": {
                "requestedQueryCost": requested,
                "actualQueryCost": requested // 4,
                "throttleStatus": {
                    "maximumAvailable": 1000.0,
                    "currentlyAvailable": available,
                    "restoreRate": 50.0,
                },
            }
        }

    def handle(self, path, headers, body: bytes):
        if path.split("?")[0] != PATH:
            return 404, {"errors": "Not Found"}, {}
        if headers.get("X-Shopify-Access-Token") != self.token:
            return (
                401,
                {
                    "errors": "[API] Invalid API key or access token (unrecognized login "
                    "or wrong password)"
                },
                {},
            )
        request = json.loads(body)
        query, variables = request["query"], request.get("variables") or {}
        name = query.split("(")[0].split("{")[0].replace("query", "").strip() or "Check"
        with self.lock:
            self.requests.append(name)
            self.asked = _TRANSLATIONS.findall(query)  # [(alias, locale)]
            if self.too_many_next:
                self.too_many_next -= 1
                return (
                    429,
                    {"errors": "Exceeded 2 calls per second"},
                    {"Retry-After": self.retry_after},
                )
            if self.throttle_next:
                self.throttle_next -= 1
                return (
                    200,
                    {
                        "errors": [
                            {
                                "message": "Throttled",
                                "extensions": {
                                    "code": "THROTTLED",
                                    "documentation": "https://shopify.dev/api/usage/rate-limits",
                                },
                            }
                        ],
                        "extensions": self._cost(752, 40.0),
                    },
                    {},
                )
            return 200, self._answer(name, variables), {}

    def _denied(self, field: str, scope: str) -> dict:
        return {
            "errors": [
                {
                    "message": f"Access denied for {field} field. Required access: "
                    f"`{scope}` access scope.",
                    "extensions": {"code": "ACCESS_DENIED"},
                }
            ],
            "data": None,
            "extensions": self._cost(),
        }

    def _node(self, p: dict) -> dict:
        mine = self.translations.get(int(p["legacyResourceId"]), {})
        return {
            **p,
            "variants": {
                "pageInfo": {"hasNextPage": False, "endCursor": None},
                "nodes": p["variants"],
            },
            **{
                alias: [
                    {"key": k, "value": v, "locale": locale}
                    for k, v in mine.get(locale, {}).items()
                ]
                for alias, locale in self.asked
            },
        }

    def _answer(self, name: str, variables: dict) -> dict:
        shop = {"currencyCode": "EUR"}
        if name == "Check":
            return {
                "data": {
                    "shop": {"name": "Fake"},
                    "currentAppInstallation": {
                        "accessScopes": [{"handle": s} for s in self.scopes]
                    },
                },
                "extensions": self._cost(2),
            }
        if name == "Locales":
            if "read_locales" not in self.scopes:
                return self._denied("shopLocales", "read_locales")
            published = [
                {"locale": x["locale"], "primary": x["primary"]}
                for x in self.locales
                if x["published"]
            ]
            return {
                "data": {
                    "shopLocales": published,
                    "currentAppInstallation": {
                        "accessScopes": [{"handle": s} for s in self.scopes]
                    },
                },
                "extensions": self._cost(2),
            }
        if name == "Products":
            if "read_products" not in self.scopes:
                return self._denied("products", "read_products")
            cursor = variables.get("cursor")
            self.cursors.append(cursor)
            if cursor and cursor == self.fail_on_cursor:
                return {"errors": [{"message": "Internal error"}], "data": None}
            after = int(base64.b64decode(cursor).decode()) if cursor else -1
            ids = sorted(i for i in self.products if i > after)
            page, more = ids[:25], len(ids) > 25
            nodes = [self._node(self.products[i]) for i in page]
            if self.delete_after_first is not None and cursor is None:
                self.products.pop(self.delete_after_first, None)
            end = base64.b64encode(str(page[-1]).encode()).decode() if page else None
            return {
                "data": {
                    "shop": shop,
                    "products": {
                        "pageInfo": {"hasNextPage": more, "endCursor": end},
                        "nodes": nodes,
                    },
                },
                "extensions": self._cost(777),
            }
        if name == "Nodes":
            nodes = []
            for gid in variables["ids"]:
                p = self.products.get(int(gid.rsplit("/", 1)[-1]))
                nodes.append(self._node(p) if p else None)
            return {"data": {"shop": shop, "nodes": nodes}, "extensions": self._cost(777)}
        if name == "Pages":
            return {
                "data": {
                    "pages": {
                        "pageInfo": {"hasNextPage": False, "endCursor": None},
                        "nodes": self.pages,
                    }
                },
                "extensions": self._cost(52),
            }
        if name == "Order":
            if "read_orders" not in self.scopes:
                return self._denied("orders", "read_orders")
            q = variables["q"]
            wanted = json.loads(q.split(":", 1)[1])
            nodes = [o for o in self.orders if o["name"] == wanted]
            return {"data": {"orders": {"nodes": nodes}}, "extensions": self._cost(60)}
        return {"errors": [{"message": f"unknown operation {name}"}], "data": None}
