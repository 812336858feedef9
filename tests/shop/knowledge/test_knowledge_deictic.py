"""asking.deictic: which messages point at what the visitor is looking at (the page's
document then comes first), and the query it shapes (query.knowledge_query_build)."""

import pytest

from chatwidget.shop.knowledge.asking import deictic
from chatwidget.shop.knowledge.query import PageDocument, knowledge_query_build

PAGE = PageDocument(key="https://shop.example/p/ku-2291-s", identifiers=["KU-2291-S"])


@pytest.mark.parametrize(
    "message, pointing",
    [
        ("Does this come in XL?", True),
        ("this one", True),
        ("Are these washable?", True),
        ("Gibt es das in XL?", True),
        ("das hier", True),
        ("Ist dieses Kleid waschbar?", True),
        ("Do gift cards expire?", False),
        ("Ist das Kleid waschbar?", False),  # "das" before a noun is an article
        ("Is it washable?", False),  # "it" leans on the conversation, not on the page
    ],
)
def test_what_points_at_the_page(message, pointing):
    assert deictic(message) is pointing


def test_the_page_wins_for_this_and_for_it_when_the_memory_holds_no_subject():
    assert knowledge_query_build(message="Does this come in XL?", page=PAGE).page_wins
    assert knowledge_query_build(message="Is it washable?", page=PAGE).page_wins
    talked = [("visitor", "I like the shirt TS-1001-B.")]
    assert not knowledge_query_build(message="Is it washable?", recent=talked, page=PAGE).page_wins
    assert knowledge_query_build(message="Is this washable?", recent=talked, page=PAGE).page_wins
    assert not knowledge_query_build(message="Do gift cards expire?", page=PAGE).page_wins
    assert not knowledge_query_build(message="Does this come in XL?").page_wins


def test_the_pages_identifiers_are_active_objects():
    query = knowledge_query_build(message="Do gift cards expire?", page=PAGE)
    assert "ku2291s" in query.active_ids and query.shown["ku2291s"] == "KU-2291-S"
    assert "ku2291s" not in query.terms, "searched for, not scored"
