"""The final scoring of a turn's candidates (issue 26): pure functions, no database.

`candidates_score` scores each candidate for the message's own words and for the query
built from memory (a term's weight times how rare it is among the candidates, more for a
match in the identifiers or title), normalised to 0..1, the message's score joined by the
embedding similarity when there is one, and weighs the two by whether the message leans on
an earlier subject. An active object's chunk gets 0.2 then (ShopBot's ACTIVE_SKU_BOOST,
0.05, otherwise: a tie-breaker). After an earlier turn, what the talk is about keeps a
place among the first three (`_kept`): the page on its condensed service topic, or else its
object (its active objects, or the product its earlier words name) unless the message asks
about the shop's service or names another product.
"""

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from chatwidget.shop.knowledge.analysis import compound_parts, language_guess
from chatwidget.shop.knowledge.query import (
    OWN_SUBJECT_SHARE,
    Forms,
    KnowledgeQuery,
    forms_match,
    identifier_key,
    text_terms,
    word_forms,
)
from chatwidget.shop.knowledge.topics import asks_service
from memory.pages import page_key

ACTIVE_BONUS = 0.05
F_KEYWORD, F_TITLE, F_TEXT = 2.0, 1.5, 1.0
_FACTOR = {3: F_KEYWORD, 2: F_TITLE, 1: F_TEXT, 0: 0.0}
# The message alone and the memory's query, weighed (candidates_score):
W_LEAD_BACK = 0.6  # the message's own words, when it leans on an earlier subject
W_MEMORY_NEW = 0.2  # the memory, when the message is a question of its own
OBJECT_BONUS = 0.2  # an active object's chunk, when the message leans on it
W_TEXT = 0.15  # with embeddings: the full-text share of the message's ranking (dev: 0.10-0.15)
OBJECT_PLACE = 3  # the talk's object is among this many first candidates (_kept)
OWN_SUBJECT_WORDS = 3  # words of its own that make a subject of a message that leans back


def names_own_subject(fresh: list[str], shares: dict[str, float]) -> bool:
    """Whether a message that leans on an earlier subject by its form ("does it ...", "that
    one") names a subject of its own all the same: OWN_SUBJECT_WORDS words or more that the
    conversation has not used (`KnowledgeQuery.fresh`) and that are in at most
    OWN_SUBJECT_SHARE of the shop's chunks (`shares`: backends.term_shares): "can I pick it
    up in the Hamburg shop instead of getting it sent?", "do u deliver to france and what
    does it cost". Follow-ups name fewer: "is the cotton one machine washable?" two rare
    ones ("washable" is in a quarter of the chunks), "and in blue?" one (dev part of the
    held-out set: three flags its five subject changes of this form and none of its
    follow-ups; two took seven follow-ups for new subjects)."""
    return sum(1 for w in fresh if shares.get(w, 0.0) <= OWN_SUBJECT_SHARE) >= OWN_SUBJECT_WORDS


@dataclass
class Candidate:
    chunk_id: int
    title: str
    url: str
    identifiers: list[str]
    text: str
    token_count: int
    rank: float = 0.0  # the full-text backend's
    similarity: float | None = None  # cosine similarity to the query, with embeddings
    score: float = 0.0  # final, 0..1, before the bonus
    bonus: float = 0.0
    page: bool = False  # of the visitor's page's document, which the message points at
    kept: bool = False  # what the talk is about, kept among the first places (_kept)
    talk_topic: bool = False  # a page on the condensed talk's service topic (query.talk_topics)

    @property
    def total(self) -> float:
        return self.score + self.bonus


_Fields = tuple[set[str], set[str], set[str], set[str], dict[str, int]]
_FIELDS: OrderedDict[tuple, _Fields] = OrderedDict()
FIELDS_CACHED = 4096


def _fields(c: Candidate) -> _Fields:
    """The chunk's identifier keys, title terms and text terms (stemmed in the language of
    the chunk, as the index is). A chunk's text never changes
    under its id (a re-import writes new chunks), so they are kept for the most recently
    used chunks of this process: a popular product is not tokenised at every turn. The key
    holds the text's hash too, so a reused id (a rolled-back test) never reads stale words."""
    key = (c.chunk_id, hash(c.text), hash(c.title), tuple(c.identifiers))
    found = _FIELDS.get(key)
    if found is not None:
        _FIELDS.move_to_end(key)
        return found
    language = language_guess(f"{c.title}\n{c.text}")
    title = set(text_terms(c.title, language=language))
    body = set(text_terms(c.text, language=language))
    found = (
        {identifier_key(i) for i in c.identifiers},
        title,
        body,
        compound_parts(title | body) if language == "de" else set(),
        {},  # query word -> where it matches (_level)
    )
    _FIELDS[key] = found
    if len(_FIELDS) > FIELDS_CACHED:
        _FIELDS.popitem(last=False)
    return found


LEVELS_KEPT = 512  # query words remembered per chunk (a popular chunk meets the same ones)


def _level(term: str, forms: Forms, fields: _Fields) -> int:
    """Where a query word matches a chunk: 3 identifiers, 2 title, 1 text, 0 nowhere.
    Remembered with the chunk's fields: the compound checks are most of a turn's scoring,
    and a popular chunk meets the same words turn after turn."""
    kw, ti, bo, parts, memo = fields
    found = memo.get(term)
    if found is None:
        found = (
            3
            if term in kw
            else 2
            if forms_match(forms, ti)
            else 1
            if forms_match(forms, bo, parts)
            else 0
        )
        if len(memo) >= LEVELS_KEPT:
            memo.clear()
        memo[term] = found
    return found


def _raw(terms: dict[str, float], where: list[dict[str, int]]) -> list[float]:
    """Each candidate's score for weighted terms: weight x rarity among the candidates x
    where it matched (identifiers, title, text)."""
    n = len(where)
    df = {t: sum(1 for w in where if w.get(t)) for t in terms}
    out = []
    for found in where:
        total = 0.0
        for term, weight in terms.items():
            if found.get(term):
                total += weight * math.log(1 + n / df[term]) * _FACTOR[found[term]]
        out.append(total)
    return out


def _normalised(values: list[float]) -> list[float]:
    top = max(values, default=0.0) or 1.0
    return [v / top for v in values]


def _with_similarity(scores: list[float], candidates: list[Candidate]) -> list[float]:
    """With embeddings: the normalised full-text scores and the similarities (spread over the
    candidates: min-max, as e5's cosines crowd in a narrow band), W_TEXT to 1 - W_TEXT. A
    rank fusion (RRF) was tried first and flattened the scores: every chunk near the top of
    either ranking looked alike, and the memory's weight then decided alone. A chunk whose
    vector has not arrived yet (embedding_queue.py) is ranked by its words alone."""
    sims = [c.similarity for c in candidates]
    known = [s for s in sims if s is not None]
    if not known:
        return scores
    low, high = min(known), max(known)
    spread = (high - low) or 1.0
    return [
        W_TEXT * score + (1 - W_TEXT) * (sim - low) / spread if sim is not None else score
        for score, sim in zip(scores, sims, strict=True)
    ]


def candidates_score(*, query: KnowledgeQuery, candidates: list[Candidate]) -> list[Candidate]:
    """Final scores (0..1, best 1) and the active-object bonus; sorted best first.

    The question leads: each candidate is scored for the message alone and for the query
    built from memory, and the two are weighed by whether the message leans on an earlier
    subject (query.refers_back): "do gift cards expire?" after a product talk is ranked by
    its own words, the memory only breaking ties; "is it machine washable?" mostly by the
    memory, and the active object's chunks (fetched by their identifier, selectors.py) are
    preferred by OBJECT_BONUS; unless it names a subject of its own, pronoun or not
    (query.own_subject: "does it ship to Canada in 8-12 working days?")."""
    if not candidates:
        return []
    fields = [_fields(c) for c in candidates]
    terms = {t: word_forms(t, query.language) for t in {**query.terms, **query.lead}}  # once a turn
    where = [{t: _level(t, forms, f) for t, forms in terms.items()} for f in fields]
    # embeddings (the message's own vector) widen what the message's words find; the
    # memory's query is matched by its words (labels, identifiers) only
    lead = _normalised(_with_similarity(_normalised(_raw(query.lead, where)), candidates))
    memory = _normalised(_raw(query.terms, where))
    # a message that names its own subject is ranked as a new question, pronoun or not
    back = query.refers_back and not query.own_subject
    w_lead, w_memory = (W_LEAD_BACK, 1.0) if back else (1.0, W_MEMORY_NEW)
    if set(query.terms) == set(query.lead):
        # nothing earlier (a first message): the memory's query is the message's words, and
        # counting them twice let them outweigh the message's meaning (held-out dev part:
        # "kann ich das zurückschicken wenn es nicht passt?" ranked Klarna's page above
        # returns; paraphrases 0.862 -> 0.897, nothing else moved)
        w_memory = 0.0
    combined = [w_lead * a + w_memory * b for a, b in zip(lead, memory, strict=True)]
    top = max(combined) or 1.0
    bonus = OBJECT_BONUS if back else ACTIVE_BONUS
    for c, value, (kw, *_) in zip(candidates, combined, fields, strict=True):
        c.score = round(value / top, 4)
        c.bonus = bonus if query.active_ids & kw else 0.0
        c.page = query.page_wins and page_key(c.url) == query.page_key
    # the page's document first when the message points at it, its best chunk leading
    ranked = sorted(candidates, key=lambda c: (not c.page, -c.total, -c.rank, c.chunk_id))
    if any(c.talk_topic for c in ranked):
        _kept(ranked, lambda c: c.talk_topic)
    elif w_memory and not asks_service(query.topics):
        keys = _talk_object(query, candidates, fields, where)
        if not _names_other_product(query, keys, fields, where):
            _kept(ranked, lambda c: bool(keys & {identifier_key(x) for x in c.identifiers}))
    return ranked


def _names_other_product(
    query: KnowledgeQuery, keys: set[str], fields: list[_Fields], where: list[dict[str, int]]
) -> bool:
    """Whether the message names a product other than the talk's: one of its own words is in
    the title or identifiers of a product candidate outside `keys` and in no title of the
    talk's object ("The Nora: do you have that in 200 x 200?" after a talk of Crisp)."""
    titled = {
        term: [
            bool(kw & keys)
            for (kw, *_), found in zip(fields, where, strict=True)
            if kw and found.get(term, 0) >= 2
        ]
        for term in query.lead
    }
    return any(hits and not any(hits) for hits in titled.values())


def _talk_object(
    query: KnowledgeQuery,
    candidates: list[Candidate],
    fields: list[_Fields],
    where: list[dict[str, int]],
) -> set[str]:
    """The identifier keys of what the conversation is about: its active objects (the
    core's, the identifiers its turns named, the visitor's page), or else the product its
    earlier words match best (a talk that named "the Fell jumper in burgundy" and no article
    number). Nothing when they match a page better than any product: the talk was about
    the shop's service ("can I collect it in Vienna?"), and a product that shares a word or
    two with it is no object of it."""
    if query.active_ids:
        return query.active_ids
    remembered = {t: w for t, w in query.terms.items() if t not in query.lead}
    scores = _raw(remembered, where)
    best = max(
        range(len(candidates)),
        key=lambda i: (scores[i], candidates[i].similarity or 0.0),
        default=None,
    )
    return fields[best][0] if best is not None and scores[best] > 0 else set()


def _kept(ranked: list[Candidate], talks_of: Callable[[Candidate], bool]) -> None:
    """What the talk is about keeps a place among the first OBJECT_PLACE candidates: the
    page on the condensed talk's service topic (query.talk_topics: "what do you need from
    me?" after a core that reports a defect), or else the talk's object. A follow-up ("tumble
    dryer ok?", "M da?", "was kosten die zwei zusammen?") asks about it even when its own
    words match a service page or another product better, and a new subject keeps the
    places above it. Its best-ranked chunk moves up to the last of those places unless it
    is among them already, and is marked `kept`: sent however far its score is below the
    best one's (window.py)."""
    index = next((i for i, c in enumerate(ranked) if talks_of(c)), None)
    if index is None:
        return
    if index >= OBJECT_PLACE:
        ranked.insert(OBJECT_PLACE - 1, ranked.pop(index))
        index = OBJECT_PLACE - 1
    ranked[index].kept = True
