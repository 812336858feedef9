"""The visitor's page as a retrieval signal, through the real consumer and the real search
(DESIGN.md, the `message` frame's `page`): on a product page, "does this come in XL?" (or
"gibt es das in XL?") sends that product's size excerpt first, whatever other products say
about XL; the page's identifiers join the active objects; a page with no document of its own
changes nothing."""

import json
import re

import pytest
from channels.db import database_sync_to_async

from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeTrace

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

EXCERPT = re.compile(
    r'<<<excerpt (\d+) title="([^"]*)"(?: url="([^"]*)")?\n(.*?)\nexcerpt>>>', re.S
)
SHOP = "https://shop.example"
COLOURS = {"KU-2291-M": "mint", "KU-2291-R": "rose", "KU-2291-S": "sand"}
XL = {"KU-2291-M": "in stock", "KU-2291-R": "sold out", "KU-2291-S": "back in May"}


def _catalogue(site, tmp_path):
    docs = [
        {
            "id": sku,
            "title": f"Cotton kurta, {colour}",
            "url": f"{SHOP}/p/{sku.lower()}/",  # the shop's spelling: a trailing slash
            "identifiers": [sku],
            "text": f"Cotton kurta in {colour}. Article {sku}. Light cotton voile.\n\n"
            f"Sizes S to XL (size M: in stock; size L: in stock; size XL: {XL[sku]}).",
        }
        for sku, colour in COLOURS.items()
    ] + [
        {
            "id": "size-guide",
            "title": "Size guide",
            "url": f"{SHOP}/pages/sizes",
            "text": "Our sizes run S, M, L, XL and XXL. XL fits a chest of 112 cm.",
        }
    ]
    path = tmp_path / "catalogue.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    result = knowledge_import(source=knowledge_source_ensure(site=site, location=str(path)))
    assert result.ok, result.problems


@pytest.fixture
def kurtas(site, tmp_path):
    _catalogue(site, tmp_path)
    return site


def excerpts(body) -> list[tuple[str, str]]:
    """(url, text) of every excerpt the model was sent, in order."""
    found = []
    for m in body["messages"]:
        if m["role"] == "system":
            found += [(u, x) for _, _, u, x in EXCERPT.findall(m["content"])]
    return found


async def ask(connect, site, text, page=None):
    c = await connect(site.key)
    await c.hello()
    frame = {"type": "message", "id": "m1", "text": text}
    if page:
        frame["page"] = page
    await c.send(frame)
    await c.recv_until("ack", id="m1")
    await c.answer()


def last_knowledge_trace():
    return KnowledgeTrace.objects.order_by("-id").first()


@pytest.mark.parametrize(
    "question", ["Does this come in XL?", "Gibt es das in XL?", "this one in XL?"]
)
@pytest.mark.parametrize("sku", ["KU-2291-R", "KU-2291-S"])
async def test_this_on_a_product_page_sends_that_products_size_excerpt(
    kurtas, connect, fake_llm, question, sku
):
    page = {"url": f"{SHOP}/p/{sku.lower()}?utm_source=mail#sizes", "title": "Cotton kurta"}
    await ask(connect, kurtas, question, page)
    found = excerpts(fake_llm.requests[-1])
    assert found, "excerpts were sent"
    url, text = found[0]
    assert url == f"{SHOP}/p/{sku.lower()}/"
    assert f"size XL: {XL[sku]}" in text
    trace = await database_sync_to_async(last_knowledge_trace)()
    assert trace.chunks[0]["page"] is True and trace.chunks[0]["sent"] is True


async def test_without_the_page_the_same_question_is_luck(kurtas, connect, fake_llm):
    """The control: the question alone does not name the product, so the page decides."""
    await ask(connect, kurtas, "Does this come in XL?")
    found = excerpts(fake_llm.requests[-1])
    assert not found or found[0][0] != f"{SHOP}/p/ku-2291-s/"


async def test_the_pages_identifiers_join_the_active_objects(kurtas, connect, fake_llm):
    """A question of its own on a product page: ranked by its words, the page's product
    earning the active objects' tie-breaker."""
    page = {"url": f"{SHOP}/p/ku-2291-s", "title": "Cotton kurta, sand"}
    await ask(connect, kurtas, "Cotton kurta sizes?", page)
    trace = await database_sync_to_async(last_knowledge_trace)()
    bonus = {c["chunk"]: c["bonus"] for c in trace.chunks}
    assert sorted(bonus.values(), reverse=True)[0] == 0.05
    assert not any(c.get("page") for c in trace.chunks), "not pointed at: no page first"
    found = excerpts(fake_llm.requests[-1])
    assert found[0][0] == f"{SHOP}/p/ku-2291-s/", "the tie goes to the page's product"


async def test_a_page_without_a_document_changes_nothing(kurtas, connect, fake_llm):
    await ask(connect, kurtas, "Does this come in XL?", {"url": f"{SHOP}/cart", "title": "Cart"})
    with_page = excerpts(fake_llm.requests[-1])
    await ask(connect, kurtas, "Does this come in XL?")
    assert excerpts(fake_llm.requests[-1]) == with_page
