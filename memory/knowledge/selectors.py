"""Reading shop knowledge: the search behind each turn, and counts for admin and commands."""

from dataclasses import dataclass

from django.db.models import Sum

from chatwidget.models import Site
from memory.knowledge import backends
from memory.knowledge.embeddings import cosine, embed, embedding_model
from memory.knowledge.models import KnowledgeChunk, KnowledgeDocument
from memory.knowledge.query import Candidate, KnowledgeQuery, candidates_score

CANDIDATES = 40


def knowledge_search(*, site: Site, query: KnowledgeQuery,
                     limit: int = 8) -> list[Candidate]:
    """The best chunks for the query, best first, with their final score and bonus.

    Two queries: the full-text backend's candidates, then those chunks' rows; plus one
    embeddings call when EMBEDDING_MODEL is set."""
    hits = backends.search(site_id=site.pk, terms=query.backend_terms(),
                           language=site.default_language, limit=CANDIDATES)
    if not hits:
        return []
    use_vectors = bool(embedding_model())
    fields = ["id", "title", "url", "identifiers", "text", "token_count"]
    rows = {c.pk: c for c in KnowledgeChunk.objects.filter(pk__in=[h.chunk_id for h in hits])
            .only(*fields, *(["embedding"] if use_vectors else []))}
    qvec = embed([query.text]) if use_vectors else None
    candidates = []
    for hit in hits:
        row = rows.get(hit.chunk_id)
        if row is None:  # deleted since the search
            continue
        similarity = None
        if qvec and row.embedding:
            similarity = cosine(qvec[0], bytes(row.embedding))
        candidates.append(Candidate(
            chunk_id=row.pk, title=row.title, url=row.url, identifiers=row.identifiers or [],
            text=row.text, token_count=row.token_count, rank=hit.rank, similarity=similarity))
    return candidates_score(query=query, candidates=candidates)[:limit]


@dataclass
class KnowledgeTotals:
    documents: int
    chunks: int
    tokens: int


def knowledge_totals(*, site: Site) -> KnowledgeTotals:
    docs = KnowledgeDocument.objects.filter(site=site).aggregate(
        n=Sum("chunk_count"), t=Sum("token_count"))
    return KnowledgeTotals(documents=KnowledgeDocument.objects.filter(site=site).count(),
                           chunks=docs["n"] or 0, tokens=docs["t"] or 0)
