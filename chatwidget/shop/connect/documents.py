"""A product or a content page as the text of a knowledge document.

Everything a visitor asks about is in the text, so full-text search and the model both see
it: identifiers (SKU, GTIN, handle), every variant with its price and stock. Identifiers
also go to the document's `identifiers`, which retrieval matches exactly.

A product translated into the shop's other languages gets one more document per language:
`product:<id>@<language>`, its title followed by ` [<language>]`, the translated title and
description, and the default document's identifiers, variants, prices and stock (the
knowledge document has no language field, so the language lives in the id and the title).
"""

from __future__ import annotations

from dataclasses import replace

from chatwidget.shop.knowledge.htmltext import html_to_page
from chatwidget.shop.knowledge.readers import Doc
from chatwidget.shop.platforms.base import ContentPage, Product, Translation, Variant

PRODUCT_PREFIX = "product:"
PAGE_PREFIX = "page:"
LANGUAGE_MARK = "@"  # product:<id>@<language>
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


def product_id_of(external_id: str) -> str:
    """The product a document of any language is about ("product:12@fr" -> "12")."""
    return external_id.removeprefix(PRODUCT_PREFIX).split(LANGUAGE_MARK, 1)[0]


def product_docs(product: Product) -> list[Doc]:
    """The product's document in the default language, then one per translation."""
    return [product_doc(product), *(product_doc(product, t) for t in product.translations)]


def product_doc(product: Product, translation: Translation | None = None) -> Doc:
    """The product's knowledge document (text in English labels: they are data for the
    model, which answers in the visitor's language), in a translation when one is given."""
    external_id = f"{PRODUCT_PREFIX}{product.id}"
    if translation is not None:
        external_id += f"{LANGUAGE_MARK}{translation.language}"
        product = replace(
            product,
            title=f"{translation.title or product.title} [{translation.language}]",
            description=translation.description or product.description,
        )
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
        external_id=external_id,
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
