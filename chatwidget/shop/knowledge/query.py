"""The retrieval query, built from the conversation's memory, and the final scoring.

Pure functions (no database). ShopBot's lesson: "what about size L?" on its own retrieves
generic size charts; the retriever needs the memory too. So the query is weighted terms from
- the visitor's message (weight 1),
- the active objects: labels from the core (their identifiers are searched for, and earn
  the bonus, but are not scored twice),
- the core's current request and constraints,
- the recent verbatim turns, newest weighing most.
But the question leads (issue 26): the message's own words are a second query
(`KnowledgeQuery.lead`). The backend finds candidates for both and for the active objects'
identifiers; `candidates_score` scores each candidate for both (a term's weight times how
rare it is among the candidates, more for a match in the identifiers or title), normalised
to 0..1, the message's score joined by the embedding similarity when there is one, and
weighs the two by whether the message leans on an earlier subject. An active object's chunk
gets 0.2 then (ShopBot's ACTIVE_SKU_BOOST, 0.05, otherwise: a tie-breaker).
"""

import functools
import math
import re
from collections import OrderedDict
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from chatwidget.shop.knowledge.analysis import (
    MIN_HEAD,
    STOPWORDS,
    compound_parts,
    compound_splits,
    deictic,
    fold,
    language_guess,
    refers_back,
    stem,
    stems,
)
from chatwidget.shop.knowledge.referents import referent
from memory.extract import ids_extract
from memory.pages import page_key

ACTIVE_BONUS = 0.05
MAX_TERMS = 48

W_MESSAGE = 1.0
W_OBJECT = 0.8
W_CONSTRAINT = 0.6
W_REQUEST = 0.5
W_RECENT = (0.6, 0.45, 0.3, 0.2)  # recent turns, newest first (an assistant turn: half)

F_KEYWORD, F_TITLE, F_TEXT = 2.0, 1.5, 1.0
_FACTOR = {3: F_KEYWORD, 2: F_TITLE, 1: F_TEXT, 0: 0.0}
# The message alone and the memory's query, weighed (candidates_score):
W_LEAD_BACK = 0.6  # the message's own words, when it leans on an earlier subject
W_MEMORY_NEW = 0.2  # the memory, when the message is a question of its own
OBJECT_BONUS = 0.2  # an active object's chunk, when the message leans on it
W_TEXT = 0.15  # with embeddings: the full-text share of the message's ranking (dev: 0.10-0.15)
OWN_SUBJECT_SHARE = 0.2  # a word in more of the shop's chunks than this names no subject

_WORD = re.compile(r"[^\W_]+(?:[-./][^\W_]+)*")


@functools.lru_cache(maxsize=65536)
def identifier_key(value: str) -> str:
    """One token for an identifier whatever its separators: KU-2291-M -> ku2291m (cached:
    every word of an import and of a turn's candidates passes here)."""
    return "".join(ch for ch in fold(value) if ch.isalnum())


def words(text: str) -> list[str]:
    """Search terms of a text: identifiers joined into one token, stopwords dropped."""
    out = []
    for m in _WORD.finditer(text or ""):
        token = m.group(0)
        if any(sep in token for sep in "-./"):
            if any(ch.isdigit() for ch in token):
                out.append(identifier_key(token))
                continue
            parts = re.split(r"[-./]", token)
        else:
            parts = [token]
        for part in parts:
            folded = identifier_key(part)
            if len(folded) >= 2 and folded not in STOPWORDS:
                out.append(folded)
    return out


def text_terms(text: str, *, language: str) -> list[str]:
    """The index terms of a document's text (analysis.py): its words, stemmed."""
    return [stem(w, language) for w in words(text)]


def term_matches(
    term: str, found: set[str], parts: AbstractSet[str] = frozenset(), *, language: str = "en"
) -> bool:
    """Whether a query word is among a text's index terms: one of its stems (English or
    German), both parts of a German compound it is (Rücksendeetikett ~ Etikett,
    Rücksendung), or a part of a compound in the text (`parts`: analysis.compound_parts;
    Geschenk ~ Geschenkverpackung). `language`: the message's (analysis.stems)."""
    return _matches(_forms(term, language), found, parts)


_Forms = tuple[tuple[str, ...], tuple[tuple[str, str], ...], str]


def _forms(term: str, language: str = "en") -> _Forms:
    """What a query word may be in a text: its stems, its compound splits, its German stem."""
    return stems(term, language), compound_splits(term), stem(term, "de")


def _matches(forms: _Forms, found: set[str], parts: AbstractSet[str] = frozenset()) -> bool:
    own, splits, german = forms
    return (
        any(f in found for f in own)
        or any(a in found and b in found for a, b in splits)
        or (len(german) >= MIN_HEAD and german in parts)
    )


@dataclass
class KnowledgeQuery:
    terms: dict[str, float]  # term -> weight, for scoring
    active_ids: set[str] = field(default_factory=set)  # identifier keys of active objects
    text: str = ""  # the query as text, for an embedding
    recall: set[str] = field(default_factory=set)  # searched for, not scored: active ids
    shown: dict[str, str] = field(default_factory=dict)  # active id key -> as written
    lead: dict[str, float] = field(default_factory=dict)  # the message's own terms
    refers_back: bool = False  # the message leans on an earlier subject ("is it ...?")
    embed_text: str = ""  # what the query embedding is made of: the message (and its referent)
    page_key: str = ""  # memory.pages.page_key of the page the visitor is on, with a document
    page_wins: bool = False  # the page's document comes first ("does this come in XL?")
    language: str = "en"  # the message's, for its stems (analysis.stems)

    def lead_terms(self) -> list[str]:
        return list(self.lead)[:MAX_TERMS]

    def backend_terms(self) -> list[str]:
        ranked = sorted(self.terms.items(), key=lambda kv: -kv[1])
        return sorted(self.recall) + [t for t, _ in ranked[:MAX_TERMS]]


@dataclass(frozen=True)
class PageDocument:
    """The knowledge document whose URL is the visitor's page (selectors.knowledge_page)."""

    key: str  # memory.pages.page_key
    identifiers: list[str]


def _articles_note(text: str, *, active: set[str], shown: dict[str, str]) -> None:
    """The article numbers a text names, as active objects (their keys and as written)."""
    for found in ids_extract(text):
        if found.kind == "article":
            active.add(identifier_key(found.value))
            shown.setdefault(identifier_key(found.value), found.value)


def knowledge_query_build(
    *,
    message: str,
    core: dict | None = None,
    recent: list[tuple[str, str]] = (),
    page: PageDocument | None = None,
    language: str = "en",
) -> KnowledgeQuery:
    """The query for one turn. `recent` is (role, text) of the verbatim turns before the
    message, newest first; `core` is the condensed core's data (DESIGN.md) or None; `page`
    the document of the page the visitor is on: its identifiers join the active objects,
    and it comes first when the message points at it ("this one", "gibt es das in XL?"),
    or leans on a subject while the memory holds none. `language`: the site's, the
    message's own when its words do not show another (analysis.language_guess)."""
    terms: dict[str, float] = {}
    texts: list[str] = [message]

    def add(text: str, weight: float) -> None:
        for term in words(text):
            if weight > terms.get(term, 0.0):
                terms[term] = weight

    active: set[str] = set()
    shown: dict[str, str] = {}
    core = core or {}
    for obj in core.get("objects") or []:
        if not isinstance(obj, dict):
            continue
        if obj.get("id"):
            active.add(identifier_key(str(obj["id"])))
            shown.setdefault(identifier_key(str(obj["id"])), str(obj["id"]))
            add(str(obj["id"]), W_OBJECT)
        add(str(obj.get("label") or ""), W_OBJECT)
        texts.append(f"{obj.get('label') or ''} {obj.get('id') or ''}")
    for item in core.get("constraints") or []:
        if isinstance(item, dict):
            add(str(item.get("value") or ""), W_CONSTRAINT)
    if core.get("request"):
        add(str(core["request"]), W_REQUEST)
        texts.append(str(core["request"]))
    visitor_index = 0
    for role, text in recent:
        weight = W_RECENT[min(visitor_index, len(W_RECENT) - 1)]
        if role == "visitor":
            visitor_index += 1
            texts.append(text)
        else:
            weight /= 2
        add(text, weight)
        _articles_note(text, active=active, shown=shown)
    _articles_note(message, active=active, shown=shown)
    remembered = bool(active)
    for value in page.identifiers if page else ():
        active.add(identifier_key(value))
        shown.setdefault(identifier_key(value), value)
    # An active object's identifier finds its chunks, but is not scored: the bonus after
    # scoring is its whole preference (ShopBot's order), unless the message names it.
    for key in active:
        terms.pop(key, None)
    add(message, W_MESSAGE)
    # "Nummer 2", "the last one", "das teurere": the item of the last list, as if named
    pointed = referent(message, next((t for role, t in recent if role == "assistant"), ""))
    add(pointed, W_MESSAGE)
    back = bool(pointed) or refers_back(message)
    return KnowledgeQuery(
        terms=terms,
        active_ids=active,
        recall=active - set(terms),
        shown=shown,
        text="\n".join(t for t in texts if t),
        lead=dict.fromkeys(words(f"{message}\n{pointed}"), W_MESSAGE),
        refers_back=back,
        embed_text="\n".join(filter(None, [message, pointed])),
        page_key=page.key if page else "",
        page_wins=bool(page) and (deictic(message) or (back and not remembered)),
        language=language_guess(message, default=language),
    )


def names_no_subject(lead: list[str], shares: dict[str, float]) -> bool:
    """Whether a message's own words name nothing of their own: each of them is in more
    than OWN_SUBJECT_SHARE of the shop's chunks (`shares`: backends.term_shares), or it has
    none. "what's the material?" in a shop whose every product states its material asks
    about the subject of the talk as "is it machine washable?" does, without a pronoun for
    `refers_back` to see; "do you ship to Canada?" names a subject (a rare word, or one the
    shop does not use at all)."""
    return all(shares.get(word, 0.0) > OWN_SUBJECT_SHARE for word in lead)


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


def _level(term: str, forms: _Forms, fields: _Fields) -> int:
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
            if _matches(forms, ti)
            else 1
            if _matches(forms, bo, parts)
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
    preferred by OBJECT_BONUS."""
    if not candidates:
        return []
    fields = [_fields(c) for c in candidates]
    terms = {t: _forms(t, query.language) for t in {**query.terms, **query.lead}}  # once a turn
    where = [{t: _level(t, forms, f) for t, forms in terms.items()} for f in fields]
    # embeddings (the message's own vector) widen what the message's words find; the
    # memory's query is matched by its words (labels, identifiers) only
    lead = _normalised(_with_similarity(_normalised(_raw(query.lead, where)), candidates))
    memory = _normalised(_raw(query.terms, where))
    w_lead, w_memory = (W_LEAD_BACK, 1.0) if query.refers_back else (1.0, W_MEMORY_NEW)
    combined = [w_lead * a + w_memory * b for a, b in zip(lead, memory, strict=True)]
    top = max(combined) or 1.0
    bonus = OBJECT_BONUS if query.refers_back else ACTIVE_BONUS
    for c, value, (kw, *_) in zip(candidates, combined, fields, strict=True):
        c.score = round(value / top, 4)
        c.bonus = bonus if query.active_ids & kw else 0.0
        c.page = query.page_wins and page_key(c.url) == query.page_key
    # the page's document first when the message points at it, its best chunk leading
    return sorted(candidates, key=lambda c: (not c.page, -c.total, -c.rank, c.chunk_id))
