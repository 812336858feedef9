"""Shopware 6: the Admin API with an integration's client credentials.

Written from the published documentation:
- https://shopware.stoplight.io/docs/admin-api/ZG9jOjEwODA3NjQx-authentication
  (`POST /api/oauth/token`, `grant_type=client_credentials`, a bearer token of 10 minutes)
- https://shopware.stoplight.io/docs/admin-api/ZG9jOjEwODA3NjQy-search-criteria
  (`POST /api/search/<entity>` with `page`, `limit`, `filter`, `associations`, `ids`,
  `total-count-mode`; the answer's `data` and `total`)
- https://developer.shopware.com/docs/guides/integrations-api/ (integrations: Settings >
  System > Integrations; the ACL role needs read on product, order, cms_page, currency,
  and language with locale for the shop's other languages)
- https://developer.shopware.com/docs/guides/integrations-api/general-concepts/request-headers
  (`sw-language-id`: entities in that language instead of the system language; a field
  without an explicit translation is null, `translated` holds it with fallbacks)

Languages: every language of `/api/search/language` (its locale's code, e.g. "fr-FR")
besides the system language is read again per page of products with `sw-language-id`; a
product gets a translation where its `name` or `description` is explicitly translated.

Shopware's app webhooks need a registered app, so a connection syncs on the schedule only.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from chatwidget.shop.platforms.base import (
    Batch,
    ContentPage,
    Order,
    PlatformError,
    Product,
    Translation,
    Variant,
)
from chatwidget.shop.platforms.http import Session

LIMIT = 100
SYSTEM_LANGUAGE = "2fbb5fe2e29a4d70aa5854ce7ce3e20b"  # Defaults::LANGUAGE_SYSTEM
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
        self.languages: list[tuple[str, str]] | None = None  # (id, locale code), not the system's

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

    def _search(self, entity: str, criteria: dict, language: str = "") -> dict:
        self._token()
        path, headers = f"/api/search/{entity}", {"sw-language-id": language} if language else {}
        try:
            got = self.session.json("POST", path, json=criteria, headers=headers)
        except PlatformError as exc:
            if exc.code != PlatformError.CREDENTIAL:
                raise
            self.expires = 0.0  # the token expired early: one new one
            self._token()
            got = self.session.json("POST", path, json=criteria, headers=headers)
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

    def _languages(self) -> list[tuple[str, str]]:
        """The shop's languages besides the system language (none when the role may not
        read them: the system language is synced all the same)."""
        if self.languages is None:
            criteria = {"limit": LIMIT, "associations": {"locale": {}}}
            try:
                rows = self._search("language", criteria).get("data") or []
            except PlatformError as exc:
                if exc.code != PlatformError.SCOPE:
                    raise
                rows = []
            self.languages = [
                (str(r["id"]), str((r.get("locale") or {}).get("code") or r.get("name") or r["id"]))
                for r in rows
                if r.get("id") and r.get("id") != SYSTEM_LANGUAGE
            ]
        return self.languages

    def _translated(self, products: list[Product]) -> list[Product]:
        """The products with their explicit translations into the shop's other languages."""
        if not products:
            return products
        found: dict[str, list[Translation]] = {p.id: [] for p in products}
        criteria = {"ids": list(found), "limit": len(found)}
        for language, code in self._languages():
            for row in self._search("product", criteria, language=language).get("data") or []:
                translation = _translation(row, code)
                if translation and str(row.get("id")) in found:
                    found[str(row.get("id"))].append(translation)
        return [replace(p, translations=tuple(found[p.id])) for p in products]

    def products(self, cursor: str | None) -> Batch[Product]:
        page = int(cursor or 1)
        got = self._search("product", {**PRODUCT_CRITERIA, "page": page, "limit": LIMIT})
        items = self._translated([self._product(p) for p in got.get("data") or []])
        more = page * LIMIT < int(got.get("total") or 0)
        return Batch(items, str(page + 1) if more else None)

    def products_by_ids(self, ids: list[str]) -> list[Product]:
        found: list[Product] = []
        for i in range(0, len(ids), LIMIT):
            criteria = {**PRODUCT_CRITERIA, "ids": ids[i : i + LIMIT], "limit": LIMIT}
            rows = self._search("product", criteria).get("data") or []
            found += self._translated([self._product(p) for p in rows])
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


def _translation(row: dict, code: str) -> Translation | None:
    """A product row read with `sw-language-id`: a translation when its name or description
    is explicitly translated (the plain fields are null otherwise; `translated` falls back)."""
    if not (row.get("name") or row.get("description")):
        return None
    translated = row.get("translated") or {}
    return Translation(
        language=code,
        title=translated.get("name") or row.get("name") or "",
        description=translated.get("description") or row.get("description") or "",
    )


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
