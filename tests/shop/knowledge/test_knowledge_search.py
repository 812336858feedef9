"""Search: the query built from memory, the active-object bonus, embeddings fused by RRF,
and the evaluation's target (tests/bench/knowledge_eval.py) held on every run."""

import json

import pytest
from django.db import connection

from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_pending
from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.scoring import ACTIVE_BONUS, Candidate, candidates_score
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeChunk
from tests.bench.knowledge_eval import CONVERSATIONS, evaluate

pytestmark = pytest.mark.django_db(transaction=True)


def titles(site, **query):
    return [
        c.title for c in knowledge_search(site=site, query=knowledge_query_build(**query), limit=3)
    ]


def test_back_reference_needs_memory(demo_site):
    """ShopBot's turn two: alone, "What about size L?" finds size charts; with the turn
    before it, the kurta."""
    assert titles(demo_site, message="What about size L?")[0] != "Cotton kurta, mint"
    assert (
        titles(
            demo_site, message="What about size L?", recent=[("visitor", "Cotton kurta in mint.")]
        )[0]
        == "Cotton kurta, mint"
    )


def test_query_takes_core_objects_constraints_request_and_recent_turns():
    query = knowledge_query_build(
        message="und in Blau?",
        core={
            "request": "eine warme Strickjacke",
            "objects": [{"kind": "article", "id": "SJ-2020-R", "label": "Strickjacke, rot"}],
            "constraints": [{"what": "size", "value": "XL", "turn": 2}],
        },
        recent=[("assistant", "Die LH-2010-S ist ein Leinenhemd."), ("visitor", "Versand?")],
    )
    assert query.terms["blau"] == 1.0
    assert query.terms["strickjacke"] > query.terms["warme"] > 0
    assert "sj2020r" not in query.terms and "sj2020r" in query.backend_terms()
    assert "xl" in query.terms and "versand" in query.terms
    assert query.active_ids == {"sj2020r", "lh2010s"}
    assert query.terms["blau"] > query.terms["versand"]  # the message weighs most


def _candidate(pk, sku, text="Cotton kurta. Sizes S to XL.", title="Cotton kurta"):
    return Candidate(chunk_id=pk, title=title, url="", identifiers=[sku], text=text, token_count=20)


def test_bonus_breaks_a_tie_for_the_active_object():
    query = knowledge_query_build(
        message="cotton kurta sizes", recent=[("visitor", "I looked at KU-22 earlier")]
    )
    ranked = candidates_score(
        query=query, candidates=[_candidate(1, "KU-11"), _candidate(2, "KU-22")]
    )
    assert [c.chunk_id for c in ranked] == [2, 1]
    assert ranked[0].score == ranked[1].score == 1.0  # a tie, broken only by the bonus
    assert (ranked[0].bonus, ranked[1].bonus) == (ACTIVE_BONUS, 0.0)


def test_bonus_does_not_override_a_clearly_stronger_chunk():
    query = knowledge_query_build(
        message="linen shirt washing temperature", core={"objects": [{"id": "KU-22", "label": ""}]}
    )
    ranked = candidates_score(
        query=query,
        candidates=[
            _candidate(1, "KU-22"),
            _candidate(2, "LS-1", title="Linen shirt", text="Linen shirt: washing temperature 40."),
        ],
    )
    assert [c.chunk_id for c in ranked] == [2, 1] and ranked[1].bonus == ACTIVE_BONUS


def test_same_chunks_on_either_database(demo_site):
    """The backend (PostgreSQL tsvector or SQLite FTS5, whichever this run uses) finds the
    German product by a folded word, an inflected word and its article number."""
    assert titles(demo_site, message="Größentabelle")[0] == "Größentabelle"
    assert titles(demo_site, message="groessentabelle mäntel") != []
    assert titles(demo_site, message="WM-2030-B")[0] == "Wollmantel, Blau"


def test_embeddings_stored_and_fused(site, tmp_path, fake_llm, settings):
    """With EMBEDDING_MODEL set, chunks get vectors from /v1/embeddings and a search fuses
    the similarity ranking with the full-text one."""
    settings.EMBEDDING_MODEL = "fake-embed"
    path = tmp_path / "f.jsonl"
    path.write_text(
        "\n".join(
            json.dumps({"id": f"P-{i}", "title": f"Scarf {i}", "text": t})
            for i, t in enumerate(["silk scarf red", "wool scarf grey"])
        )
    )
    result = knowledge_import(source=knowledge_source_ensure(site=site, location=str(path)))
    assert result.ok
    assert knowledge_embed_pending(site_id=site.pk).embedded == 2  # the worker's task
    assert all(len(bytes(c.embedding)) == 64 * 4 for c in KnowledgeChunk.objects.all())
    ranked = knowledge_search(site=site, query=knowledge_query_build(message="grey wool scarf"))
    assert ranked[0].title == "Scarf 1"
    assert all(c.similarity is not None for c in ranked)
    assert ranked[0].similarity > ranked[1].similarity


def test_without_embeddings_nothing_is_called(site, tmp_path, fake_llm, settings):
    settings.EMBEDDING_MODEL = ""
    path = tmp_path / "f.jsonl"
    path.write_text(json.dumps({"id": "P-1", "title": "Scarf", "text": "silk scarf"}))
    knowledge_import(source=knowledge_source_ensure(site=site, location=str(path)))
    assert KnowledgeChunk.objects.get().embedding is None
    assert (
        knowledge_search(site=site, query=knowledge_query_build(message="scarf"))[0].similarity
        is None
    )


def test_evaluation_target_memory_hit_at_3(demo_site):
    """The bench's conversations (>= 40, English and German): hit@3 >= 0.95 with the query
    built from memory, and clearly better than the message alone."""
    assert len(CONVERSATIONS) >= 40
    assert {c.lang for c in CONVERSATIONS} == {"en", "de"}
    rows = evaluate(demo_site)["rows"]["all"]
    assert rows["memory"] / rows["n"] >= 0.95
    assert rows["alone"] / rows["n"] < 0.7


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_german_page_is_stemmed_in_german_whatever_the_sites_language(site, tmp_path, language):
    """ "Hosen" (plural) finds "Hose" through German stemming (both are 'hos'), on either
    engine, also in a shop whose default language is English: the page's own language
    decides how it is indexed."""
    site.default_language = language
    site.save()
    path = tmp_path / "de.jsonl"
    path.write_text(
        json.dumps(
            {"id": "SA-1", "title": "Sommerartikel", "text": "Eine leichte Hose aus Leinen."}
        )
    )
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    assert titles(site, message="Hosen") == ["Sommerartikel"]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT search::text FROM memory_knowledgechunk")
        else:
            cursor.execute("SELECT body FROM memory_knowledgechunk_fts")
        assert "hos" in cursor.fetchone()[0].replace("'", " ").split()


def test_a_return_is_not_a_backpack(site, tmp_path):
    """Rücksendung (return) and Rucksack (backpack) shared a prefix, and found each other."""
    path = tmp_path / "de.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(d)
            for d in (
                {"id": "RS-1", "title": "Rucksack Berg", "text": "Ein Rucksack aus Canvas."},
                {"id": "p-r", "title": "Rücksendung", "text": "Die Rücksendung ist kostenlos."},
            )
        )
    )
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    assert titles(site, message="Rücksendungen") == ["Rücksendung"]
    assert titles(site, message="Rucksäcke") == ["Rucksack Berg"]


def test_words_in_most_chunks_do_not_select_candidates_in_a_large_catalogue(
    site, tmp_path, monkeypatch
):
    """From PRUNE_FROM_CHUNKS chunks on, a word in most chunks ("size") is left to the
    rescoring instead of making the engine rank every row; the product is still found."""
    from django.core.cache import cache

    from chatwidget.shop.knowledge import backends

    path = tmp_path / "many.jsonl"
    colours = ["red", "blue", "green", "grey", "black", "white", "pink", "teal"]
    garments = ["shirt", "skirt", "scarf", "coat"]
    path.write_text(
        "\n".join(
            json.dumps(
                {
                    "id": f"P-{g}-{c}",
                    "title": f"{g} {c}",
                    "text": f"A {c} {g}. Size S to XL, size L in stock. Price 20 EUR.",
                }
            )
            for g in garments
            for c in colours
        )
    )
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    monkeypatch.setattr(backends, "PRUNE_FROM_CHUNKS", 10)
    cache.clear()
    kept, common = backends._selective(
        ["size", "teal", "price", "coat", "wool"], vendor=connection.vendor, language="en"
    )
    assert kept == ["teal", "coat", "wool"]
    kept, common = backends._selective(["size", "price"], vendor=connection.vendor, language="en")
    assert kept == ["size", "price"] and common  # only common words: searched, and cached
    assert (
        titles(site, message="What about size L?", recent=[("visitor", "The teal coat, please.")])[
            0
        ]
        == "coat teal"
    )


def test_an_index_from_before_the_upgrade_is_rebuilt(site, tmp_path):
    """The migration after the analyser changed (shop 0003) indexes every chunk again: a
    chunk indexed with other terms is found by its stems afterwards, on either engine."""
    from chatwidget.shop.knowledge.backends import index_rebuild

    path = tmp_path / "de.jsonl"
    path.write_text(json.dumps({"id": "SA-1", "title": "Sommer", "text": "Eine leichte Hosen."}))
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    with connection.cursor() as cursor:  # as an older version left it: folded words only
        if connection.vendor == "postgresql":
            cursor.execute("UPDATE memory_knowledgechunk SET search = to_tsvector('simple', 'x')")
        else:
            cursor.execute("UPDATE memory_knowledgechunk_fts SET body = 'leichte hosen'")
    assert titles(site, message="Hose") == []
    assert index_rebuild(chunks=KnowledgeChunk.objects.all()) == 1
    assert titles(site, message="Hose") == ["Sommer"]


def test_a_first_messages_words_count_once_beside_its_meaning():
    """A first message has no memory: the memory's query holds just its words. Counted again
    there, they outweighed the embedding: a page that repeats the message's word (A) ranked
    above the page nearest in meaning (B). C only spreads the similarities (min-max)."""
    query = knowledge_query_build(message="can I send the parcel back?")
    assert set(query.terms) == set(query.lead)

    def page(pk, text, similarity):
        return Candidate(
            chunk_id=pk, title=f"Page {pk}", url="", identifiers=[], text=text, token_count=20,
            similarity=similarity,
        )  # fmt: skip

    ranked = candidates_score(
        query=query,
        candidates=[
            page(1, "Every parcel is insured.", 0.77),
            page(2, "Returns are free within 30 days.", 0.80),
            page(3, "Opening hours of our stores.", 0.70),
        ],
    )
    assert [c.chunk_id for c in ranked][:2] == [2, 1]
