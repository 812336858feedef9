"""Shop documents made ready and written (the import's storage half, services.py's): a
document's chunks with their tokens, identifiers and content hash (`document_prepare`), and
a batch of them written in one transaction with a few statements (document rows, chunks and
their full-text rows together; `documents_store`), or one at a time in its own savepoint
when a batch fails (`document_store`). A changed document's chunk whose title and text are
unchanged keeps its vector."""

import hashlib
import json
import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from chatwidget.shop.knowledge import backends
from chatwidget.shop.knowledge.chunking import chunk_text
from chatwidget.shop.knowledge.query import identifier_key
from chatwidget.shop.knowledge.readers import (
    Doc,
)
from chatwidget.shop.knowledge.render import excerpt_render
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument, KnowledgeSource
from chatwidget.sites.models import Site
from memory.extract import ids_extract
from memory.tokens import encoding_name_for, get_encoding, tokens_split

log = logging.getLogger(__name__)


def document_hash(doc: Doc) -> str:
    """The content hash that decides whether a document is re-chunked and re-embedded."""
    return document_digest(doc)


def document_digest(doc: Doc) -> str:
    raw = json.dumps([doc.title, doc.text, doc.url, doc.identifiers], ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()


@dataclass
class PreparedDocument:
    doc: Doc
    digest: str
    chunks: list[tuple[str, int]]  # (text, tokens of the excerpt as sent)


def document_prepare(doc: Doc, *, model: str) -> PreparedDocument:
    enc = get_encoding(encoding_name_for(model))

    def count(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    def cut(text: str, n: int) -> list[str]:
        return tokens_split(text, size=n, model=model)

    if not doc.identifiers:  # pages: the article numbers they name
        doc.identifiers = list(
            dict.fromkeys(
                f.value
                for f in ids_extract(f"{doc.title}\n{doc.text[:2000]}")
                if f.kind == "article"
            )
        )[:10]
    texts = chunk_text(doc.text, count=count, encode_cut=cut) or [doc.title]
    chunks = [
        (t, count(excerpt_render(number=10, title=doc.title, url=doc.url, text=t))) for t in texts
    ]
    return PreparedDocument(doc=doc, digest=document_digest(doc), chunks=chunks)


def document_store(
    *,
    site: Site,
    source: KnowledgeSource,
    item: PreparedDocument,
    existing: KnowledgeDocument | None,
) -> None:
    """One document on its own (its own savepoint): a batch that failed is stored again
    document by document, so that one bad document is reported and the others kept."""
    documents_store(site=site, source=source, items=[(item, existing)])


DOCUMENT_FIELDS = [
    "source",
    "title",
    "url",
    "identifiers",
    "content_hash",
    "token_count",
    "chunk_count",
    "updated_at",
    "etag",
    "last_modified",
]


def documents_store(
    *,
    site: Site,
    source: KnowledgeSource,
    items: list[tuple[PreparedDocument, KnowledgeDocument | None]],
) -> None:
    """Documents with their chunks and full-text rows, in one transaction and a few
    statements for the whole batch (per-document saves and inserts were most of an import's
    time: issue 26). A changed document's old chunks go; a new chunk with the same title and
    text as an old one of its document keeps its vector."""
    now = timezone.now()
    with transaction.atomic():
        olds = [old for _, old in items if old is not None]
        kept: dict[tuple[int, str, str], bytes] = {}
        if olds:
            old_chunks = KnowledgeChunk.objects.filter(document__in=[d.pk for d in olds])
            kept = {
                (document_id, title, text): bytes(vector or b"")
                for document_id, title, text, vector in old_chunks.exclude(
                    embedding=None
                ).values_list("document_id", "title", "text", "embedding")
            }
            old_chunks.delete()
        documents: list[KnowledgeDocument] = []
        for item, old in items:
            document = old or KnowledgeDocument(site=site, external_id=item.doc.external_id)
            document.source = source
            document.title = item.doc.title[:500]
            document.url = item.doc.url[:1000]
            document.identifiers = item.doc.identifiers
            document.content_hash = item.digest
            document.token_count = sum(t for _, t in item.chunks)
            document.chunk_count = len(item.chunks)
            document.etag = item.doc.etag
            document.last_modified = item.doc.last_modified
            document.updated_at = now
            documents.append(document)
        KnowledgeDocument.objects.bulk_create([d for d in documents if d.pk is None])
        if olds:
            KnowledgeDocument.objects.bulk_update(olds, DOCUMENT_FIELDS)
        rows = KnowledgeChunk.objects.bulk_create(
            [
                KnowledgeChunk(
                    site=site,
                    document=document,
                    ordinal=i,
                    title=document.title,
                    url=document.url,
                    identifiers=item.doc.identifiers,
                    text=text,
                    token_count=tokens,
                    embedding=kept.get((document.pk, document.title, text)),
                )
                for (item, _), document in zip(items, documents, strict=True)
                for i, (text, tokens) in enumerate(item.chunks)
            ]
        )
        backends.index_chunks(
            chunk_rows=[
                (row.pk, " ".join(identifier_key(i) for i in row.identifiers), row.title, row.text)
                for row in rows
            ],
            language=site.default_language,
        )
