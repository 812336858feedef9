"""A contract fake of the Shopware 6 Admin API on 127.0.0.1, written from the published
documentation:

- https://shopware.stoplight.io/docs/admin-api/ZG9jOjEwODA3NjQx-authentication
  (`POST /api/oauth/token` with `grant_type=client_credentials`, `client_id`,
  `client_secret`: `{"token_type": "Bearer", "expires_in": 600, "access_token": ...}`; a
  wrong secret: 401 `invalid_client`)
- https://shopware.stoplight.io/docs/admin-api/ZG9jOjEwODA3NjQy-search-criteria
  (`POST /api/search/<entity>` with `page`, `limit`, `ids`, `filter` of type `equals`,
  `associations`, `total-count-mode`; the answer `{"total": n, "data": [...]}` with
  `Accept: application/json`)
- https://shopware.stoplight.io/docs/admin-api/ (entities: product with `children`,
  `options`, `seoUrls`, `price[{currencyId, gross, net}]`, `ean`, `productNumber`,
  `availableStock`; order with `orderNumber`, `orderCustomer.email`, `lineItems`,
  `deliveries[].trackingCodes`, `stateMachineState.technicalName`); a role without the
  privilege: 403 `FRAMEWORK__MISSING_PRIVILEGE_ERROR`
- https://developer.shopware.com/docs/guides/integrations-api/general-concepts/request-headers
  (`sw-language-id`: the entity in that language; a field without an explicit translation
  is null, `translated` holds the value with the system language's as fallback); the
  language entity with its `locale` association (`locale.code`, e.g. "de-DE")

Scenario knobs: `secret`, `privileges`, `token_lifetime_requests` (a token expires after
that many searches: the client must fetch a new one), `too_many_next`, `language()` (a
language of the shop) and `translate()` (a product's translation into it).
"""

from __future__ import annotations

import json
import secrets

from tests.shop.platforms.fakeserver import FakeServer

CLIENT_ID, CLIENT_SECRET = "SWIAFAKECLIENTID", "fake-client-secret"
EUR = "b7d2554b0ce847cd82f3ac9bd1c0dfca"
SYSTEM_LANGUAGE = "2fbb5fe2e29a4d70aa5854ce7ce3e20b"


def product(i: int, variants: int = 3, price: float = 29.9) -> dict:
    pid = f"{i:032x}"
    return {
        "id": pid,
        "parentId": None,
        "productNumber": f"SW{10000 + i}",
        "ean": f"42{i:011d}",
        "name": f"Oak board {i}",
        "translated": {"name": f"Oak board {i}", "description": f"<p>Solid oak, model {i}.</p>"},
        "price": [
            {"currencyId": EUR, "gross": price, "net": round(price / 1.19, 2), "linked": True}
        ],
        "stock": 5,
        "availableStock": 5,
        "available": True,
        "seoUrls": [{"seoPathInfo": f"Oak-board-{i}/SW{10000 + i}", "isCanonical": True}],
        "children": [
            {
                "id": f"{i:028x}{v:04x}",
                "parentId": pid,
                "productNumber": f"SW{10000 + i}.{v}",
                "ean": f"43{i:07d}{v:04d}",
                "price": None,
                "stock": (i + v) % 4,
                "availableStock": (i + v) % 4,
                "available": (i + v) % 4 > 0,
                "options": [{"translated": {"name": ["30 cm", "40 cm", "50 cm"][v % 3]}}],
            }
            for v in range(variants)
        ],
    }


class FakeShopware(FakeServer):
    def __init__(self, *, products: int = 0, variants: int = 3) -> None:
        self.products = {product(i, variants)["id"]: product(i, variants) for i in range(products)}
        self.cms = [
            {
                "id": "c1",
                "type": "page",
                "translated": {"name": "Shipping"},
                "sections": [
                    {
                        "position": 0,
                        "blocks": [
                            {
                                "position": 0,
                                "slots": [
                                    {
                                        "config": {
                                            "content": {
                                                "value": "<p>Free shipping from 50 EUR.</p>"
                                            }
                                        }
                                    }
                                ],
                            }
                        ],
                    }
                ],
            }
        ]
        self.orders = [
            {
                "orderNumber": "1042",
                "orderDateTime": "2026-11-20T10:00:00.000+00:00",
                "orderCustomer": {"email": "anna.meyer@example.com", "firstName": "Anna"},
                "stateMachineState": {"technicalName": "in_progress"},
                "deliveries": [
                    {
                        "trackingCodes": ["00340434161094042557"],
                        "stateMachineState": {"technicalName": "shipped"},
                        "shippingOrderAddress": {"street": "Hauptstr. 5"},
                    }
                ],
                "lineItems": [
                    {
                        "label": "Oak board 3",
                        "quantity": 1,
                        "payload": {"productNumber": "SW10003.1"},
                    }
                ],
                "transactions": [{"paymentMethod": {"name": "Invoice"}}],
            }
        ]
        self.languages = [{"id": SYSTEM_LANGUAGE, "name": "English", "locale": {"code": "en-GB"}}]
        self.translations: dict[str, dict[str, dict]] = {}  # product id -> language id -> fields
        self.secret = CLIENT_SECRET
        self.privileges = {"product", "order", "currency", "cms-page", "language"}
        self.token_lifetime_requests = 10_000
        self.too_many_next = 0
        self.tokens: dict[str, int] = {}
        self.requests: list[str] = []
        self.start()

    def put(self, i: int, variants: int = 3, price: float = 29.9) -> None:
        p = product(i, variants, price)
        self.products[p["id"]] = p

    def language(self, code: str) -> str:
        """Add a language with this locale code; its id."""
        lid = f"{len(self.languages):032x}"
        self.languages.append({"id": lid, "name": code, "locale": {"code": code}})
        return lid

    def translate(self, i: int, language: str, **fields: str) -> None:
        """A product's explicit translation (`name`, `description`) into a language id."""
        self.translations.setdefault(f"{i:032x}", {})[language] = fields

    def _in_language(self, row: dict, language: str) -> dict:
        fields = self.translations.get(row["id"], {}).get(language, {})
        return {
            **row,
            "name": fields.get("name"),
            "description": fields.get("description"),
            "translated": {**row["translated"], **fields},
        }

    def handle(self, method, path, query, headers, body):
        self.requests.append(path)
        if self.too_many_next:
            self.too_many_next -= 1
            return (
                429,
                {"errors": [{"status": "429", "code": "FRAMEWORK__RATE_LIMIT"}]},
                {"Retry-After": "1"},
            )
        data = json.loads(body or b"{}")
        if path == "/api/oauth/token" and method == "POST":
            if data.get("client_id") != CLIENT_ID or data.get("client_secret") != self.secret:
                return (
                    401,
                    {
                        "errors": [
                            {
                                "code": "0",
                                "status": "401",
                                "title": "Unauthorized",
                                "detail": "The client credentials are invalid.",
                            }
                        ]
                    },
                    {},
                )
            token = secrets.token_hex(8)
            self.tokens[token] = self.token_lifetime_requests
            return 200, {"token_type": "Bearer", "expires_in": 600, "access_token": token}, {}
        if not path.startswith("/api/search/"):
            return 404, {"errors": [{"status": "404", "code": "FRAMEWORK__ROUTE_NOT_FOUND"}]}, {}
        token = (headers.get("Authorization") or "").removeprefix("Bearer ")
        if self.tokens.get(token, 0) <= 0:
            return (
                401,
                {
                    "errors": [
                        {
                            "status": "401",
                            "title": "Unauthorized",
                            "detail": "Access token is invalid or expired",
                        }
                    ]
                },
                {},
            )
        self.tokens[token] -= 1
        entity = path.removeprefix("/api/search/")
        if entity not in self.privileges:
            return (
                403,
                {
                    "errors": [
                        {
                            "status": "403",
                            "code": "FRAMEWORK__MISSING_PRIVILEGE_ERROR",
                            "detail": f"{entity}:read",
                        }
                    ]
                },
                {},
            )
        return 200, self._search(entity, data, headers.get("sw-language-id")), {}

    def _search(self, entity: str, criteria: dict, language: str | None) -> dict:
        if entity == "product":
            rows = [self.products[k] for k in sorted(self.products)]
            if criteria.get("ids"):
                rows = [r for r in rows if r["id"] in criteria["ids"]]
            if language and language != SYSTEM_LANGUAGE:
                rows = [self._in_language(r, language) for r in rows]
        elif entity == "language":
            rows = self.languages
        elif entity == "order":
            rows = self.orders
            for f in criteria.get("filter") or []:
                rows = [r for r in rows if r.get(f["field"]) == f["value"]]
        elif entity == "currency":
            rows = [{"id": EUR, "isoCode": "EUR"}]
        else:
            rows = self.cms
        limit, page = int(criteria.get("limit") or 25), int(criteria.get("page") or 1)
        return {"total": len(rows), "data": rows[(page - 1) * limit : page * limit]}
