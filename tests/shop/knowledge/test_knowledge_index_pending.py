"""PostgreSQL's full-text index stays merged after the background embedding (issue 26).

Every chunk the embedding task gives a vector is a new row version with new entries in the
GIN index, which wait in its pending list; every search scans that list row by row until
autovacuum merges it (after the embedding of 10,000 chunks a full-text search took 27 ms at
p50 against 3 ms merged: knowledge_bench). The task merges it as it writes."""

import numpy as np
import pytest
from django.db import connection

from chatwidget.shop.knowledge import embedding_queue
from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_pending
from chatwidget.shop.models.knowledge import KnowledgeChunk

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's GIN index"),
]


def _pending_pages() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pending_pages FROM pgstatginindex('knowledge_chunk_search')")
        return cursor.fetchone()[0]


@pytest.fixture
def pgstattuple():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'pgstattuple'")
        if cursor.fetchone() is None:
            pytest.skip("PostgreSQL without its contrib module pgstattuple")
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")


def _fake_vectors(texts, kind="passage"):
    rng = np.random.default_rng(len(texts))
    return [rng.normal(size=384).astype(np.float32).tobytes() for _ in texts]


def test_the_embedding_task_leaves_the_full_text_index_merged(demo_site, pgstattuple, monkeypatch):
    assert _pending_pages() == 0  # the import merged it (backends.statistics_refresh)
    monkeypatch.setattr(embedding_queue, "embed", _fake_vectors)
    run = knowledge_embed_pending(site_id=demo_site.pk)
    assert run.embedded == KnowledgeChunk.objects.filter(site=demo_site).count() > 0
    assert _pending_pages() == 0


def test_without_the_merge_the_vectors_wait_in_the_pending_list(
    demo_site, pgstattuple, monkeypatch
):
    """The premise: the task's writes do fill the pending list."""
    monkeypatch.setattr(embedding_queue, "embed", _fake_vectors)
    monkeypatch.setattr(embedding_queue.backends, "pending_merge", lambda: None)
    knowledge_embed_pending(site_id=demo_site.pk)
    assert _pending_pages() > 0
