"""Product cards (issue 33): only identifiers the site's knowledge holds get a card, every
fact on it is the document's (the catalogue's price, not the answer's), and the cards reach
the answering socket as a `cards` frame and come back with the turn in the welcome."""

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chatwidget.shop.knowledge.cards import card_facts, product_cards, web_url
from memory.models import Turn
from tests.fakellm import Reply

KURTA = "http://127.0.0.1:8001/product/KU-2291-M"


def test_card_facts_read_the_import_lines_and_refuse_other_schemes():
    text = (
        "Product: Trail shoe. SKU: TS-100. Price: 89.00 EUR. Availability: out of stock.\n"
        "Image: https://cdn.example.test/ts-100.jpg."
    )
    card = card_facts(
        title="Trail shoe",
        url="javascript:alert(1)",
        identifier="TS-100",
        product_id="p1",
        text=text,
    )
    assert card == {
        "id": "p1",
        "sku": "TS-100",
        "title": "Trail shoe",
        "url": "",  # never a javascript: link
        "price": "89.00",
        "currency": "EUR",
        "stock": "out_of_stock",
        "image": "https://cdn.example.test/ts-100.jpg",
        "variants": [],
    }
    assert web_url("data:image/png;base64,AAAA") == ""
    assert web_url("https://shop.test/a.png") == "https://shop.test/a.png"


def test_a_catalogue_without_an_availability_line_is_in_stock_when_a_size_is():
    text = "Sizes S to M (size S: sold out; size M: in stock). Price: 49.90 EUR."
    assert card_facts(title="t", url="", identifier="x", product_id="x", text=text)["stock"] == (
        "in_stock"
    )
    text = "Sizes S to M (size S: sold out; size M: sold out). Price: 49.90 EUR."
    assert card_facts(title="t", url="", identifier="x", product_id="x", text=text)["stock"] == (
        "out_of_stock"
    )


@pytest.mark.django_db
def test_only_known_identifiers_get_a_card_with_the_catalogues_price(demo_site):
    cards = product_cards(
        site_id=demo_site.pk,
        text="Try KU-2291-M for 19.99 EUR, or ZZ-9999-Q, or KU-2291-M again.",
    )
    assert [c["sku"] for c in cards] == ["KU-2291-M"], "unknown ZZ-9999-Q has no card, once"
    assert cards[0]["price"] == "49.90" and cards[0]["currency"] == "EUR"
    assert (cards[0]["title"], cards[0]["url"], cards[0]["stock"]) == (
        "Cotton kurta, mint",
        KURTA,
        "in_stock",
    )
    assert product_cards(site_id=demo_site.pk, text="Nothing named here.") == []
    assert product_cards(site_id=demo_site.pk, text="Article ZZ-9999-Q costs 5 EUR.") == []


@pytest.mark.django_db
def test_another_sites_catalogue_gives_no_card(demo_site):
    from chatwidget.sites.services import site_create

    other = site_create(name="Other shop", origins=["https://other.test"])
    assert product_cards(site_id=other.pk, text="KU-2291-M is lovely.") == []
    # a site without knowledge: the cached hint answers, no query (issue 30: every answer
    # that names an identifier looked for its document)
    with CaptureQueriesContext(connection) as queries:
        assert product_cards(site_id=other.pk, text="KU-2291-M is lovely.") == []
    assert len(queries) == 0


async def _frames_until_both(c, timeout=10):
    """Frames until the assistant's message and the cards frame have both come (their order
    between the socket and the conversation's group is not fixed)."""
    seen = []
    while not (
        any(f["type"] == "cards" for f in seen)
        and any(f["type"] == "message" and f.get("role") == "assistant" for f in seen)
    ):
        seen.append(await c.recv(timeout))
    return seen


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_answer_gets_a_cards_frame_stored_and_shown_again(demo_site, connect, fake_llm):
    fake_llm.script.append(Reply("The mint kurta KU-2291-M is 19.99 EUR. ZZ-9999-Q is not."))
    c = await connect(demo_site.key)
    await c.hello()
    ack = await c.say("Do you have a mint kurta?", "m1")
    frames = await _frames_until_both(c)
    cards = next(f for f in frames if f["type"] == "cards")
    message = next(f for f in frames if f["type"] == "message" and f.get("role") == "assistant")
    assert cards["seq"] == message["seq"]
    assert [(x["sku"], x["price"]) for x in cards["cards"]] == [("KU-2291-M", "49.90")]
    assert message["cards"] == cards["cards"], "every tab reads them on the stored turn"
    stored = await database_sync_to_async(Turn.objects.get)(seq=message["seq"])
    assert stored.cards == cards["cards"]

    again = await connect(demo_site.key)
    back = await again.hello(session=ack["session"])
    answer = next(t for t in back["turns"] if t["role"] == "assistant")
    assert answer["cards"][0]["sku"] == "KU-2291-M"
    visitor = next(t for t in back["turns"] if t["role"] == "visitor")
    assert "cards" not in visitor and "choices" not in visitor


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_answer_naming_no_known_product_has_no_cards(demo_site, connect, fake_llm):
    fake_llm.script.append(Reply("Article ZZ-9999-Q is a great choice at 5 EUR."))
    c = await connect(demo_site.key)
    await c.hello()
    await c.say("Anything cheap?", "m1")
    message, frames = await c.answer()
    assert "cards" not in message
    assert await c.nothing(0.5), "no cards frame follows"
    assert not [f for f in frames if f["type"] == "cards"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_demo_mode_answers_get_cards_too(demo_site, connect):
    c = await connect(demo_site.key)
    await c.hello()
    await c.say("Is the KU-2291-M cotton kurta in mint nice?", "m1")
    frames = await _frames_until_both(c)
    message = next(f for f in frames if f["type"] == "message" and f.get("role") == "assistant")
    assert "Demo mode" in message["text"]
    assert [(x["sku"], x["price"], x["currency"]) for x in message["cards"]] == [
        ("KU-2291-M", "49.90", "EUR")
    ]


def test_a_json_ld_products_image_reaches_its_card():
    from chatwidget.shop.knowledge.jsonld import product_facts

    block = (
        '{"@type": "Product", "name": "Trail shoe", "sku": "TS-100",'
        ' "image": [{"@type": "ImageObject", "url": "https://cdn.example.test/ts.jpg"}],'
        ' "offers": {"price": "89.00", "priceCurrency": "EUR",'
        ' "availability": "https://schema.org/PreOrder"}}'
    )
    bad = '{"@type": "Product", "name": "X", "sku": "X-1", "image": "javascript:alert(1)"}'
    text = "\n".join(product_facts([block, bad]).lines)
    assert "Image: https://cdn.example.test/ts.jpg." in text
    assert "javascript" not in text
    card = card_facts(
        title="Trail shoe", url="", identifier="TS-100", product_id="TS-100", text=text
    )
    assert (card["image"], card["price"], card["currency"], card["stock"]) == (
        "https://cdn.example.test/ts.jpg",
        "89.00",
        "EUR",
        "preorder",
    )


def test_a_price_written_currency_first_is_read():
    text = "Colour: camel. Price: EUR 119.00 incl. VAT. Availability: in stock."
    card = card_facts(title="Scarf", url="", identifier="CS-077-CA", product_id="CS", text=text)
    assert (card["price"], card["currency"], card["stock"]) == ("119.00", "EUR", "in_stock")
    card = card_facts(title="t", url="", identifier="x", product_id="x", text="Price: 39.90.")
    assert (card["price"], card["currency"]) == ("39.90", "")
