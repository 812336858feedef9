"""The analyser both full-text engines index with: Snowball stems per language, a few English
derivations joined, German compounds split, umlauts folded (chatwidget/shop/knowledge/analysis.py)."""

import pytest

from chatwidget.shop.knowledge.analysis import compound_splits, language_guess, stem
from chatwidget.shop.knowledge.query import term_matches, text_terms


@pytest.mark.parametrize(
    ("a", "b", "language"),
    [
        ("size", "sizes", "en"),
        ("wash", "washable", "en"),
        ("shipping", "shipment", "en"),
        ("delivery", "deliveries", "en"),
        ("größe", "größen", "de"),
        ("größe", "groesse", "de"),
        ("hose", "hosen", "de"),
    ],
)
def test_forms_of_one_word_meet(a, b, language):
    assert text_terms(a, language=language) == text_terms(b, language=language)


@pytest.mark.parametrize(
    ("a", "b"), [("rücksendung", "rucksack"), ("rucksendung", "rucksack"), ("versand", "sand")]
)
def test_different_words_stay_apart(a, b):
    assert text_terms(a, language="de") != text_terms(b, language="de")


def test_umlauts_fold_as_the_visitor_types_them():
    assert stem("groesse", "de") == stem("grösse", "de") == stem("größe", "de")


def test_a_german_compound_matches_its_parts():
    """Rücksendeetikett finds a text about the Etikett of a Rücksendung, and only when both
    parts are there."""
    found = set(text_terms("Das Etikett für die Rücksendung liegt bei.", language="de"))
    assert term_matches("rucksendeetikett", found)
    assert not term_matches("rucksendeetikett", set(text_terms("Das Etikett.", language="de")))
    assert ("waschmaschin", "") not in compound_splits("waschmaschine")
    assert (stem("wasch", "de"), stem("maschine", "de")) in compound_splits("waschmaschine")


def test_language_is_told_by_function_words():
    assert language_guess("Die Hose ist aus Leinen und für den Sommer.") == "de"
    assert language_guess("The trousers are made of linen for the summer.") == "en"
    assert language_guess("Leinen", default="de") == "de"


def test_a_word_finds_the_compound_it_begins_or_ends():
    """Geschenk ~ Geschenkverpackung, Lieferung ~ Expresslieferung; a short part does not
    (Sand is no part of Versand)."""
    from chatwidget.shop.knowledge.analysis import compound_parts

    parts = compound_parts(
        set(text_terms("Geschenkverpackung und Expresslieferung", language="de"))
    )
    assert term_matches("geschenk", set(), parts)
    assert term_matches("lieferung", set(), parts)
    versand = compound_parts(set(text_terms("Versandkosten", language="de")))
    assert not term_matches("sand", set(), versand)
