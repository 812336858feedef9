"""Product cards for an answer (issue 33): the products an answer names, shown with their
picture, title, price, stock and link, built only from the site's knowledge documents.

The model's text only chooses *which* products: every identifier the answer names
(memory.extract.ids_extract: "KU-2291-M", "Art.-Nr. 4711") is looked up among the site's
documents' identifiers (the catalogue's ids, JSON-LD SKUs and GTINs), and an identifier no
document holds gets no card. Every fact on a card (title, URL, price, stock, image) is read
from that document and its excerpts, never from the answer, so a price the model got wrong
is never shown as the shop's. Price, availability and image come from the lines the import
writes (chatwidget.shop.knowledge.jsonld: "Price: 49.90 EUR.", "Availability: in stock.",
"Image: https://...") or, for a catalogue, the same words in its text.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.db import connection
from django.db.models import Q

from chatwidget.shop.knowledge.selectors import knowledge_available
from chatwidget.shop.models import KnowledgeChunk, KnowledgeDocument
from memory.extract import ids_extract

MAX_CARDS = 6  # more products than this in one answer is a list, not a choice
_TEXT_CHARS = 4000  # of a document's excerpts, read for its facts

_PRICE = re.compile(
    r"\bPrice:\s*(?:(?P<before>[A-Z]{3})\s?)?"
    r"(?P<amount>\d[\d.,]*(?:\s?[–-]\s?\d[\d.,]*)?)\s*(?P<cur>[A-Z]{3}\b)?"
)
_AVAILABILITY = re.compile(r"\bAvailability:\s*(?P<v>[^.;\n]{1,40})", re.IGNORECASE)
_IMAGE = re.compile(r"\bImage:\s*(?P<url>https?://[^\s<>\"']{1,1000}?)(?=\.?(?:\s|$))")

# a product's variants (card_variants): "Product: ..." segments of the JSON-LD lines, and the
# sizes a catalogue lists with their stock
MAX_VARIANTS = 20
_SEGMENT = re.compile(r"\bProduct:\s.*?(?=\bProduct:\s|\Z)", re.DOTALL)
_NAME = re.compile(r"Product:\s*(?P<v>[^\n]{1,200}?)\.(?=\s|$)")
_SKU = re.compile(r"\bSKU:\s*(?P<v>[^\s.;]{1,64}(?:\.[^\s.;]+)*)\.?(?=\s|$)")
_VARIANT_PART = re.compile(r"\b(?:Size|Color|Material):\s*(?P<v>[^.;\n]{1,40})\.")
_SIZE_STOCK = re.compile(
    r"\b(?:size|Größe)\s+(?P<size>[A-Z0-9]{1,5}(?:/[A-Z0-9]{1,5})?):\s*"
    r"(?P<stock>in stock|sold out|out of stock|only \d+ left|pre-?order|auf lager|ausverkauft)",
    re.IGNORECASE,
)

IN_STOCK, OUT_OF_STOCK, PREORDER = "in_stock", "out_of_stock", "preorder"
_STOCK_WORDS = (
    (OUT_OF_STOCK, ("out of stock", "sold out", "discontinued")),
    (PREORDER, ("pre-order", "preorder", "back order")),
    (IN_STOCK, ("in stock", "limited availability", "online only", "in store only", "left")),
)


def web_url(value: str) -> str:
    """`value` when it is an absolute http(s) URL, else "" (never javascript:, data:...)."""
    value = (value or "").strip()
    parts = urlsplit(value)
    if parts.scheme in ("http", "https") and parts.netloc and not any(c in value for c in '<>"'):
        return value
    return ""


def _stock(text: str) -> str:
    """The document's stock in one word: its availability line, else (a catalogue's sizes)
    in stock when any size is, out of stock when all that are named are sold out."""
    found = _AVAILABILITY.search(text)
    words = found.group("v").casefold() if found else text.casefold()
    if found:
        for kind, names in _STOCK_WORDS:
            if any(name in words for name in names):
                return kind
        return ""
    for kind in (IN_STOCK, PREORDER, OUT_OF_STOCK):
        if any(name in words for name in dict(_STOCK_WORDS)[kind]):
            return kind
    return ""


def _kind(words: str) -> str:
    words = words.casefold()
    for kind, names in _STOCK_WORDS:
        if any(name in words for name in names):
            return kind
    return ""


def _variant_label(segment: str, *, name: str, group: str) -> str:
    """A variant's label: its size, colour and material lines, else its name without the
    product's own (Kurta - M: "M"), else its name."""
    label = " / ".join(found.group("v").strip() for found in _VARIANT_PART.finditer(segment))
    if not label and group and name.casefold().startswith(group.casefold()):
        label = name[len(group) :].strip(" -–,/:")
    return (label or name)[:60]


def _jsonld_variants(text: str) -> list[dict]:
    """The variants a page's JSON-LD named (chatwidget.shop.knowledge.jsonld writes the
    product, then each of its `hasVariant` products, as "Product: ... SKU: ..." lines)."""
    segments = [found.group(0) for found in _SEGMENT.finditer(text)]
    if len(segments) < 3:  # the product and at least two variants
        return []
    group = _NAME.match(segments[0])
    variants = []
    for segment in segments[1:]:
        sku = _SKU.search(segment)
        if not sku:
            continue
        name = _NAME.match(segment)
        price = _PRICE.search(segment)
        stock = _AVAILABILITY.search(segment)
        variants.append(
            {
                "label": _variant_label(
                    segment,
                    name=name.group("v") if name else sku.group("v"),
                    group=group.group("v") if group else "",
                ),
                "sku": sku.group("v"),
                "price": price.group("amount").strip().rstrip(".,") if price else "",
                "currency": (price.group("cur") or price.group("before") or "") if price else "",
                "stock": _kind(stock.group("v")) if stock else "",
            }
        )
    return variants if len(variants) >= 2 else []


def _size_variants(text: str) -> list[dict]:
    """The sizes a catalogue's text lists with their stock ("size M: in stock; size XXL:
    sold out"): variants without an SKU of their own."""
    sizes: dict[str, str] = {}
    for found in _SIZE_STOCK.finditer(text):
        sizes.setdefault(found.group("size"), _kind(found.group("stock")))
    if len(sizes) < 2:
        return []
    return [
        {"label": size, "sku": "", "price": "", "currency": "", "stock": stock}
        for size, stock in sizes.items()
    ]


def card_variants(text: str) -> list[dict]:
    """The variants a visitor chooses from on the card (pure): the JSON-LD's variants with
    their SKUs, else the sizes a catalogue lists; [] for a product without."""
    return (_jsonld_variants(text) or _size_variants(text))[:MAX_VARIANTS]


def card_facts(*, title: str, url: str, identifier: str, product_id: str, text: str) -> dict:
    """One card from a document's title, URL and excerpt text (pure)."""
    price = _PRICE.search(text)
    image = _IMAGE.search(text)
    return {
        "variants": card_variants(text),
        "id": product_id,
        "sku": identifier,
        "title": title[:200],
        "url": web_url(url),
        "price": price.group("amount").strip().rstrip(".,") if price else "",
        "currency": (price.group("cur") or price.group("before") or "") if price else "",
        "stock": _stock(text),
        "image": web_url(image.group("url")) if image else "",
    }


def answer_identifiers(text: str) -> list[str]:
    """The object identifiers an answer names, first mention first, each once."""
    return list(dict.fromkeys(found.value for found in ids_extract(text)))


def product_cards(*, site_id: int, text: str) -> list[dict]:
    """The cards for the products the answer `text` names that the site's knowledge holds,
    in the order the answer names them (one card per document). Two queries at most; none
    for a site without knowledge (the cached hint the context build reads too)."""
    wanted = answer_identifiers(text)[: MAX_CARDS * 2]
    if not wanted or not knowledge_available(site_id=site_id):
        return []
    # PostgreSQL: JSON containment; SQLite (the demo) has none: the JSON text is matched and
    # the exact identifier checked below
    lookup = (
        "identifiers__contains" if connection.vendor == "postgresql" else "identifiers__icontains"
    )
    match = Q()
    for identifier in wanted:
        match |= Q(**{lookup: [identifier] if lookup.endswith("__contains") else identifier})
    documents = list(
        KnowledgeDocument.objects.filter(match, site_id=site_id).only(
            "pk", "external_id", "title", "url", "identifiers"
        )[: MAX_CARDS * 4]
    )
    chosen: list[tuple[str, KnowledgeDocument]] = []
    for identifier in wanted:
        for document in documents:
            if identifier in (document.identifiers or []) and all(
                document.pk != taken.pk for _id, taken in chosen
            ):
                chosen.append((identifier, document))
                break
    chosen = chosen[:MAX_CARDS]
    if not chosen:
        return []
    texts: dict[int, str] = {}
    for document_id, excerpt in (
        KnowledgeChunk.objects.filter(document_id__in=[d.pk for _i, d in chosen])
        .order_by("document_id", "ordinal")
        .values_list("document_id", "text")
    ):
        if len(texts.get(document_id, "")) < _TEXT_CHARS:
            texts[document_id] = texts.get(document_id, "") + "\n" + excerpt
    return [
        card_facts(
            title=document.title,
            url=document.url,
            identifier=identifier,
            product_id=document.external_id,
            text=texts.get(document.pk, ""),
        )
        for identifier, document in chosen
    ]
