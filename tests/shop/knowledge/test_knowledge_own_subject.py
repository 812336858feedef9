"""A message that names no subject of its own leans on the conversation's (issue 26): "what's
the material?" after a talk about a duvet cover keeps the duvet cover, although it has no
pronoun for `refers_back` to see and a page about materials matches its word better; a
question with a word of its own ("do you ship to Canada?") still changes the subject."""

import json

import pytest

from chatwidget.shop.knowledge import backends
from chatwidget.shop.knowledge.query import knowledge_query_build, names_no_subject
from chatwidget.shop.knowledge.scoring import names_own_subject
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeChunk

PRODUCTS = [
    ("DC-100-WH", "Duvet cover Nora, white", "Stonewashed duvet cover with coconut buttons."),
    ("TW-200-GR", "Bath towel Lina, grey", "Soft terry towel, 70 x 140 cm."),
    ("SH-300-BL", "Linen shirt Porto, blue", "A relaxed men's shirt with a chest pocket."),
    ("SK-400-BK", "Wool socks Tove, black", "Warm socks for cold winter days."),
    ("MG-500-SA", "Stoneware mug Ebba, sand", "A hand-glazed mug for tea or coffee."),
]
MATERIALS = ["100% linen", "cotton terry", "100% European linen", "merino wool", "stoneware"]
# a shop's size: below backends.SHARES_FROM_CHUNKS chunks a word's share says nothing
FILLER = [
    (f"FL-{n}", f"{thing} {name}", f"A {thing.lower()} for every day.")
    for n, (thing, name) in enumerate(
        (thing, name)
        for thing in ("Scarf", "Cushion", "Blanket")
        for name in ("Alma", "Bo", "Cleo", "Dag", "Eli")
    )
]
PAGES = [
    (
        "page-materials",
        "Our materials",
        "Which material we choose and why: every material is certified, and we tell you "
        "where each material comes from. Material matters to us.",
    ),
    (
        "page-shipping",
        "Shipping",
        "We ship to Germany, Austria and Canada. Parcels to Canada take 8-12 working days.",
    ),
]
TALK = [  # newest first, as knowledge_select gets them
    ("assistant", "Yes: Duvet cover Nora, white, EUR 139, with coconut buttons."),
    ("visitor", "I'm looking at the Nora duvet cover, the white one."),
]
CORE = {"objects": [{"kind": "article", "id": "DC-100-WH", "label": "Duvet cover Nora, white"}]}


@pytest.fixture
def shop(site, tmp_path):
    rows = [
        {"id": pid, "title": title, "text": f"{text} Material: {material}.", "identifiers": [pid]}
        for (pid, title, text), material in zip(PRODUCTS, MATERIALS, strict=True)
    ] + [{"id": pid, "title": title, "text": text} for pid, title, text in FILLER + PAGES]
    feed = tmp_path / "shop.jsonl"
    feed.write_text("\n".join(json.dumps(row) for row in rows))
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(feed))).ok
    return site


def top(site, **query) -> list[str]:
    doc_of = dict(KnowledgeChunk.objects.values_list("pk", "document__external_id"))
    found = knowledge_search(site=site, query=knowledge_query_build(**query), limit=3)
    return [doc_of[c.chunk_id] for c in found]


@pytest.mark.parametrize(
    ("lead", "shares", "expected"),
    [
        (["material"], {"material": 0.9}, True),
        (["material", "colour"], {"material": 0.9, "colour": 0.5}, True),
        # one or two words in no chunk name no subject ("how tall roughly?" after a product),
        (["tall", "roughly"], {"tall": 0.0, "roughly": 0.0}, True),
        (["ship", "canada"], {"ship": 0.3, "canada": 0.0}, True),
        # the words of the topic the message asks about do ("do you ship to Canada?": topics.py)
        (["ship", "canada", "shipping"], {"ship": 0.3, "canada": 0.0, "shipping": 0.05}, False),
        # and so do three of them ("a tablecloth with blue stripes" in a German shop)
        (
            ["tablecloth", "seater", "stripes"],
            dict.fromkeys(["tablecloth", "seater", "stripes"], 0.0),
            False,
        ),
        (["ship", "canada"], {}, False),  # no counts (a small catalogue): a subject of its own
        (["material", "canada"], {"material": 0.9, "canada": 0.01}, False),
        ([], {}, True),
    ],
)
def test_names_no_subject(lead, shares, expected):
    assert names_no_subject(lead, shares) is expected


@pytest.mark.django_db(transaction=True)
def test_term_shares_count_the_chunks_that_hold_a_word(shop):
    shares = backends.term_shares(terms=["material", "canada", "zebra"], language="en")
    assert shares["material"] > 0.2  # five products and the materials page of 22 chunks
    assert 0.0 < shares["canada"] < 0.2  # the shipping page alone
    assert shares.get("zebra", 0.0) == 0.0


@pytest.mark.django_db(transaction=True)
def test_a_small_shop_has_no_shares(site, tmp_path):
    feed = tmp_path / "small.jsonl"
    feed.write_text(json.dumps({"id": "A", "title": "Mug", "text": "A mug. Material: clay."}))
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(feed))).ok
    assert backends.term_shares(terms=["material"], language="en") == {}


@pytest.mark.django_db(transaction=True)
def test_a_question_without_a_subject_of_its_own_keeps_the_product(shop):
    # asked in a fresh conversation, the page about materials answers it best
    assert top(shop, message="what's the material?")[0] == "page-materials"
    assert top(shop, message="what's the material?", recent=TALK)[0] == "DC-100-WH"


@pytest.mark.django_db(transaction=True)
def test_a_question_with_a_word_of_its_own_still_changes_the_subject(shop):
    assert top(shop, message="do you ship to Canada?", recent=TALK)[0] == "page-shipping"


@pytest.mark.parametrize(
    ("fresh", "shares", "expected"),
    [
        (["pick", "up", "hamburg", "shop", "sent"], {"shop": 0.08}, True),
        (["deliver", "france", "cost"], {"deliver": 0.05, "france": 0.01}, True),
        (["cotton", "machine", "washable"], {"cotton": 0.1, "washable": 0.25}, False),
        (["blue"], {"blue": 0.05}, False),
        ([], {}, False),
    ],
)
def test_names_own_subject(fresh, shares, expected):
    assert names_own_subject(fresh, shares) is expected


@pytest.mark.django_db(transaction=True)
def test_a_question_with_a_pronoun_and_a_subject_of_its_own_changes_the_subject(shop):
    """ "it" leans back by its form, yet shipping, Canada and working days are a new subject:
    ranked as a question of its own (scoring.names_own_subject), not by the duvet talk."""
    message = "and can it go to Canada in 8-12 working days?"
    assert knowledge_query_build(message=message, recent=TALK, core=CORE).refers_back
    assert top(shop, message=message, recent=TALK, core=CORE)[0] == "page-shipping"
    # a follow-up that names a word of its own still keeps the product
    assert top(shop, message="is it made of linen?", recent=TALK, core=CORE)[0] == "DC-100-WH"
