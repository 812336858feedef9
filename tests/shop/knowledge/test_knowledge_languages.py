"""Stems beyond English and German (chatwidget/shop/knowledge/analysis.py): a page in French,
Spanish, Italian, Dutch or Polish is stemmed in its own language, and a visitor's plural
finds the page's singular (and back), on the full-text engine as in the rescoring."""

import json

import pytest

from chatwidget.shop.knowledge.analysis import language_guess, stems
from chatwidget.shop.knowledge.query import knowledge_query_build, text_terms, words
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure

# (language, page title, page text, what a visitor asks: the other number of the same noun)
PAGES = [
    (
        "fr",
        "Retours",
        "Vous pouvez renvoyer la chaussure dans les 30 jours avec votre bon de retour.",
        "Les chaussures sont-elles remboursées ?",
    ),
    (
        "es",
        "Devoluciones",
        "Puede devolver los zapatos en un plazo de 30 días con la etiqueta.",
        "¿Cómo devuelvo un zapato?",
    ),
    (
        "it",
        "Resi",
        "Le scarpe si possono restituire entro 30 giorni con il modulo.",
        "Posso restituire una scarpa?",
    ),
    (
        "nl",
        "Retourneren",
        "U kunt de schoenen binnen 30 dagen retourneren met het formulier.",
        "Kan ik een schoen terugsturen?",
    ),
    (
        "pl",
        "Zwroty",
        "Koszule można zwrócić w ciągu 30 dni przez formularz.",
        "Czy mogę oddać koszulę?",
    ),
]


@pytest.mark.parametrize(
    ("a", "b", "language"),
    [
        ("chaussure", "chaussures", "fr"),
        ("livraison", "livraisons", "fr"),
        ("zapato", "zapatos", "es"),
        ("devolución", "devoluciones", "es"),
        ("scarpa", "scarpe", "it"),
        ("spedizione", "spedizioni", "it"),
        ("schoen", "schoenen", "nl"),
        ("levering", "leveringen", "nl"),
        ("koszula", "koszule", "pl"),
        ("dostawa", "dostawy", "pl"),
    ],
)
def test_singular_and_plural_meet_in_each_language(a, b, language):
    assert text_terms(a, language=language) == text_terms(b, language=language)


def test_those_plurals_did_not_meet_as_english():
    """What the English stemmer made of them before: the plural kept apart."""
    assert text_terms("scarpa", language="en") != text_terms("scarpe", language="en")
    assert text_terms("schoen", language="en") != text_terms("schoenen", language="en")


@pytest.mark.parametrize(("language", "title", "text", "question"), PAGES)
def test_the_language_of_a_page_is_told(language, title, text, question):
    assert language_guess(text) == language


def test_a_query_word_gets_its_own_languages_stem_besides_english_and_german():
    assert stems("scarpe", "it")[-1] == "scarp"
    assert len(stems("scarpe", "en")) <= 2


def test_function_words_of_the_other_languages_are_no_search_terms():
    assert words("les chaussures avec une semelle") == ["chaussures", "semelle"]
    assert words("Czy mogę oddać koszulę?") == ["moge", "oddac", "koszule"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("language", "title", "text", "question"), PAGES)
def test_a_plural_finds_the_singular_page_and_back(site, tmp_path, language, title, text, question):
    """A shop in that language: the visitor's inflection finds the page through the index
    and ranks it first, among a page that shares no stem."""
    site.default_language = language
    site.save()
    path = tmp_path / f"{language}.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(d)
            for d in (
                {"id": "p-1", "title": title, "text": text},
                {"id": "p-2", "title": "Impressum", "text": "Shop GmbH, Berlin, 10115."},
            )
        )
    )
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    query = knowledge_query_build(message=question, language=language)
    assert query.language == language
    found = knowledge_search(site=site, query=query, limit=3)
    assert [c.title for c in found][:1] == [title]
