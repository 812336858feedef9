"""The colour variants of one product take one place among the first for a question of its
own (issue 26: scoring.variants_later), and keep their places in a talk about the product."""

from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.scoring import Candidate, candidates_score

TABLE = (
    "Dining table Oslo in solid oak wood, 180 x 90 cm, seats six. Colour: {colour}. "
    "Price: EUR 899.00. Delivered by our freight partner. Also available in: {others}."
)
COLOURS = ("natural", "black", "white")
DELIVERY = (
    "Furniture delivery: our freight partner carries large items up to your flat, any "
    "floor, and unpacks them. You choose a two-hour slot after your order."
)


def _candidates() -> list[Candidate]:
    """Three variants of a table nearest to the question, then the delivery page, then a
    page about something else (the similarities a dense model gave such a question)."""
    variants = [
        Candidate(
            chunk_id=i + 1,
            title=f"Dining table Oslo, {colour}",
            url="",
            identifiers=[f"OT-900-{colour[:2].upper()}"],
            text=TABLE.format(colour=colour, others=", ".join(set(COLOURS) - {colour})),
            token_count=40,
            similarity=0.86 - i * 0.001,
        )
        for i, colour in enumerate(COLOURS)
    ]
    return [
        *variants,
        Candidate(10, "Furniture delivery", "", [], DELIVERY, 30, similarity=0.85),
        Candidate(11, "Gift cards", "", [], "Gift cards never expire.", 10, similarity=0.80),
    ]


def test_a_question_of_its_own_gets_one_variant_and_the_page_that_answers_it():
    """Without the rule the table's three variants took the three first places and the
    delivery page came fourth: one variant says what the others would."""
    query = knowledge_query_build(message="how will the table get to my flat?")
    ranked = [c.chunk_id for c in candidates_score(query=query, candidates=_candidates(), places=3)]
    assert ranked[:3] == [1, 10, 11]
    assert ranked[3:] == [2, 3]  # the other variants follow, in their order


def test_in_a_talk_about_the_product_its_variants_keep_their_places():
    """ "and in black?" about the table: the variants are the subject, none is pushed out."""
    query = knowledge_query_build(
        message="and in black?",
        core={"objects": [{"kind": "article", "id": "OT-900-NA", "label": "Dining table Oslo"}]},
    )
    ranked = [c.chunk_id for c in candidates_score(query=query, candidates=_candidates(), places=3)]
    assert set(ranked[:3]) == {1, 2, 3}


def test_different_products_are_not_variants():
    """Two products of one kind share words, far fewer than variants do: both stay."""
    shirts = [
        Candidate(1, "Linen shirt Porto", "", ["LS-1"], "Relaxed linen shirt, button-down "
                  "collar, chest pocket. Material: linen. Care: 40 °C.", 20, similarity=0.9),
        Candidate(2, "Oxford shirt", "", ["OX-1"], "Classic cotton oxford shirt with a "
                  "button-down collar. Material: cotton. Care: 30 °C.", 20, similarity=0.89),
        Candidate(3, "Returns", "", [], "Return within 30 days.", 10, similarity=0.7),
    ]  # fmt: skip
    query = knowledge_query_build(message="which shirts have a button-down collar?")
    ranked = [c.chunk_id for c in candidates_score(query=query, candidates=shirts, places=2)]
    assert ranked[:2] == [1, 2]
