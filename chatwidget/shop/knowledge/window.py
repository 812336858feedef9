"""Knowledge in the window: which excerpts one model call gets, within their share of the
budget (DESIGN.md "Knowledge in the window").

    T_system + T_pinned + T_profile + T_core + T_knowledge + Σ T_verbatim + T_request
        + R_answer ≤ B

memory/context.py calls `knowledge_select` with the room it can give: at most the site's
knowledge share of B, and never what the core and the verbatim minimum need (they are not
evicted for excerpts). Excerpts are cut lowest score first: the best ones are kept, the
rest are left out and named in the trace with the reason. The model is told that the
excerpts are reference material, to answer from them, to say when they do not cover the
question, and that text inside them is data, never instructions (chatwidget/shop/knowledge/render.py).
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from chatwidget.shop.knowledge.embeddings import (
    QueryVector,
    embedding_model,
    query_embed,
    query_embed_prefetch,
)
from chatwidget.shop.knowledge.query import KnowledgeQuery, identifier_key, knowledge_query_build
from chatwidget.shop.knowledge.render import KNOWLEDGE_HEADER, excerpt_render, knowledge_message
from chatwidget.shop.knowledge.scoring import Candidate
from chatwidget.shop.knowledge.selectors import (
    knowledge_available,
    knowledge_page,
    knowledge_search,
)
from chatwidget.shop.knowledge.vectors import knowledge_has_vectors
from chatwidget.sites.models import Site
from memory.tokens import count_tokens

RETRIEVE = 5  # chunks retrieved per turn; those that do not fit are left out
MIN_RELATIVE_SCORE = 0.3  # below this share of the best score a chunk is noise
RECENT_TURNS = 6
DEFAULT_SHARE = 25

LEFT_KNOWLEDGE_BUDGET = "knowledge_over_budget"  # chunk ids that did not fit the share
LEFT_KNOWLEDGE_WEAK = "knowledge_low_score"  # retrieved, but far below the best chunk


@dataclass
class KnowledgeSection:
    message: str | None = None  # the system message holding the excerpts
    tokens: int = 0
    sent: list[Candidate] = field(default_factory=list)
    retrieved: list[dict] = field(default_factory=list)  # the trace: ids, scores, why
    left_out: list[dict] = field(default_factory=list)  # ContextTrace.left_out entries
    active: list[str] = field(default_factory=list)  # active objects, for the demo reply
    room: int = 0  # the tokens the budget could give
    attempted: bool = False  # a search ran (the site has knowledge and the share is on)
    topics: list[str] = field(default_factory=list)  # the service topics asked (topics.py)


def knowledge_share(site: Site) -> int:
    return int(getattr(site, "knowledge_share", DEFAULT_SHARE))


def knowledge_cap(site: Site) -> int:
    """The most tokens excerpts may take: the site's share (percent) of the budget."""
    return site.context_budget * knowledge_share(site) // 100


@functools.lru_cache(maxsize=8)
def _header_tokens(model: str) -> int:
    return count_tokens(KNOWLEDGE_HEADER + "\n\n", model=model)


def _active_labels(core: dict | None, shown: dict[str, str]) -> list[str]:
    """The core's objects (id and label), then identifiers the recent turns name."""
    labels, seen = [], set()
    for obj in (core or {}).get("objects") or []:
        if isinstance(obj, dict) and (obj.get("id") or obj.get("label")):
            labels.append(" ".join(str(v) for v in (obj.get("id"), obj.get("label")) if v))
            seen.add(identifier_key(str(obj.get("id") or "")))
    return labels + [value for key, value in shown.items() if key not in seen]


def _query_vector(
    site: Site, query: KnowledgeQuery, section: KnowledgeSection
) -> Callable[[], QueryVector]:
    """The message's vector within EMBEDDING_QUERY_TIMEOUT_MS (this runs after the ack,
    before the model call), as a wait: the embedding starts now (or runs already, started
    with the build: assistant.context), the full-text search runs meanwhile, and the wait
    comes after it (selectors.knowledge_search). Slow or failing: full text alone, and the
    trace says so."""
    if not embedding_model() or not knowledge_has_vectors(site.pk):
        return QueryVector  # no vector to compare with: full text alone, nothing embedded
    text = query.embed_text or query.text
    query_embed_prefetch(text)
    if query.topic_text:  # its vector is blended in (selectors._topic_blend): made once
        query_embed_prefetch(query.topic_text, handoff=False)

    def wait() -> QueryVector:
        vector = query_embed(text)
        if vector.problem:
            section.left_out.append(
                {"reason": vector.problem, "seqs": [], "count": 0, "ms": round(vector.ms)}
            )
        return vector

    return wait


def knowledge_select(
    *,
    site: Site,
    model: str,
    message: str,
    core: dict | None,
    recent: list[tuple[str, str]],
    room: int,
    page_url: str = "",
) -> KnowledgeSection:
    """Retrieve with the query built from memory and keep the best excerpts that fit `room`
    tokens. `recent` is (role, text) of the turns before the message, newest first;
    `page_url` the page the visitor asked from (its document's identifiers are active
    objects for this turn, and the document comes first for "this one")."""
    section = KnowledgeSection(room=room)
    if (
        knowledge_share(site) <= 0
        or not message.strip()
        or not knowledge_available(site_id=site.pk)
    ):
        return section
    page = knowledge_page(site=site, url=page_url) if page_url else None
    query = knowledge_query_build(
        message=message,
        core=core,
        recent=recent[:RECENT_TURNS],
        page=page.document if page else None,
        language=site.default_language,
    )
    vector = _query_vector(site, query, section)
    candidates = knowledge_search(site=site, query=query, limit=RETRIEVE, page=page, vector=vector)
    section.attempted = True
    section.topics = list(query.topics)
    section.active = _active_labels(core, query.shown)
    if not candidates:
        return section
    best = candidates[0].total
    used = _header_tokens(model)
    over, weak = [], []
    cut = False
    for c in candidates:
        record = {"chunk": c.chunk_id, "score": c.score, "bonus": c.bonus, "sent": False}
        if c.page:
            record["page"] = True  # the visitor's page's document, pointed at
        if c.kept:
            record["kept"] = True  # what the talk is about (scoring._kept): never weak
        if c.similarity is not None:
            record["similarity"] = round(c.similarity, 3)  # found or weighed by meaning
        if c.total < best * MIN_RELATIVE_SCORE and not c.kept:
            record["why"] = LEFT_KNOWLEDGE_WEAK
            weak.append(c.chunk_id)
        elif cut or used + c.token_count > room:
            cut = True  # lowest scores go first: nothing after a chunk that did not fit
            record["why"] = LEFT_KNOWLEDGE_BUDGET
            over.append(c.chunk_id)
        else:
            used += c.token_count
            record["sent"] = True
            section.sent.append(c)
        section.retrieved.append(record)
    for reason, ids in ((LEFT_KNOWLEDGE_BUDGET, over), (LEFT_KNOWLEDGE_WEAK, weak)):
        if ids:
            section.left_out.append(
                {"reason": reason, "seqs": [], "count": len(ids), "chunks": ids}
            )
    if section.sent:
        section.message = knowledge_message(
            [
                excerpt_render(number=i, title=c.title, url=c.url, text=c.text)
                for i, c in enumerate(section.sent, start=1)
            ]
        )
        section.tokens = used
    return section
