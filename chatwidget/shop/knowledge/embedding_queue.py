"""Chunk vectors in the background (issue 26): an import makes its chunks searchable by full
text at once and leaves their `embedding` empty; the worker then embeds them in batches
(`knowledge_embed_pending`, run by the task `chatwidget.shop.tasks.knowledge_embed`), and
hybrid retrieval uses each batch's vectors once it is stored (a chunk without a vector is
found by full text only).

Why not at import: the embedded model needs about 50 ms per passage on this class of
machine, so embedding 10,000 products inline would hold the import (and the admin's progress
bar) for minutes; full text alone answers meanwhile.

The matrix of a site's vectors (vectors.py) is read again when the knowledge version
changes: a run changes it after its first batch, then at most every VERSION_EVERY_SECONDS
and at its end, so processes are not made to re-read a growing matrix on every turn.
"""

import logging
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.shop.knowledge import backends
from chatwidget.shop.knowledge.embeddings import embed, embedding_model
from chatwidget.shop.knowledge.vectors import knowledge_version_bump, vectors_pack
from chatwidget.shop.models.knowledge import KnowledgeChunk

log = logging.getLogger(__name__)

KNOWLEDGE_EMBED_TASK = "chatwidget.shop.tasks.knowledge_embed"
VERSION_EVERY_SECONDS = 5.0
WINDOW_SENTENCES = 2
WINDOWS_MAX = 8  # per chunk (chunking.MAX_TOKENS keeps a chunk to about 20 sentences)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def knowledge_embed_schedule(site_id: int) -> None:
    """After commit, start the background embedding of the site's new chunks (nothing when
    embeddings are off)."""
    if embedding_model():
        task_enqueue_on_commit(KNOWLEDGE_EMBED_TASK, site_id)


def passage_text(title: str, text: str) -> str:
    """What a chunk's own vector is made of: its document's title, then its text."""
    return f"{title}\n{text}"


def passage_texts(title: str, text: str, identifiers: list[str] | None = None) -> list[str]:
    """What a chunk's vectors are made of: the whole (`passage_text`), and for a page's
    chunk of more than WINDOW_SENTENCES sentences its windows too (the title, then
    WINDOW_SENTENCES sentences; vectors.vector_search counts the best one).

    A page (no identifiers: delivery, returns, care, the newsletter) answers several
    questions in one chunk, and a question worded unlike the page matches the sentences
    that answer it better than the whole: "how will the table get to my flat? I live on
    the 4th floor" against a furniture-delivery page that also covers dates and costs. A
    product (identifiers) is one subject and a shop has thousands: one vector each keeps
    the matrix and the background embedding as they were. Measured on the held-out set's
    dev part (tests/bench/retrieval_heldout.py): hit@3 0.966 -> 0.971, among all sent
    0.977 -> 0.994 (ARCHITECTURE.md)."""
    whole = passage_text(title, text)
    if identifiers:
        return [whole]
    sentences = [s for s in _SENTENCE_END.split(text) if s.strip()]
    if len(sentences) <= WINDOW_SENTENCES:
        return [whole]
    windows = [
        f"{title}\n{' '.join(sentences[i : i + WINDOW_SENTENCES])}"
        for i in range(0, len(sentences), WINDOW_SENTENCES)
    ]
    return [whole, *windows[:WINDOWS_MAX]]


@dataclass
class EmbedRun:
    embedded: int = 0
    batches: int = 0
    seconds: float = 0.0
    failed: bool = False  # the embedder gave nothing: the run stopped (logged)
    remaining: bool = False  # chunks without a vector are left (time up or a failure)


def _pending(site_id: int):
    return KnowledgeChunk.objects.filter(site_id=site_id, embedding=None)


def knowledge_embed_pending(
    *, site_id: int, max_seconds: float | None = None, batch: int | None = None
) -> EmbedRun:
    """Embed the site's chunks that have no vector, oldest first, `batch` at a time, until
    none is left or `max_seconds` have passed. Safe to run twice: each row is written only
    while it still has no vector, and a chunk deleted meanwhile is simply not updated."""
    size = batch or settings.EMBEDDING_BATCH
    run = EmbedRun()
    started = bumped = time.perf_counter()
    while True:
        rows = list(
            _pending(site_id)
            .order_by("pk")
            .values_list("pk", "title", "text", "identifiers")[:size]
        )
        if not rows:
            break
        texts = [passage_texts(title, text, ids) for _, title, text, ids in rows]
        flat = embed([t for chunk in texts for t in chunk])
        if not flat or len(flat) != sum(len(chunk) for chunk in texts):
            run.failed = True
            log.warning("knowledge embedding stopped", extra={"site": site_id})
            break
        vectors, at = [], 0
        for chunk in texts:
            vectors.append(vectors_pack(flat[at : at + len(chunk)]))
            at += len(chunk)
        with transaction.atomic():
            for (pk, *_), vector in zip(rows, vectors, strict=True):
                KnowledgeChunk.objects.filter(pk=pk, embedding=None).update(embedding=vector)
        now = time.perf_counter()
        if run.batches == 0 or now - bumped >= VERSION_EVERY_SECONDS:
            knowledge_version_bump(site_id)  # outside a transaction: at once
            backends.pending_merge()  # the vectors' new row versions: searches stay fast
            bumped = now
        run.embedded += len(rows)
        run.batches += 1
        if max_seconds is not None and time.perf_counter() - started >= max_seconds:
            break
    if run.embedded:
        knowledge_version_bump(site_id)
        backends.pending_merge()
    run.seconds = time.perf_counter() - started
    run.remaining = _pending(site_id).exists()
    return run


def knowledge_embed_remaining(*, site_id: int) -> bool:
    return _pending(site_id).exists()


def knowledge_embed_sites() -> list[int]:
    """Sites with chunks still without a vector (nothing when embeddings are off)."""
    if not embedding_model():
        return []
    return list(
        KnowledgeChunk.objects.filter(embedding=None)
        .order_by()
        .values_list("site_id", flat=True)
        .distinct()
    )
