"""The question leads (issue 26): a change of subject wins over the earlier product, a
follow-up keeps it, and "Nummer 2" / "the last one" / "das teurere" name an item of the
assistant's last list."""

import pytest

from chatwidget.shop.knowledge.asking import chooses, refers_back
from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.referents import referent
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.models.knowledge import KnowledgeChunk

KURTA_TALK = [
    ("assistant", "The cotton kurta in mint (KU-2291-M) comes in sizes S to XXL, 49.90 EUR."),
    ("visitor", "Cotton kurta in mint, what about size L?"),
]
KURTA_CORE = {
    "request": "a cotton kurta in mint, size L",
    "objects": [{"kind": "article", "id": "KU-2291-M", "label": "cotton kurta, mint"}],
}


def top(site, **query):
    doc_of = dict(KnowledgeChunk.objects.values_list("pk", "document__external_id"))
    found = knowledge_search(site=site, query=knowledge_query_build(**query), limit=3)
    return [doc_of[c.chunk_id] for c in found]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("core", [None, KURTA_CORE])
def test_a_new_subject_wins_over_the_product_talked_about(demo_site, core):
    """ "Do you ship to Canada?" after a kurta talk: the shipping page first, as in a fresh
    conversation (the memory's words no longer push it out)."""
    assert top(demo_site, message="How long does shipping to Austria take?")[0] == "shipping.md"
    found = top(demo_site, message="How long does shipping to Austria take?", core=core,
                recent=KURTA_TALK)  # fmt: skip
    assert found[0] == "shipping.md"


@pytest.mark.django_db(transaction=True)
def test_a_follow_up_keeps_the_product_from_the_core(demo_site):
    found = top(demo_site, message="is it machine washable?", core=KURTA_CORE, recent=[])
    assert found[0] == "KU-2291-M"


@pytest.mark.django_db(transaction=True)
def test_an_item_of_the_last_list_by_its_place(demo_site):
    listed = [
        ("assistant", "We have: 1. Cotton kurta, mint – 49.90 EUR; 2. Linen shirt, sand – 59.90 EUR."),
        ("visitor", "Which shirts do you have?"),
    ]  # fmt: skip
    assert top(demo_site, message="is number 2 machine washable?", recent=listed)[0] == "LS-1180-S"
    assert top(demo_site, message="and the first one?", recent=listed)[0] == "KU-2291-M"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Erzähl mir mehr über Nummer 2.", "Leinenhose Marie, schwarz – 79,00 EUR"),
        ("what about the last one?", "Leinenhose Marie, schwarz – 79,00 EUR"),
        ("Ist das teurere waschbar?", "Leinenhose Marie, schwarz – 79,00 EUR"),
        ("und die günstigere?", "Leinenbluse Ida, weiß – 69,00 EUR"),
        ("Wie wasche ich Leinen?", ""),
    ],
)
def test_referent(message, expected):
    answer = (
        "Wir haben: 1. Leinenbluse Ida, weiß – 69,00 EUR; 2. Leinenhose Marie, schwarz – 79,00 EUR."
    )
    assert referent(message, answer).rstrip(".") == expected


@pytest.mark.parametrize(
    ("message", "back"),
    [
        ("is it machine washable?", True),
        ("and in blue?", True),
        ("Wie groß ist der?", True),
        ("Habt ihr die in 38?", True),
        ("Was kostet das?", True),
        ("do gift cards expire?", False),
        ("Wann kommt die Lieferung?", False),
        ("Habt ihr auch Hausschuhe?", False),
        ("Kann man den Tisch in Raten abbezahlen?", False),
        ("how much for both together?", True),
        ("which is lighter to carry around?", True),
        ("welches is dicker?", True),
        ("which jacket is waterproof?", False),
        ("welche Jacke ist wasserdicht?", False),
        # a short question about the stock or price of what was just named
        ("any left?", True),
        ("wie viele habt ihr noch?", True),
        ("Was ist preislich der Unterschied?", True),
        ("how tall roughly?", True),
        ("Maße?", True),
        ("how long does delivery take to Vienna?", False),
        ("do you have linen tablecloths with blue stripes in stock?", False),
    ],
)
def test_a_message_that_leans_on_an_earlier_subject(message, back):
    assert refers_back(message) is back


def test_a_choice_among_the_things_just_named_keeps_to_them():
    """A choice ("which is lighter to carry around?") names three words the talk has not
    used, as "can I pick it up in the Hamburg shop instead?" does; a choice among the named
    things is about them all the same (no fresh words for scoring.names_own_subject)."""
    recent = [
        ("assistant", "The Calm is a thick terry towel; the Waffel is a light waffle piqué."),
        ("visitor", "need a towel for the gym bag - the grey Calm one or the white waffle towel?"),
    ]
    chooses = knowledge_query_build(message="which is lighter to carry around?", recent=recent)
    assert chooses.refers_back and chooses.fresh == []
    pronoun = knowledge_query_build(message="can I carry it around in hand luggage?", recent=recent)
    assert pronoun.refers_back and pronoun.fresh


@pytest.mark.parametrize(
    ("message", "chosen"),
    [
        ("how long does the woody one last?", True),
        ("is that one in stock?", True),
        ("welches davon kann in die Maschine?", True),
        ("one of the plates has a crack, what do I do?", False),
        # a statement before the question names it; the question asks about the address
        ("I ordered the sage one yesterday. Can you send it to my new address instead?", False),
    ],
)
def test_what_chooses_among_the_things_just_named(message, chosen):
    assert chooses(message) is chosen
