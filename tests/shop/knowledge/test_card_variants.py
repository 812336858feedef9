"""A product card's variants (issue 33): the sizes and colours a visitor picks before
"Add to cart", read from the page's JSON-LD `hasVariant` (each with its SKU, price and stock)
or from the sizes a catalogue lists with their stock; never from the answer's text."""

import json

import pytest

from chatwidget.shop.knowledge.cards import card_variants, product_cards
from chatwidget.shop.knowledge.jsonld import product_facts


def _offer(price: str, stock: str) -> dict:
    return {"price": price, "priceCurrency": "EUR", "availability": f"https://schema.org/{stock}"}


GROUP = {
    "@context": "https://schema.org",
    "@type": "ProductGroup",
    "name": "Linen shirt",
    "sku": "LS-1180",
    "hasVariant": [
        {
            "@type": "Product",
            "name": "Linen shirt - M",
            "sku": "LS-1180-M",
            "size": "M",
            "color": "Sand",
            "offers": _offer("59.00", "InStock"),
        },
        {
            "@type": "Product",
            "name": "Linen shirt - L",
            "sku": "LS-1180-L",
            "offers": _offer("61.00", "OutOfStock"),
        },
    ],
}


def test_json_ld_variants_keep_their_sku_price_stock_and_size():
    text = " ".join(product_facts([json.dumps(GROUP)]).lines)
    assert "Size: M. Color: Sand." in text, "the import keeps what tells variants apart"
    assert card_variants(text) == [
        {
            "label": "M / Sand",
            "sku": "LS-1180-M",
            "price": "59.00",
            "currency": "EUR",
            "stock": "in_stock",
        },
        {
            "label": "L",
            "sku": "LS-1180-L",
            "price": "61.00",
            "currency": "EUR",
            "stock": "out_of_stock",
        },
    ]


def test_a_product_without_variants_has_no_picker():
    single = {
        "@type": "Product",
        "name": "Scarf",
        "sku": "CS-077",
        "offers": _offer("19", "InStock"),
    }
    assert card_variants(" ".join(product_facts([json.dumps(single)]).lines)) == []
    assert card_variants("Sizes: one size (size M: in stock).") == [], "one size: nothing to pick"


def test_a_catalogues_sizes_with_their_stock():
    text = "Sizes S to XXL (size S: in stock; size M: only 2 left; size XXL: sold out)."
    assert [(v["label"], v["sku"], v["stock"]) for v in card_variants(text)] == [
        ("S", "", "in_stock"),
        ("M", "", "in_stock"),
        ("XXL", "", "out_of_stock"),
    ]


@pytest.mark.django_db
def test_the_demo_kurta_card_offers_its_sizes(demo_site):
    [card] = product_cards(site_id=demo_site.pk, text="The mint kurta KU-2291-M is lovely.")
    assert [v["label"] for v in card["variants"]] == ["S", "M", "L", "XL", "XXL"]
    assert card["variants"][-1]["stock"] == "out_of_stock"
