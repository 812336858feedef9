"""A product or a content page as the text of a knowledge document.

Everything a visitor asks about is in the text, so full-text search and the model both see
it: identifiers (SKU, GTIN, handle), every variant with its price and stock. Identifiers
also go to the document's `identifiers`, which retrieval matches exactly.
"""

from __future__ import annotations

from chatwidget.shop.knowledge.htmltext import html_to_page
from chatwidget.shop.knowledge.readers import Doc
from chatwidget.shop.platforms.base import ContentPage, Product, Variant

PRODUCT_PREFIX = "product:"
PAGE_PREFIX = "page:"
MAX_IDENTIFIERS = 40


def _text(html: str) -> str:
    if "<" not in html:
        return html.strip()
    return html_to_page(html).text.strip()


def _stock(v: Variant) -> str:
    if not v.available or (v.stock is not None and v.stock <= 0):
        return "out of stock"
    if v.stock is None:
        return "in stock"
    return f"in stock ({v.stock})"


def _variant_line(v: Variant) -> str:
    parts = [v.title or "Default"]
    if v.sku:
        parts.append(f"SKU {v.sku}")
    if v.gtin:
        parts.append(f"GTIN {v.gtin}")
    if v.price:
        parts.append(f"price {v.price} {v.currency}".rstrip())
    parts.append(_stock(v))
    return "- " + ", ".join(parts)


def product_doc(product: Product) -> Doc:
    """The product's knowledge document (text in English labels: they are data for the
    model, which answers in the visitor's language)."""
    identifiers = [product.handle] if product.handle else []
    for v in product.variants:
        identifiers += [x for x in (v.sku, v.gtin) if x]
    identifiers = list(dict.fromkeys(identifiers))[:MAX_IDENTIFIERS]
    head = [product.title]
    facts = [
        f"{label}: {value}"
        for label, value in (
            ("Handle", product.handle),
            ("Brand", product.vendor),
            ("Type", product.kind),
            ("Tags", ", ".join(product.tags)),
        )
        if value
    ]
    lines = [*head, *facts, "", _text(product.description), "", "Variants:"]
    lines += [_variant_line(v) for v in product.variants]
    return Doc(
        external_id=f"{PRODUCT_PREFIX}{product.id}",
        title=product.title[:500] or f"Product {product.id}",
        text="\n".join(lines).strip(),
        url=product.url,
        identifiers=identifiers,
    )


def page_doc(page: ContentPage) -> Doc:
    return Doc(
        external_id=f"{PAGE_PREFIX}{page.id}",
        title=page.title[:500] or page.id,
        text=_text(page.text) or page.title,
        url=page.url,
    )
