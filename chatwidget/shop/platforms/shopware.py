"""Shopware 6: the Admin API with an integration's client credentials.

Written from the published documentation:
- https://shopware.stoplight.io/docs/admin-api/ZG9jOjEwODA3NjQx-authentication
  (`POST /api/oauth/token`, `grant_type=client_credentials`, a bearer token of 10 minutes)
- https://shopware.stoplight.io/docs/admin-api/ZG9jOjEwODA3NjQy-search-criteria
  (`POST /api/search/<entity>` with `page`, `limit`, `filter`, `associations`, `ids`,
  `total-count-mode`; the answer's `data` and `total`)
- https://developer.shopware.com/docs/guides/integrations-api/ (integrations: Settings >
  System > Integrations; the ACL role needs read on product, order, cms_page, currency)

Shopware's app webhooks need a registered app, so a connection syncs on the schedule only.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from chatwidget.shop.platforms.base import (
    Batch,
    ContentPage,
    Order,
    PlatformError,
    Product,
    Variant,
)
from chatwidget.shop.platforms.http import Session

LIMIT = 100
PRODUCT_CRITERIA = {
    "associations": {"children": {"associations": {"options": {}}}, "seoUrls": {}},
    "filter": [{"type": "equals", "field": "parentId", "value": None}],
    "sort": [{"field": "id", "order": "ASC"}],
    "total-count-mode": 1,
}
ORDER_ASSOCIATIONS: dict[str, dict] = {
    "lineItems": {},
    "deliveries": {"associations": {"stateMachineState": {}}},
    "orderCustomer": {},
    "stateMachineState": {},
}


class Shopware:
    def __init__(self, *, base_url: str, client_id: str, client_secret: str, **session: Any):
        self.base_url = base_url.rstrip("/")
        self.credentials = {
            "grant_type": "client_credentials",
            "client_id": client_id,
            "client_secret": client_secret,
        }
        self.session = Session(base_url=self.base_url, **session)
        self.expires = 0.0
        self.currencies: dict[str, str] | None = None

    @property
    def requests(self) -> int:
        return self.session.requests

    def _token(self) -> None:
        if time.monotonic() < self.expires:
            return
        try:
            got = self.session.json("POST", "/api/oauth/token", json=self.credentials)
        except PlatformError as exc:
            if exc.code in (PlatformError.SCOPE, PlatformError.NETWORK) and "400" in exc.detail:
                raise PlatformError(PlatformError.CREDENTIAL, "invalid_client") from None
            raise
        if not isinstance(got, dict) or not got.get("access_token"):
            raise PlatformError(PlatformError.URL, "no token")
        self.session.headers["Authorization"] = f"Bearer {got['access_token']}"
        self.expires = time.monotonic() + float(got.get("expires_in") or 600) - 30

    def _search(self, entity: str, criteria: dict) -> dict:
        self._token()
        try:
            got = self.session.json("POST", f"/api/search/{entity}", json=criteria)
        except PlatformError as exc:
            if exc.code != PlatformError.CREDENTIAL:
                raise
            self.expires = 0.0  # the token expired early: one new one
            self._token()
            got = self.session.json("POST", f"/api/search/{entity}", json=criteria)
        if not isinstance(got, dict):
            raise PlatformError(PlatformError.MALFORMED, "not an object")
        return got

    def check(self) -> None:
        self._token()
        self._search("product", {"limit": 1})
        self._search("order", {"limit": 1})

    def _currency(self, currency_id: str) -> str:
        if self.currencies is None:
            got = self._search("currency", {"limit": 100})
            self.currencies = {c.get("id"): c.get("isoCode", "") for c in got.get("data") or []}
        return self.currencies.get(currency_id, "")

    def products(self, cursor: str | None) -> Batch[Product]:
        page = int(cursor or 1)
        got = self._search("product", {**PRODUCT_CRITERIA, "page": page, "limit": LIMIT})
        items = [self._product(p) for p in got.get("data") or []]
        more = page * LIMIT < int(got.get("total") or 0)
        return Batch(items, str(page + 1) if more else None)

    def products_by_ids(self, ids: list[str]) -> list[Product]:
        found: list[Product] = []
        for i in range(0, len(ids), LIMIT):
            criteria = {**PRODUCT_CRITERIA, "ids": ids[i : i + LIMIT], "limit": LIMIT}
            found += [self._product(p) for p in self._search("product", criteria).get("data") or []]
        return found

    def _price(self, row: dict, parent: dict) -> tuple[str, str]:
        prices = row.get("price") or parent.get("price") or []
        if not prices:
            return "", ""
        return str(prices[0].get("gross", "")), self._currency(prices[0].get("currencyId", ""))

    def _variant(self, row: dict, parent: dict) -> Variant:
        price, currency = self._price(row, parent)
        stock = row.get("availableStock", row.get("stock"))
        return Variant(
            id=str(row.get("id")),
            title=" / ".join(
                str((o.get("translated") or {}).get("name") or o.get("name") or "")
                for o in row.get("options") or []
            ),
            sku=row.get("productNumber") or "",
            gtin=row.get("ean") or parent.get("ean") or "",
            price=price,
            currency=currency,
            stock=stock if isinstance(stock, int) else None,
            available=bool(row.get("available", True)),
        )

    def _product(self, p: dict) -> Product:
        translated = p.get("translated") or {}
        rows = p.get("children") or [p]
        seo = [s for s in p.get("seoUrls") or [] if s.get("isCanonical")] or p.get("seoUrls") or []
        return Product(
            id=str(p.get("id")),
            title=translated.get("name") or p.get("name") or "",
            handle=p.get("productNumber") or "",
            description=translated.get("description") or p.get("description") or "",
            url=f"{self.base_url}/{seo[0].get('seoPathInfo', '')}" if seo else "",
            variants=tuple(self._variant(r, p) for r in rows),
        )

    def pages(self, cursor: str | None) -> Batch[ContentPage]:
        page = int(cursor or 1)
        criteria = {
            "page": page,
            "limit": LIMIT,
            "total-count-mode": 1,
            "associations": {
                "sections": {"associations": {"blocks": {"associations": {"slots": {}}}}}
            },
            "filter": [{"type": "equals", "field": "type", "value": "page"}],
        }
        got = self._search("cms-page", criteria)
        items = [
            ContentPage(
                id=str(c.get("id")),
                title=(c.get("translated") or {}).get("name") or c.get("name") or "",
                text=_cms_text(c),
            )
            for c in got.get("data") or []
        ]
        more = page * LIMIT < int(got.get("total") or 0)
        return Batch(items, str(page + 1) if more else None)

    def order(self, number: str) -> Order | None:
        criteria = {
            "limit": 1,
            "filter": [{"type": "equals", "field": "orderNumber", "value": number}],
            "associations": ORDER_ASSOCIATIONS,
        }
        rows = self._search("order", criteria).get("data") or []
        if not rows:
            return None
        o = rows[0]
        tracking = [
            {"company": "", "number": str(code), "url": ""}
            for d in o.get("deliveries") or []
            for code in d.get("trackingCodes") or []
        ]
        states = [
            ((d.get("stateMachineState") or {}).get("technicalName"))
            for d in o.get("deliveries") or []
        ]
        status = next((s for s in states if s), None) or (
            (o.get("stateMachineState") or {}).get("technicalName") or ""
        )
        return Order(
            number=str(o.get("orderNumber") or number),
            email=(o.get("orderCustomer") or {}).get("email") or "",
            status=status,
            items=tuple(
                {
                    "title": i.get("label") or "",
                    "quantity": i.get("quantity") or 0,
                    "sku": (i.get("payload") or {}).get("productNumber") or "",
                }
                for i in o.get("lineItems") or []
            ),
            tracking=tuple(tracking),
            placed_at=o.get("orderDateTime") or "",
        )

    def webhook_verify(self, *, body: bytes, headers: Mapping[str, str]) -> bool:
        return False  # app webhooks need a registered app (README): scheduled sync only

    def webhook_product_id(self, body: bytes) -> str | None:
        return None


def _cms_text(page: dict) -> str:
    """The text slots of a CMS page, in section, block and slot order."""
    parts: list[str] = []
    for section in sorted(page.get("sections") or [], key=lambda s: s.get("position") or 0):
        for block in sorted(section.get("blocks") or [], key=lambda b: b.get("position") or 0):
            for slot in block.get("slots") or []:
                config = (slot.get("translated") or {}).get("config") or slot.get("config") or {}
                value = (config.get("content") or {}).get("value")
                if isinstance(value, str) and value.strip():
                    parts.append(value)
    return "\n\n".join(parts)
