"""Writing shop knowledge: importing sources (streamed, idempotent) and deleting them.

An import reads a source document by document and writes in batches of BATCH documents,
each batch in one transaction and a few statements (document rows, chunks and their
full-text rows together), so a failure leaves either the old version or the new one
searchable, never half of one; a batch that fails is written again document by document,
each in its own savepoint, so that one bad document is reported and the others kept.
Unchanged documents (same content hash) are not re-processed. Chunks are stored without
their vector and searchable by full text at once; the worker embeds them afterwards
(embedding_queue.py), and a changed document's chunk whose title and text are unchanged
keeps its vector (re-imports do not re-embed what they did not change); a page imported
before is asked for with its ETag and Last-Modified, and a 304 keeps its document, chunks
and vectors without reading it again. Documents the source no longer holds are deleted, but
only after a complete read: a source that failed, had lines that could not be read or a
sitemap that failed deletes nothing (a broken feed must not empty the shop); a page that
answers 404 or 410 goes, one that fails for now (5xx, timeout) stays (documents.Problem).
"""

import logging
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from chatwidget.platform import cache_keys
from chatwidget.platform.owned import owned_release, owned_renew, owned_take
from chatwidget.shop.knowledge import backends
from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_schedule
from chatwidget.shop.knowledge.readers import (
    INCOMPLETE,
    KEEP,
    Doc,
    Problem,
    SourceError,
    Unchanged,
    read_source,
    read_stored,
)
from chatwidget.shop.knowledge.selectors import AVAILABLE, HINT_SECONDS
from chatwidget.shop.knowledge.storing import (
    PreparedDocument,
    document_digest,
    document_prepare,
    document_store,
    documents_store,
)
from chatwidget.shop.knowledge.vectors import knowledge_version_bump
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument, KnowledgeSource
from chatwidget.sites.models import Site

log = logging.getLogger(__name__)
BATCH = 100
MAX_PROBLEMS_KEPT = 100


@dataclass
class ImportResult:
    read: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    not_modified: int = 0  # of the unchanged: pages a 304 answered (not fetched, not parsed)
    deleted: int = 0
    problems: list[str] = field(default_factory=list)
    failed: str = ""  # the source could not be read at all
    incomplete: bool = False  # a problem hid documents: nothing unseen is removed

    @property
    def ok(self) -> bool:
        return not self.failed and not self.problems


def _site_model(site: Site) -> str:
    return site.model_name or settings.CHAT_MODEL


def knowledge_source_ensure(*, site: Site, location: str) -> KnowledgeSource:
    """The source for a path or URL (a path is made absolute, so the same folder given twice
    is one source)."""
    if location.startswith(("http://", "https://")):
        kind = KnowledgeSource.Kind.URL
    else:
        kind = KnowledgeSource.Kind.PATH
        location = str(Path(location).expanduser().resolve())
    source, _ = KnowledgeSource.objects.get_or_create(
        site=site, location=location, defaults={"kind": kind}
    )
    return source


def _batches(items: Iterator, size: int) -> Iterator[list]:
    batch: list = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


@contextmanager
def knowledge_import_lock(source_id: int, *, run: str | None = None) -> Iterator[bool]:
    """Yields whether this run holds the source's lock (a cache key that outlives the task's
    hard time limit: KNOWLEDGE_IMPORT_LOCK_SECONDS). A second run of the same source, a
    re-import asked meanwhile, gets False and must not import. The lock is released before a
    retry is published, so retries never overlap either.

    `run` names the task message (its id). The broker hands the same message out again only
    when the run that had it is gone: its pool process was killed (reject on worker lost:
    requeued at once) or its whole worker was (the visibility timeout, longer than the lock).
    So a lock held under the same name is a dead run's, and the redelivery takes it over
    instead of being skipped: skipped, the import would never finish."""
    key = cache_keys.knowledge_import_lock(source_id)
    token = run or secrets.token_hex(8)
    timeout = settings.KNOWLEDGE_IMPORT_LOCK_SECONDS
    held = owned_take(key, token, timeout)
    if not held and run is not None and owned_renew(key, run, timeout):
        log.warning("knowledge import resumed after its run died", extra={"source": source_id})
        held = True
    try:
        yield held
    finally:
        if held:
            owned_release(key, token)


@contextmanager
def knowledge_embed_lock(site_id: int) -> Iterator[bool]:
    """Yields whether this run holds the site's background-embedding lock (one run per site
    at a time; it outlives the task's hard limit)."""
    key = cache_keys.knowledge_embed_lock(site_id)
    token = secrets.token_hex(8)
    held = owned_take(key, token, 600)
    try:
        yield held
    finally:
        if held:
            owned_release(key, token)


def knowledge_import(
    *, source: KnowledgeSource, progress: Callable[[int], None] | None = None
) -> ImportResult:
    """Import (or re-import) one source. Streamed: at most BATCH documents are in memory."""
    site = source.site
    model = _site_model(site)
    result = ImportResult()
    seen: set[str] = set()
    # An upload is read through the storage API: the worker may share no folder with web.
    items = (
        read_stored(source.upload)
        if source.kind == KnowledgeSource.Kind.UPLOAD
        else read_source(source.location, validators=_validators(source))
    )
    KnowledgeSource.objects.filter(pk=source.pk).update(
        status=KnowledgeSource.Status.RUNNING, progress_done=0
    )
    try:
        for batch in _batches(items, BATCH):
            docs = _sorted_out(batch, seen=seen, result=result)
            result.read += len(docs)
            _import_batch(site=site, source=source, docs=docs, model=model, result=result)
            if progress:
                progress(result.read)
    except SourceError as exc:
        result.failed = str(exc)
    if not result.failed and not result.incomplete:
        result.deleted = _remove_unseen(source=source, seen=seen)
    if result.created or result.updated or result.deleted:
        backends.statistics_refresh()
    _finish(source=source, result=result)
    return result


def _validators(source: KnowledgeSource) -> dict[str, tuple[str, str]]:
    """The ETag and Last-Modified of a URL source's pages, for a conditional GET each."""
    if source.kind != KnowledgeSource.Kind.URL:
        return {}
    rows = (
        source.documents.filter(chunk_count__gt=0)
        .exclude(etag="", last_modified="")
        .values_list("external_id", "etag", "last_modified")
    )
    return {ext: (etag, modified) for ext, etag, modified in rows.iterator()}


def _sorted_out(batch: list, *, seen: set[str], result: ImportResult) -> list[Doc]:
    """A batch's documents to store; its problems counted, its 304s kept as they are. A
    page that failed for now (Problem.effect KEEP) counts as seen: its document stays."""
    docs: list[Doc] = []
    for item in batch:
        if isinstance(item, Problem):
            result.problems.append(str(item))
            if item.effect == KEEP:
                seen.add(item.where)
            elif item.effect == INCOMPLETE:
                result.incomplete = True
        elif isinstance(item, Unchanged):
            seen.add(item.external_id)
            result.unchanged += 1
            result.not_modified += 1
        elif item.external_id in seen:
            result.problems.append(f"{item.external_id}: repeated id; the later one kept")
            docs = [d for d in docs if d.external_id != item.external_id] + [item]
        else:
            seen.add(item.external_id)
            docs.append(item)
    return docs


def _import_batch(
    *, site: Site, source: KnowledgeSource, docs: list[Doc], model: str, result: ImportResult
) -> None:
    existing = {
        d.external_id: d
        for d in KnowledgeDocument.objects.filter(
            site=site, external_id__in=[d.external_id for d in docs]
        )
    }
    todo: list[tuple[PreparedDocument, KnowledgeDocument | None]] = []
    moved: list[KnowledgeDocument] = []
    for doc in docs:
        old = existing.get(doc.external_id)
        prepared_hash = document_digest(doc)
        if old is not None and old.content_hash == prepared_hash and old.chunk_count:
            result.unchanged += 1
            if (old.source_id, old.etag, old.last_modified) != (
                source.pk,
                doc.etag,
                doc.last_modified,
            ):
                old.source, old.etag, old.last_modified = source, doc.etag, doc.last_modified
                moved.append(old)
            continue
        todo.append((document_prepare(doc, model=model), old))
    if moved:  # the same text under a new source or new validators
        KnowledgeDocument.objects.bulk_update(moved, ["source", "etag", "last_modified"])
    try:
        documents_store(site=site, source=source, items=todo)
    except Exception:  # noqa: BLE001 - the batch again, one document at a time: its failure is reported
        log.warning("knowledge batch not stored at once; storing document by document")
        stored = []
        for item, old in todo:
            try:
                document_store(site=site, source=source, item=item, existing=old)
            except Exception as exc:
                log.exception("knowledge document not stored")
                result.problems.append(f"{item.doc.external_id}: not stored ({type(exc).__name__})")
                continue
            stored.append((item, old))
        todo = stored
    result.created += sum(old is None for _, old in todo)
    result.updated += sum(old is not None for _, old in todo)


def knowledge_swap(
    *, site: Site, source: KnowledgeSource, changed: list[Doc], removed: list[str]
) -> ImportResult:
    """Write a catalogue's changes at once (issue 29): the changed documents are chunked
    first, outside any transaction; then ONE transaction stores them all and deletes the
    removed ones, so searches see the old catalogue or the new one, never half of each. The
    new chunks' vectors follow on the worker (embedding_queue.py). A failure raises and
    changes nothing."""
    model = _site_model(site)
    result = ImportResult(read=len(changed))
    prepared = [document_prepare(doc, model=model) for doc in changed]
    ids = [doc.external_id for doc in changed]
    existing: dict[str, KnowledgeDocument] = {}
    for i in range(0, len(ids), 500):
        existing.update(
            (d.external_id, d)
            for d in KnowledgeDocument.objects.filter(site=site, external_id__in=ids[i : i + 500])
        )
    with transaction.atomic():
        items = [(item, existing.get(item.doc.external_id)) for item in prepared]
        for i in range(0, len(items), BATCH):
            documents_store(site=site, source=source, items=items[i : i + BATCH])
        result.created = sum(old is None for _, old in items)
        result.updated = len(items) - result.created
        for i in range(0, len(removed), 500):
            result.deleted += (
                KnowledgeDocument.objects.filter(
                    source=source, external_id__in=removed[i : i + 500]
                )
                .delete()[1]
                .get(KnowledgeDocument._meta.label, 0)
            )
        knowledge_hint_refresh(site.pk)
        if prepared:
            knowledge_embed_schedule(site.pk)
    if prepared or removed:
        backends.statistics_refresh()
    return result


def _remove_unseen(*, source: KnowledgeSource, seen: set[str]) -> int:
    gone = [
        pk
        for pk, ext in source.documents.values_list("pk", "external_id").iterator()
        if ext not in seen
    ]
    for i in range(0, len(gone), 500):
        with transaction.atomic():
            KnowledgeDocument.objects.filter(pk__in=gone[i : i + 500]).delete()
    return len(gone)


def knowledge_hint_refresh(site_id: int) -> None:
    """After commit: tell context builds (any process) whether the site has knowledge now,
    and that its chunks changed (the processes' vector matrices are read again)."""
    knowledge_version_bump(site_id)

    def refresh() -> None:
        cache.set(
            cache_keys.knowledge_available(site_id),
            KnowledgeChunk.objects.filter(site_id=site_id).exists(),
            HINT_SECONDS,
        )
        AVAILABLE.forget(site_id)

    transaction.on_commit(refresh)


def _finish(*, source: KnowledgeSource, result: ImportResult) -> None:
    knowledge_hint_refresh(source.site_id)
    if result.created or result.updated:
        knowledge_embed_schedule(source.site_id)
    status = (
        KnowledgeSource.Status.FAILED
        if result.failed
        else KnowledgeSource.Status.ERRORS
        if result.problems
        else KnowledgeSource.Status.DONE
    )
    errors = ([result.failed] if result.failed else []) + result.problems[:MAX_PROBLEMS_KEPT]
    now = timezone.now()
    hours = (
        KnowledgeSource.objects.filter(pk=source.pk).values_list("resync_hours", flat=True).first()
    )
    KnowledgeSource.objects.filter(pk=source.pk).update(
        status=status,
        errors=errors,
        progress_done=result.read,
        imported_at=now,
        # the owner's schedule counts from this import (sources.py), whoever started it
        next_sync_at=now + timedelta(hours=hours) if hours else None,
        summary={
            "read": result.read,
            "created": result.created,
            "updated": result.updated,
            "unchanged": result.unchanged,
            "not_modified": result.not_modified,
            "deleted": result.deleted,
            "problems": len(result.problems),
        },
    )
