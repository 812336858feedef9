"""Reading shop knowledge: the search behind each turn, and counts for admin and commands."""

from collections.abc import Callable
from dataclasses import dataclass, replace
from urllib.parse import quote

import numpy as np
from django.core.cache import cache
from django.db.models import Sum

from chatwidget.platform import cache_keys
from chatwidget.platform.memo import ProcessMemo
from chatwidget.shop.knowledge import backends
from chatwidget.shop.knowledge.embeddings import QueryVector, embed, embedding_model, query_embed
from chatwidget.shop.knowledge.query import KnowledgeQuery, PageDocument, names_no_subject, words
from chatwidget.shop.knowledge.scoring import Candidate, candidates_score, names_own_subject
from chatwidget.shop.knowledge.topics import words_of
from chatwidget.shop.knowledge.vectors import vector_search
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument
from chatwidget.sites.models import Site
from memory.pages import page_key

CANDIDATES = 24
W_TOPIC_VECTOR = 0.6  # the service topics' vector beside the message's (_topic_blend)
DENSE_CANDIDATES = 12  # nearest chunks by embedding, added to the full-text candidates
HINT_SECONDS = 60
AVAILABLE = ProcessMemo[bool]()


def knowledge_available(*, site_id: int) -> bool:
    """Whether the site has any chunk: a cached hint, so that a turn of a site without
    knowledge costs no query. Imports and deletions refresh it after commit; it expires
    after a minute, so a lost refresh delays nothing for long. A wrong "yes" costs one
    empty search, never a wrong answer. Kept a second in the process (platform.memo)."""
    return AVAILABLE.get(site_id, lambda: _available(site_id))


def _available(site_id: int) -> bool:
    hint = cache.get(cache_keys.knowledge_available(site_id))
    if hint is None:
        hint = KnowledgeChunk.objects.filter(site_id=site_id).exists()
        cache.set(cache_keys.knowledge_available(site_id), hint, HINT_SECONDS)
    return bool(hint)


@dataclass
class PageChunks:
    """The chunks of the document whose URL is the visitor's page, and the document."""

    document: PageDocument
    hits: list[backends.Hit]


PAGE_CHUNKS = 8  # a product's chunks (a long page: its first ones)


def _url_forms(key: str) -> list[str]:
    """How a document's `url` may spell the page of `key` (memory.pages.page_key): with or
    without a trailing slash, its path as read or percent-escaped."""
    scheme, _, rest = key.partition("://")
    host, slash, path = rest.partition("/")
    paths = {slash + path, quote(slash + path, safe="/:@!$&'()*+,;=~")}
    return sorted({f"{scheme}://{host}{p}{end}" for p in paths for end in ("", "/")})


def knowledge_page(*, site: Site, url: str) -> PageChunks | None:
    """The document whose URL is the page (scheme, host and path; query and fragment
    aside): its chunks as search hits, and its identifiers. One query, only for a turn that
    came with a page; None when no document has that URL."""
    key = page_key(url)
    if not key:
        return None
    rows = [
        row
        for row in KnowledgeChunk.objects.filter(site_id=site.pk, url__in=_url_forms(key))
        .order_by("document_id", "ordinal")
        .values_list("pk", "title", "url", "identifiers", "text", "token_count", "document_id")
        if page_key(row[2]) == key
    ]
    if not rows:
        return None
    document = rows[0][6]
    rows = [row for row in rows if row[6] == document][:PAGE_CHUNKS]
    hits = [backends.Hit(pk, 0.0, t, u, list(i or []), x, n) for pk, t, u, i, x, n, _ in rows]
    return PageChunks(document=PageDocument(key=key, identifiers=hits[0].identifiers), hits=hits)


def knowledge_search(
    *,
    site: Site,
    query: KnowledgeQuery,
    limit: int = 8,
    page: PageChunks | None = None,
    vector: QueryVector | Callable[[], QueryVector] | None = None,
) -> list[Candidate]:
    """The best chunks for the query, best first, with their final score and bonus.

    Candidates from up to three full-text searches: the query built from memory, the
    message alone (a new subject is found even when the memory's words fill the first), and
    the active objects' chunks by their identifiers (ranked by the message in
    scoring.candidates_score, never left out because other chunks matched more words). With
    EMBEDDING_MODEL set, the nearest chunks to the query's vector join them (dense
    retrieval: exact search over the site's vectors, vectors.py), so a question that shares
    no word with its page still finds it; each candidate's similarity is fused with its
    full-text score (scoring.candidates_score). `vector`: the query's vector made by the
    caller within its time limit (window.py; a `QueryVector` without one: full text only),
    or a callable that waits for it, called once the full-text searches are done, so that
    they run while the message is embedded; None embeds here without a limit (evaluations,
    commands). `page`: the chunks of the
    visitor's page's document are candidates too (scoring.candidates_score puts them first
    when the message points at the page), and so are the pages on the condensed talk's
    service topic (`_talk_topic_pages`), which the scoring keeps among the first three. A message whose words name no subject of their
    own leans on the earlier one as a pronoun would make it (`_leans_on_memory`)."""
    query = _leans_on_memory(query, site.pk)
    searches = [query.backend_terms()]
    if query.lead and set(query.lead) != set(query.terms):
        searches.append(query.lead_terms())
    if query.active_ids:
        searches.append(sorted(query.active_ids))
    hits: list[backends.Hit] = []
    seen: set[int] = set()
    for terms in searches:
        found = backends.search(
            site_id=site.pk, terms=terms, language=query.language, limit=CANDIDATES
        )
        hits += [h for h in found if h.chunk_id not in seen]
        seen |= {h.chunk_id for h in found}
    if page is not None:
        hits += [h for h in page.hits if h.chunk_id not in seen]
        seen |= {h.chunk_id for h in page.hits}
    talk_pages = {h.chunk_id: h for h in _talk_topic_pages(site, query)}
    hits += [h for pk, h in talk_pages.items() if pk not in seen]
    seen |= set(talk_pages)
    similarity: dict[int, float] = {}
    if callable(vector):  # the full text is done: now wait for the message's vector
        vector = vector()
    qvec = vector.vector if vector is not None else _query_vector(query)
    if qvec and query.topic_text:
        qvec = _topic_blend(qvec, query.topic_text)
    if qvec:  # the nearest chunks also when no word of the question is in the shop's pages
        similarity, dense = _similarities(site=site, qvec=qvec, hits=hits)
        hits += dense
    if not hits:
        return []
    candidates = [
        Candidate(
            chunk_id=h.chunk_id,
            title=h.title,
            url=h.url,
            identifiers=h.identifiers,
            text=h.text,
            token_count=h.token_count,
            rank=h.rank,
            similarity=similarity.get(h.chunk_id),
            talk_topic=h.chunk_id in talk_pages,
        )
        for h in hits
    ]
    return candidates_score(query=query, candidates=candidates)[:limit]


TALK_TOPIC_PAGES = 2  # the pages searched for the condensed talk's service topic


def _talk_topic_pages(site: Site, query: KnowledgeQuery) -> list[backends.Hit]:
    """The pages on the service topic the condensed talk is about (query.talk_topics: "what
    do you need from me to get this sorted?" after a core whose request reports a defect),
    found by the words such a page uses (topics.toml); one more full-text search, only in a
    turn with such a core and a message that asks no topic of its own."""
    if not query.talk_topics:
        return []
    found = backends.search(
        site_id=site.pk,
        terms=words(words_of(query.talk_topics)),
        language=query.language,
        limit=TALK_TOPIC_PAGES,
    )
    return [h for h in found if not h.identifiers]  # pages, not the products that share a word


def _leans_on_memory(query: KnowledgeQuery, site_id: int) -> KnowledgeQuery:
    """The query, read as leaning on the conversation's subject when the message has no
    pronoun for that but names nothing of its own either ("what's the material?" after a
    product talk: query.names_no_subject, from how common its words are in the shop); and
    one with a pronoun that names a subject of its own all the same ("can I pick it up in
    the Hamburg shop instead?": scoring.names_own_subject) as a new question. Only with a
    memory to lean on; the counts of the message's words (vocab.py, kept per process)."""
    memory = set(query.terms) - set(query.lead) or query.active_ids
    if not query.lead or not memory:
        return query
    shares = backends.term_shares(
        terms=query.lead_terms(), language=query.language, site_id=site_id
    )
    if query.refers_back:
        return replace(query, own_subject=names_own_subject(query.fresh, shares))
    if names_no_subject(query.lead_terms(), shares):
        return replace(query, refers_back=True)
    return query


def _query_vector(query: KnowledgeQuery) -> bytes | None:
    if not embedding_model():
        return None
    found = embed([query.embed_text or query.text], kind="query")
    return found[0] if found else None


def _topic_blend(qvec: bytes, topic_text: str) -> bytes:
    """The message's vector moved towards the words a shop's page on its service topics uses
    (topics.py): "kann ich das abstottern?" towards "Ratenzahlung". The topics' vector is a
    query embedding like any other, made once per process (embeddings.query_embed's cache);
    without it in time, the message's own vector."""
    found = query_embed(topic_text)
    if not found.vector or len(found.vector) != len(qvec):
        return qvec
    blended = np.frombuffer(qvec, dtype=np.float32) + W_TOPIC_VECTOR * np.frombuffer(
        found.vector, dtype=np.float32
    )
    return (blended / (np.linalg.norm(blended) or 1.0)).astype(np.float32).tobytes()


def _similarities(
    *, site: Site, qvec: bytes, hits: list[backends.Hit]
) -> tuple[dict[int, float], list[backends.Hit]]:
    """Cosine similarity of the query to each full-text candidate, and the chunks nearest
    to the query that full text did not find (exact search over the site's vectors, numpy:
    vectors.py). A chunk without a vector yet (embedding_queue.py) has no similarity: it is
    ranked by its words alone."""
    ids = [h.chunk_id for h in hits]
    nearest, similarity = vector_search(
        site_id=site.pk, query=qvec, limit=DENSE_CANDIDATES, among=ids
    )
    extra = [pk for pk, _ in nearest if pk not in similarity]
    similarity.update(nearest)
    rows = KnowledgeChunk.objects.filter(pk__in=extra).values_list(
        "pk", "title", "url", "identifiers", "text", "token_count"
    )
    return similarity, [
        backends.Hit(pk, 0.0, t, u, list(i or []), x, n) for pk, t, u, i, x, n in rows
    ]


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
