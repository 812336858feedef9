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


def test_a_word_snowball_cuts_short_still_finds_its_compound():
    """Raten (instalments): Snowball leaves "rat", no part of anything; the word itself begins
    "Ratenzahlung" and ends "Monatsraten"."""
    from chatwidget.shop.knowledge.analysis import compound_head, compound_parts

    assert compound_head("raten") == "raten"
    assert compound_head("geschenk") == stem("geschenk", "de")
    assert compound_head("rat") == ""
    parts = compound_parts(set(text_terms("Ratenzahlung mit Klarna", language="de")))
    assert term_matches("raten", set(), parts, language="de")


@pytest.mark.django_db(transaction=True)
def test_a_short_german_word_searches_for_the_compound_it_begins(site, tmp_path):
    """The engine finds "Ratenzahlung" for "Raten" (a prefix search of the word, not of its
    stem "rat"), and the scoring ranks that page first."""
    import json

    from chatwidget.shop.knowledge.query import knowledge_query_build
    from chatwidget.shop.knowledge.selectors import knowledge_search
    from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure

    pages = [
        ("klarna", "Ratenzahlung mit Klarna", "Bezahlen Sie in drei Teilen, ohne Zinsen."),
        ("tisch", "Esstisch Rune, Eiche", "Ein massiver Tisch aus Eiche für sechs Personen."),
        ("pflege", "Pflege von Holz", "Ölen Sie Holz zweimal im Jahr."),
    ]
    feed = tmp_path / "pages.jsonl"
    feed.write_text(
        "\n".join(json.dumps({"id": i, "title": t, "text": x, "lang": "de"}) for i, t, x in pages)
    )
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(feed))).ok
    query = knowledge_query_build(message="Geht das in Raten?", language="de")
    found = knowledge_search(site=site, query=query, limit=3)
    assert [c.title for c in found][:1] == ["Ratenzahlung mit Klarna"]
