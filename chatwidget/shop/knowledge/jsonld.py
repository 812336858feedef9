"""The product facts a shop page states in its JSON-LD (schema.org `Product`): name, SKU,
GTIN, brand, price, currency and availability, for the knowledge index (issue 26).

Shop systems (Shopify, WooCommerce, Shopware, most themes) put them in a
`<script type="application/ld+json">` block, often nowhere else as text: without them a page
import loses the price and the article number. Pure; the data is plain JSON, never run.
"""

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

GTIN_KEYS = ("gtin", "gtin13", "gtin12", "gtin14", "gtin8")
MAX_OBJECTS = 200  # a page with more JSON-LD objects than this is not a product page


@dataclass
class Facts:
    lines: list[str] = field(default_factory=list)
    identifiers: list[str] = field(default_factory=list)


def _objects(value: Any, depth: int = 0) -> Iterator[dict]:
    """Every object of a JSON-LD document: top level, lists and `@graph`."""
    if depth > 4:
        return
    if isinstance(value, list):
        for item in value[:MAX_OBJECTS]:
            yield from _objects(item, depth + 1)
    elif isinstance(value, dict):
        yield value
        yield from _objects(value.get("@graph"), depth + 1)


def _types(obj: dict) -> set[str]:
    kind = obj.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return {str(k).rsplit("/", 1)[-1] for k in kinds if k}


def _text(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("name") or value.get("@value") or ""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return " ".join(str(value).split())[:200]
    return ""


def _availability(value: Any) -> str:
    word = _text(value).rsplit("/", 1)[-1]
    names = {
        "InStock": "in stock",
        "OutOfStock": "out of stock",
        "PreOrder": "pre-order",
        "BackOrder": "back order",
        "LimitedAvailability": "limited availability",
        "SoldOut": "sold out",
        "Discontinued": "discontinued",
        "OnlineOnly": "online only",
        "InStoreOnly": "in store only",
    }
    return names.get(word, word)


def _offer_line(offers: Any) -> str:
    for offer in _objects(offers):
        price = _text(offer.get("price") or offer.get("lowPrice"))
        currency = _text(offer.get("priceCurrency"))
        if not price and isinstance(offer.get("priceSpecification"), dict):
            spec = offer["priceSpecification"]
            price, currency = _text(spec.get("price")), _text(spec.get("priceCurrency"))
        availability = _availability(offer.get("availability"))
        parts = []
        if price:
            high = _text(offer.get("highPrice"))
            parts.append(f"Price: {price}{'–' + high if high else ''} {currency}".rstrip() + ".")
        if availability:
            parts.append(f"Availability: {availability}.")
        if parts:
            return " ".join(parts)
    return ""


def _image(value: Any) -> str:
    """The product's first image URL (a string, a list, or an ImageObject), http(s) only."""
    if isinstance(value, list):
        value = value[0] if value else ""
    if isinstance(value, dict):
        value = value.get("url") or value.get("contentUrl") or ""
    url = value.strip() if isinstance(value, str) else ""
    if url.startswith(("https://", "http://")) and len(url) <= 1000 and " " not in url:
        return url
    return ""


def _product(obj: dict, facts: Facts) -> None:
    name = _text(obj.get("name"))
    line = [f"Product: {name}." if name else ""]
    sku = _text(obj.get("sku"))
    gtins = [_text(obj.get(k)) for k in GTIN_KEYS if _text(obj.get(k))]
    brand = _text(obj.get("brand"))
    if sku:
        line.append(f"SKU: {sku}.")
        facts.identifiers.append(sku)
    for gtin in gtins:
        line.append(f"GTIN: {gtin}.")
        facts.identifiers.append(gtin)
    if brand:
        line.append(f"Brand: {brand}.")
    for key, word in (("size", "Size"), ("color", "Color"), ("material", "Material")):
        value = _text(obj.get(key))
        if value:  # a variant's own (a product card's variant picker reads them)
            line.append(f"{word}: {value}.")
    line.append(_offer_line(obj.get("offers")))
    image = _image(obj.get("image"))
    if image:  # for the widget's product card (chatwidget.shop.knowledge.cards)
        line.append(f"Image: {image}.")
    text = " ".join(part for part in line if part)
    if text:
        facts.lines.append(text)
    for variant in list(_objects(obj.get("hasVariant")))[:50]:
        if "Product" in _types(variant):
            _product(variant, facts)


def product_facts(blocks: list[str]) -> Facts:
    """The facts of every Product in the page's JSON-LD blocks (a block that is not JSON
    is skipped: a page's broken markup never fails its import)."""
    facts = Facts()
    for block in blocks:
        try:
            data = json.loads(block)
        except ValueError:
            continue
        for obj in list(_objects(data))[:MAX_OBJECTS]:
            if "Product" in _types(obj) or "ProductGroup" in _types(obj):
                _product(obj, facts)
    facts.identifiers = list(dict.fromkeys(facts.identifiers))
    return facts
