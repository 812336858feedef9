"""A chat opener is no part of the question (issue 26): "hi", "hello, quick question:",
"hallo, kurze Frage", "thanks! also ..." are stripped before retrieval, so that they neither
dilute the message's embedding nor hide how the question itself begins."""

import pytest

from chatwidget.shop.knowledge.asking import opener_strip, refers_back
from chatwidget.shop.knowledge.query import knowledge_query_build

TALK = [  # newest first, as knowledge_select gets them
    ("assistant", "Yes: Duvet cover Nora, white, EUR 139, with coconut buttons."),
    ("visitor", "I'm looking at the Nora duvet cover, the white one."),
]


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("hello, quick question: do you ship to Canada?", "do you ship to Canada?"),
        ("hallo, kurze Frage: gibt es Gutscheine?", "gibt es Gutscheine?"),
        ("thanks! also is VAT included?", "is VAT included?"),
        ("Hi, sind die Filzhausschuhe noch da?", "sind die Filzhausschuhe noch da?"),
        ("Ah ok. Andere Frage: Ist die Retoure kostenlos?", "Ist die Retoure kostenlos?"),
        ("Great, one more thing: I'm in Belgium", "I'm in Belgium"),
        ("ok cool. can I pay with paypal?", "can I pay with paypal?"),
        ("Noch was anderes – verkauft ihr Tischdecken?", "verkauft ihr Tischdecken?"),
        ("Danke! Und in schwarz?", "Und in schwarz?"),
        # what is no opener, or all there is, stays
        ("super soft blanket?", "super soft blanket?"),
        ("also in blue?", "also in blue?"),
        ("hi", "hi"),
    ],
)
def test_opener_strip(message, question):
    assert opener_strip(message) == question


def test_the_embedding_is_made_of_the_question_alone():
    query = knowledge_query_build(message="hello, quick question: do you ship to Canada?")
    assert query.embed_text == "do you ship to Canada?"


def test_thanks_also_opens_a_new_question():
    """After "thanks!", "also" announces another question: it does not lean on the duvet."""
    query = knowledge_query_build(message="thx. also is VAT included in your prices?", recent=TALK)
    assert set(query.lead) == {"vat", "included", "prices"} and not query.refers_back


def test_a_follow_up_after_thanks_still_leans_on_the_subject():
    query = knowledge_query_build(message="Danke! Und in schwarz?", recent=TALK)
    assert query.refers_back


@pytest.mark.parametrize(
    ("message", "back"),
    [
        ("one of the plates has a crack in the glaze", False),
        ("is the white one machine washable?", True),
    ],
)
def test_one_of_is_no_pronoun(message, back):
    assert refers_back(message) is back
