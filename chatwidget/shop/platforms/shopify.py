"""Shopify: the Admin GraphQL API.

Written from Shopify's published documentation:
- https://shopify.dev/docs/api/admin-graphql (endpoint `/admin/api/<version>/graphql.json`,
  header `X-Shopify-Access-Token`; the `products`, `pages`, `orders`, `nodes` queries;
  cursor paging with `pageInfo { hasNextPage endCursor }`)
- https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits (calculated query
  cost: `extensions.cost.throttleStatus` with `currentlyAvailable` and `restoreRate`; a
  throttled call answers `errors[].extensions.code == "THROTTLED"`, and 429 carries
  Retry-After)
- https://shopify.dev/docs/apps/build/webhooks/subscribe/https (`X-Shopify-Hmac-Sha256`:
  base64 of HMAC-SHA256 over the raw body, keyed with the app's client secret)
- https://shopify.dev/docs/api/admin-graphql/latest/queries/shopLocales (`shopLocales(
  published: true) { locale primary }`, scope read_locales) and
  https://shopify.dev/docs/apps/build/markets/manage-translated-content with
  https://shopify.dev/docs/api/admin-graphql/latest/objects/Translation (a product's
  `translations(locale:) { key value }`, keys `title` and `body_html`; scope
  read_translations)

Scopes: read_products (products and variants), read_inventory (stock), read_orders (order
status), read_content or read_online_store_pages (pages); read_locales and
read_translations for the shop's other languages (optional: without them, the primary
language only).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Mapping
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

API_VERSION = "2025-01"
PRODUCTS_PER_PAGE = 25
VARIANTS_PER_PRODUCT = 30  # 25 x 30 keeps a page's requested cost under 1,000 points
NEEDED_SCOPES = ("read_products", "read_orders")
PAGE_SCOPES = ("read_content", "read_online_store_pages")

TRANSLATION_SCOPE = "read_translations"
PRODUCT_COST = 33  # estimated points of a product with variants(first: 30); +1 per locale
QUERY_COST_BUDGET = 950  # Shopify refuses a query that asks for more than 1,000 points

_VARIANT = "id title sku barcode price inventoryQuantity availableForSale"


def _product_fields(locales: list[str]) -> str:
    """A product's fields, with its translations into each extra locale as `t<n>`."""
    translations = "".join(
        f" t{n}: translations(locale: {json.dumps(locale)}) {{ key value }}"
        for n, locale in enumerate(locales)
    )
    return (
        "id legacyResourceId handle title descriptionHtml onlineStoreUrl vendor productType "
        f"tags variants(first: {VARIANTS_PER_PRODUCT}) {{ pageInfo {{ hasNextPage endCursor }} "
        f"nodes {{ {_VARIANT} }} }}{translations}"
    )


def _per_page(locales: list[str]) -> int:
    return min(PRODUCTS_PER_PAGE, QUERY_COST_BUDGET // (PRODUCT_COST + len(locales)))


def _products_query(locales: list[str]) -> str:
    return (
        "query Products($cursor: String) { shop { currencyCode } "
        f"products(first: {_per_page(locales)}, after: $cursor, sortKey: ID) "
        f"{{ pageInfo {{ hasNextPage endCursor }} nodes {{ {_product_fields(locales)} }} }} }}"
    )


def _nodes_query(locales: list[str]) -> str:
    return (
        "query Nodes($ids: [ID!]!) { shop { currencyCode } "
        f"nodes(ids: $ids) {{ ... on Product {{ {_product_fields(locales)} }} }} }}"
    )


LOCALES_QUERY = (
    "query Locales { shopLocales(published: true) { locale primary } "
    "currentAppInstallation { accessScopes { handle } } }"
)
MORE_VARIANTS_QUERY = (
    "query Variants($id: ID!, $cursor: String) { product(id: $id) { "
    "variants(first: 100, after: $cursor) { pageInfo { hasNextPage endCursor } "
    f"nodes {{ {_VARIANT} }} }} }} }}"
)
PAGES_QUERY = (
    "query Pages($cursor: String) { pages(first: 50, after: $cursor) { "
    "pageInfo { hasNextPage endCursor } nodes { id title handle body } } }"
)
ORDER_QUERY = (
    "query Order($q: String!) { orders(first: 5, query: $q) { nodes { name email "
    "displayFulfillmentStatus displayFinancialStatus cancelledAt createdAt "
    "lineItems(first: 50) { nodes { title quantity sku } } "
    "fulfillments(first: 10) { trackingInfo { company number url } } } } }"
)
CHECK_QUERY = "{ shop { name } currentAppInstallation { accessScopes { handle } } }"


def _gid_tail(gid: str) -> str:
    return gid.rsplit("/", 1)[-1]


def _gid(product_id: str) -> str:
    return product_id if product_id.startswith("gid://") else f"gid://shopify/Product/{product_id}"


class Shopify:
    def __init__(self, *, base_url: str, token: str, secret: str = "", **session: Any) -> None:
        self.base_url = base_url.rstrip("/")
        self.secret = secret
        self.session = Session(
            base_url=self.base_url, headers={"X-Shopify-Access-Token": token}, **session
        )
        self.currency = ""
        self.locales: list[str] | None = None  # the published locales besides the primary

    @property
    def requests(self) -> int:
        return self.session.requests

    def _query(self, query: str, variables: dict | None = None) -> dict:
        """One GraphQL call; THROTTLED is waited out as the bucket's restore rate says, and
        a low bucket is waited for before the next call."""
        path = f"/admin/api/{API_VERSION}/graphql.json"
        for _attempt in range(self.session.retries + 1):
            body = self.session.json("POST", path, json={"query": query, "variables": variables})
            if not isinstance(body, dict):
                raise PlatformError(PlatformError.MALFORMED, "not an object")
            cost = (body.get("extensions") or {}).get("cost") or {}
            errors = body.get("errors") or []
            codes = {(e.get("extensions") or {}).get("code") for e in errors if isinstance(e, dict)}
            if "THROTTLED" in codes:
                self.session.wait(_refill_seconds(cost))
                continue
            if "ACCESS_DENIED" in codes:
                raise PlatformError(PlatformError.SCOPE, _message(errors))
            if errors and not body.get("data"):
                raise PlatformError(PlatformError.MALFORMED, _message(errors))
            self._pace(cost)
            return body.get("data") or {}
        raise PlatformError(PlatformError.THROTTLED, "THROTTLED")

    def _pace(self, cost: dict) -> None:
        """Wait before the next call when the bucket holds less than this call cost."""
        status = cost.get("throttleStatus") or {}
        available = float(status.get("currentlyAvailable") or 0)
        needed = float(cost.get("requestedQueryCost") or 0)
        if status and available < needed:
            self.session.wait(_refill_seconds(cost))

    def check(self) -> None:
        data = self._query(CHECK_QUERY)
        scopes = {
            s.get("handle")
            for s in ((data.get("currentAppInstallation") or {}).get("accessScopes") or [])
        }
        missing = [s for s in NEEDED_SCOPES if s not in scopes]
        if not any(s in scopes for s in PAGE_SCOPES):
            missing.append(" or ".join(PAGE_SCOPES))
        if missing:
            raise PlatformError(PlatformError.SCOPE, ", ".join(missing))

    def _extra_locales(self) -> list[str]:
        """The shop's published locales besides the primary one; none when the app may not
        read locales or translations (the primary language is synced all the same)."""
        if self.locales is None:
            try:
                data = self._query(LOCALES_QUERY)
            except PlatformError as exc:
                if exc.code != PlatformError.SCOPE:
                    raise
                data = {}
            installation = data.get("currentAppInstallation") or {}
            scopes = {s.get("handle") for s in installation.get("accessScopes") or []}
            self.locales = [
                str(loc["locale"])
                for loc in data.get("shopLocales") or []
                if loc.get("locale") and not loc.get("primary")
            ]
            if TRANSLATION_SCOPE not in scopes:
                self.locales = []
        return self.locales

    def products(self, cursor: str | None) -> Batch[Product]:
        data = self._query(_products_query(self._extra_locales()), {"cursor": cursor})
        self.currency = (data.get("shop") or {}).get("currencyCode") or self.currency
        listing = data.get("products") or {}
        items = [self._product(node) for node in listing.get("nodes") or []]
        info = listing.get("pageInfo") or {}
        return Batch(items, info.get("endCursor") if info.get("hasNextPage") else None)

    def products_by_ids(self, ids: list[str]) -> list[Product]:
        found: list[Product] = []
        locales = self._extra_locales()
        step = _per_page(locales)
        for i in range(0, len(ids), step):
            chunk = [_gid(x) for x in ids[i : i + step]]
            data = self._query(_nodes_query(locales), {"ids": chunk})
            self.currency = (data.get("shop") or {}).get("currencyCode") or self.currency
            found += [self._product(n) for n in data.get("nodes") or [] if n and n.get("id")]
        return found

    def _product(self, node: dict) -> Product:
        variants = node.get("variants") or {}
        nodes = list(variants.get("nodes") or [])
        info = variants.get("pageInfo") or {}
        while info.get("hasNextPage"):
            more = self._query(MORE_VARIANTS_QUERY, {"id": node["id"], "cursor": info["endCursor"]})
            listing = (more.get("product") or {}).get("variants") or {}
            nodes += listing.get("nodes") or []
            info = listing.get("pageInfo") or {}
        return Product(
            id=str(node.get("legacyResourceId") or _gid_tail(node["id"])),
            title=node.get("title") or "",
            handle=node.get("handle") or "",
            description=node.get("descriptionHtml") or "",
            url=node.get("onlineStoreUrl") or "",
            vendor=node.get("vendor") or "",
            kind=node.get("productType") or "",
            tags=tuple(node.get("tags") or ()),
            variants=tuple(self._variant(v) for v in nodes),
            translations=self._translations(node),
        )

    def _translations(self, node: dict) -> tuple[Translation, ...]:
        """The locales this product has a translated title or description in."""
        found = []
        for n, locale in enumerate(self.locales or []):
            fields = {
                t.get("key"): t.get("value") for t in node.get(f"t{n}") or [] if isinstance(t, dict)
            }
            if fields.get("title") or fields.get("body_html"):
                found.append(
                    Translation(
                        language=locale,
                        title=fields.get("title") or "",
                        description=fields.get("body_html") or "",
                    )
                )
        return tuple(found)

    def _variant(self, v: dict) -> Variant:
        price = v.get("price")
        if isinstance(price, dict):  # MoneyV2 in some versions
            price = price.get("amount")
        return Variant(
            id=_gid_tail(v.get("id") or ""),
            title=v.get("title") or "",
            sku=v.get("sku") or "",
            gtin=v.get("barcode") or "",
            price=str(price or ""),
            currency=self.currency,
            stock=v.get("inventoryQuantity"),
            available=bool(v.get("availableForSale", True)),
        )

    def pages(self, cursor: str | None) -> Batch[ContentPage]:
        data = self._query(PAGES_QUERY, {"cursor": cursor})
        listing = data.get("pages") or {}
        items = [
            ContentPage(
                id=_gid_tail(n["id"]),
                title=n.get("title") or "",
                text=n.get("body") or "",
                url=f"{self.base_url}/pages/{n.get('handle') or ''}",
            )
            for n in listing.get("nodes") or []
        ]
        info = listing.get("pageInfo") or {}
        return Batch(items, info.get("endCursor") if info.get("hasNextPage") else None)

    def order(self, number: str) -> Order | None:
        name = number if number.startswith("#") else f"#{number}"
        data = self._query(ORDER_QUERY, {"q": f"name:{json.dumps(name)}"})
        for node in (data.get("orders") or {}).get("nodes") or []:
            if (node.get("name") or "").lstrip("#") == name.lstrip("#"):
                return _order(node)
        return None

    def webhook_verify(self, *, body: bytes, headers: Mapping[str, str]) -> bool:
        return signature_valid(self.secret, body, headers.get("X-Shopify-Hmac-Sha256") or "")

    def webhook_product_id(self, body: bytes) -> str | None:
        """`products/*` webhooks carry the product's REST payload (its `id`)."""
        return payload_id(body)


def signature_valid(secret: str, body: bytes, sent: str) -> bool:
    """base64(HMAC-SHA256(secret, raw body)), compared in constant time (Shopify and
    WooCommerce sign alike)."""
    if not secret or not sent:
        return False
    digest = hmac.new(secret.encode(), body, hashlib.sha256).digest()
    return hmac.compare_digest(base64.b64encode(digest).decode(), sent.strip())


def payload_id(body: bytes) -> str | None:
    try:
        data = json.loads(body)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return str(value) if isinstance(value, int | str) and str(value) else None


def _order(node: dict) -> Order:
    status = (
        "cancelled"
        if node.get("cancelledAt")
        else (node.get("displayFulfillmentStatus") or "UNFULFILLED").lower()
    )
    tracking = [
        {
            "company": t.get("company") or "",
            "number": t.get("number") or "",
            "url": t.get("url") or "",
        }
        for f in node.get("fulfillments") or []
        for t in f.get("trackingInfo") or []
    ]
    items = [
        {
            "title": i.get("title") or "",
            "quantity": i.get("quantity") or 0,
            "sku": i.get("sku") or "",
        }
        for i in (node.get("lineItems") or {}).get("nodes") or []
    ]
    return Order(
        number=(node.get("name") or "").lstrip("#"),
        email=node.get("email") or "",
        status=status,
        items=tuple(items),
        tracking=tuple(tracking),
        placed_at=node.get("createdAt") or "",
    )


def _refill_seconds(cost: dict) -> float:
    """How long until the bucket holds the requested cost again."""
    status = cost.get("throttleStatus") or {}
    rate = float(status.get("restoreRate") or 50) or 50.0
    needed = float(cost.get("requestedQueryCost") or 0) - float(
        status.get("currentlyAvailable") or 0
    )
    return max(needed / rate, 0.05)


def _message(errors: list) -> str:
    first = errors[0] if errors and isinstance(errors[0], dict) else {}
    return str(first.get("message") or "")[:200]
