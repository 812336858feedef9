"""WooCommerce: the REST API v3 and WordPress pages.

Written from the published documentation:
- https://woocommerce.github.io/woocommerce-rest-api-docs/ (authentication over HTTPS with
  the consumer key and secret as HTTP Basic; `GET /wp-json/wc/v3/products` with `per_page`,
  `page`, `include`; `/products/<id>/variations`; `GET /orders/<id>` with `billing.email`;
  paging headers `X-WP-Total` and `X-WP-TotalPages`; webhooks signed in
  `X-WC-Webhook-Signature`, base64 of HMAC-SHA256 over the raw body, the secret defaulting
  to the API user's consumer secret)
- https://developer.wordpress.org/rest-api/reference/pages/ (`/wp-json/wp/v2/pages`)

The key needs Read permission (WooCommerce > Settings > Advanced > REST API). Over plain
http WooCommerce wants OAuth 1.0a signatures instead: connect shops by https.
"""

from __future__ import annotations

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
from chatwidget.shop.platforms.shopify import payload_id, signature_valid

API = "/wp-json/wc/v3"
PER_PAGE = 100
TRACKING_META = "_wc_shipment_tracking_items"  # the Shipment Tracking extension's field


def _next(page: int, response_headers: Mapping[str, str]) -> str | None:
    try:
        total = int(response_headers.get("X-WP-TotalPages") or 1)
    except ValueError:
        total = 1
    return str(page + 1) if page < total else None


class WooCommerce:
    def __init__(self, *, base_url: str, key: str, secret: str, **session: Any) -> None:
        self.base_url = base_url.rstrip("/")
        self.secret = secret
        self.session = Session(base_url=self.base_url, auth=(key, secret), **session)
        self.currency = ""

    @property
    def requests(self) -> int:
        return self.session.requests

    def check(self) -> None:
        settings = self.session.json("GET", f"{API}/settings/general/woocommerce_currency")
        if isinstance(settings, dict):
            self.currency = str(settings.get("value") or "")
        self.session.request("GET", f"{API}/products", params={"per_page": 1})
        self.session.request("GET", f"{API}/orders", params={"per_page": 1})

    def _currency(self) -> str:
        if not self.currency:
            try:
                got = self.session.json("GET", f"{API}/settings/general/woocommerce_currency")
                self.currency = str((got or {}).get("value") or "") if isinstance(got, dict) else ""
            except PlatformError:
                self.currency = "-"
        return "" if self.currency == "-" else self.currency

    def products(self, cursor: str | None) -> Batch[Product]:
        page = int(cursor or 1)
        params = {
            "per_page": PER_PAGE,
            "page": page,
            "orderby": "id",
            "order": "asc",
            "status": "publish",
        }
        response = self.session.request("GET", f"{API}/products", params=params)
        items = [self._product(p) for p in _list(response)]
        return Batch(items, _next(page, response.headers))

    def products_by_ids(self, ids: list[str]) -> list[Product]:
        found: list[Product] = []
        for i in range(0, len(ids), PER_PAGE):
            params = {"include": ",".join(ids[i : i + PER_PAGE]), "per_page": PER_PAGE}
            response = self.session.request("GET", f"{API}/products", params=params)
            found += [self._product(p) for p in _list(response) if p.get("status") == "publish"]
        return found

    def _variations(self, product_id: str) -> list[dict]:
        found: list[dict] = []
        page: str | None = "1"
        while page:
            response = self.session.request(
                "GET",
                f"{API}/products/{product_id}/variations",
                params={"per_page": PER_PAGE, "page": page},
            )
            found += _list(response)
            page = _next(int(page), response.headers)
        return found

    def _product(self, p: dict) -> Product:
        currency = self._currency()
        pid = str(p.get("id"))
        rows = self._variations(pid) if p.get("type") == "variable" else [p]
        variants = tuple(
            Variant(
                id=str(v.get("id")),
                title=" / ".join(
                    str(a.get("option"))
                    for a in v.get("attributes") or []
                    if isinstance(a, dict) and a.get("option")
                ),
                sku=v.get("sku") or "",
                gtin=str(v.get("global_unique_id") or ""),
                price=str(v.get("price") or ""),
                currency=currency,
                stock=v.get("stock_quantity") if v.get("manage_stock") else None,
                available=v.get("stock_status", "instock") != "outofstock",
            )
            for v in rows
        )
        return Product(
            id=pid,
            title=p.get("name") or "",
            handle=p.get("slug") or "",
            description=(p.get("short_description") or "") + "\n" + (p.get("description") or ""),
            url=p.get("permalink") or "",
            kind=", ".join(c.get("name", "") for c in p.get("categories") or []),
            tags=tuple(t.get("name", "") for t in p.get("tags") or []),
            variants=variants,
        )

    def pages(self, cursor: str | None) -> Batch[ContentPage]:
        page = int(cursor or 1)
        response = self.session.request(
            "GET", "/wp-json/wp/v2/pages", params={"per_page": PER_PAGE, "page": page}
        )
        items = [
            ContentPage(
                id=str(p.get("id")),
                title=(p.get("title") or {}).get("rendered", ""),
                text=(p.get("content") or {}).get("rendered", ""),
                url=p.get("link") or "",
            )
            for p in _list(response)
        ]
        return Batch(items, _next(page, response.headers))

    def order(self, number: str) -> Order | None:
        if not number.isdigit():
            return None
        response = self.session.request("GET", f"{API}/orders/{number}", ok_404=True)
        if response.status_code == 404:
            return None
        o = response.json()
        tracking = [
            {
                "company": t.get("tracking_provider") or t.get("custom_tracking_provider") or "",
                "number": t.get("tracking_number") or "",
                "url": t.get("custom_tracking_link") or "",
            }
            for m in o.get("meta_data") or []
            if m.get("key") == TRACKING_META
            for t in (m.get("value") or [])
            if isinstance(t, dict)
        ]
        return Order(
            number=str(o.get("number") or o.get("id")),
            email=(o.get("billing") or {}).get("email") or "",
            status=o.get("status") or "",
            items=tuple(
                {
                    "title": i.get("name") or "",
                    "quantity": i.get("quantity") or 0,
                    "sku": i.get("sku") or "",
                }
                for i in o.get("line_items") or []
            ),
            tracking=tuple(tracking),
            placed_at=o.get("date_created_gmt") or "",
        )

    def webhook_verify(self, *, body: bytes, headers: Mapping[str, str]) -> bool:
        return signature_valid(self.secret, body, headers.get("X-WC-Webhook-Signature") or "")

    def webhook_product_id(self, body: bytes) -> str | None:
        return payload_id(body)  # a ping's form body ("webhook_id=3") has none


def _list(response) -> list[dict]:
    try:
        data = response.json()
    except ValueError:
        raise PlatformError(PlatformError.MALFORMED, "not JSON") from None
    if not isinstance(data, list):
        raise PlatformError(PlatformError.MALFORMED, "not a list")
    return [d for d in data if isinstance(d, dict)]
