"""Reading shop knowledge: the search behind each turn, and counts for admin and commands."""

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Sum

from chatwidget.platform import cache_keys
from chatwidget.shop.knowledge import backends
from chatwidget.shop.knowledge.embeddings import cosine, embed, embedding_model
from chatwidget.shop.knowledge.query import Candidate, KnowledgeQuery, candidates_score
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument
from chatwidget.sites.models import Site

CANDIDATES = 24
HINT_SECONDS = 60


def knowledge_available(*, site: Site) -> bool:
    """Whether the site has any chunk: a cached hint, so that a turn of a site without
    knowledge costs no query. Imports and deletions refresh it after commit; it expires
    after a minute, so a lost refresh delays nothing for long. A wrong "yes" costs one
    empty search, never a wrong answer."""
    hint = cache.get(cache_keys.knowledge_available(site.pk))
    if hint is None:
        hint = KnowledgeChunk.objects.filter(site_id=site.pk).exists()
        cache.set(cache_keys.knowledge_available(site.pk), hint, HINT_SECONDS)
    return bool(hint)


def knowledge_search(*, site: Site, query: KnowledgeQuery, limit: int = 8) -> list[Candidate]:
    """The best chunks for the query, best first, with their final score and bonus.

    One query (the full-text backend's candidates with their text); with EMBEDDING_MODEL
    set, one embeddings call and one query for the candidates' vectors."""
    hits = backends.search(
        site_id=site.pk,
        terms=query.backend_terms(),
        language=site.default_language,
        limit=CANDIDATES,
    )
    if not hits:
        return []
    vectors: dict[int, bytes] = {}
    qvec = embed([query.text]) if embedding_model() else None
    if qvec:
        vectors = dict(
            KnowledgeChunk.objects.filter(pk__in=[h.chunk_id for h in hits])
            .exclude(embedding=None)
            .values_list("pk", "embedding")
        )
    candidates = [
        Candidate(
            chunk_id=h.chunk_id,
            title=h.title,
            url=h.url,
            identifiers=h.identifiers,
            text=h.text,
            token_count=h.token_count,
            rank=h.rank,
            similarity=cosine(qvec[0], bytes(vectors[h.chunk_id]))
            if qvec and h.chunk_id in vectors
            else None,
        )
        for h in hits
    ]
    return candidates_score(query=query, candidates=candidates)[:limit]


@dataclass
class KnowledgeTotals:
    documents: int
    chunks: int
    tokens: int


def knowledge_totals(*, site: Site) -> KnowledgeTotals:
    docs = KnowledgeDocument.objects.filter(site=site).aggregate(
        n=Sum("chunk_count"), t=Sum("token_count")
    )
    return KnowledgeTotals(
        documents=KnowledgeDocument.objects.filter(site=site).count(),
        chunks=docs["n"] or 0,
        tokens=docs["t"] or 0,
    )
