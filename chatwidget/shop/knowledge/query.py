"""The retrieval query, built from the conversation's memory (its scoring: scoring.py).

Pure functions (no database). ShopBot's lesson: "what about size L?" on its own retrieves
generic size charts; the retriever needs the memory too. So the query is weighted terms from
- the visitor's message (weight 1),
- the active objects: labels from the core (their identifiers are searched for, and earn
  the bonus, but are not scored twice),
- the core's current request and constraints,
- the recent verbatim turns, newest weighing most.
But the question leads (issue 26): the message's own words are a second query
(`KnowledgeQuery.lead`), and whether the message leans on an earlier subject
(`KnowledgeQuery.refers_back`) says how scoring.py weighs the two.
"""

import functools
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from chatwidget.shop.knowledge.analysis import (
    STOPWORDS,
    compound_head,
    compound_splits,
    fold,
    language_guess,
    stem,
    stems,
)
from chatwidget.shop.knowledge.asking import chooses, deictic, opener_strip, refers_back
from chatwidget.shop.knowledge.referents import referent
from chatwidget.shop.knowledge.topics import service_topics_of, topic_words, topics_of
from memory.extract import ids_extract

MAX_TERMS = 48

W_MESSAGE = 1.0
W_OBJECT = 0.8
W_CONSTRAINT = 0.6
W_REQUEST = 0.5
W_RECENT = (0.6, 0.45, 0.3, 0.2)  # recent turns, newest first (an assistant turn: half)
W_TOPIC = 0.5  # the words of the service topics the message asks about (topics.py)

OWN_SUBJECT_SHARE = 0.2  # a word in more of the shop's chunks than this names no subject
UNKNOWN_SUBJECT_WORDS = 3  # words the shop does not use that name a subject all the same

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
    return forms_match(word_forms(term, language), found, parts)


Forms = tuple[tuple[str, ...], tuple[tuple[str, str], ...], str]


def word_forms(term: str, language: str = "en") -> Forms:
    """What a query word may be in a text: its stems, its compound splits, the part of a
    compound it may be (analysis.compound_head)."""
    return stems(term, language), compound_splits(term), compound_head(term)


def forms_match(forms: Forms, found: set[str], parts: AbstractSet[str] = frozenset()) -> bool:
    own, splits, head = forms
    return (
        any(f in found for f in own)
        or any(a in found and b in found for a, b in splits)
        or (bool(head) and head in parts)
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
    fresh: list[str] = field(default_factory=list)  # the message's words the memory lacks
    own_subject: bool = False  # leans back, yet names a subject of its own (scoring.py)
    embed_text: str = ""  # what the query embedding is made of: the message (and its referent)
    topic_text: str = ""  # the words of the service topics the message asks about (topics.py)
    topics: tuple[str, ...] = ()  # their names, for the trace
    # the service topic the condensed talk is about (its core's request), when the message
    # asks none of its own: its page keeps a place (selectors._talk_topic_pages)
    talk_topics: tuple[str, ...] = ()
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


@dataclass
class _Memory:
    """What a turn's query takes from the conversation: weighted words, the active objects
    (their keys and as written) and the texts it was built from."""

    texts: list[str]
    terms: dict[str, float] = field(default_factory=dict)
    active: set[str] = field(default_factory=set)
    shown: dict[str, str] = field(default_factory=dict)

    def add(self, text: str, weight: float) -> None:
        for term in words(text):
            if weight > self.terms.get(term, 0.0):
                self.terms[term] = weight

    def core_note(self, core: dict) -> None:
        for obj in core.get("objects") or []:
            if not isinstance(obj, dict):
                continue
            if obj.get("id"):
                self.active.add(identifier_key(str(obj["id"])))
                self.shown.setdefault(identifier_key(str(obj["id"])), str(obj["id"]))
                self.add(str(obj["id"]), W_OBJECT)
            self.add(str(obj.get("label") or ""), W_OBJECT)
            self.texts.append(f"{obj.get('label') or ''} {obj.get('id') or ''}")
        for item in core.get("constraints") or []:
            if isinstance(item, dict):
                self.add(str(item.get("value") or ""), W_CONSTRAINT)
        if core.get("request"):
            self.add(str(core["request"]), W_REQUEST)
            self.texts.append(str(core["request"]))

    def recent_note(self, recent: list[tuple[str, str]]) -> None:
        visitor_index = 0
        for role, text in recent:
            weight = W_RECENT[min(visitor_index, len(W_RECENT) - 1)]
            if role == "visitor":
                visitor_index += 1
                self.texts.append(text)
            else:
                weight /= 2
            self.add(text, weight)
            _articles_note(text, active=self.active, shown=self.shown)


def embed_text_of(message: str, pointed: str = "") -> str:
    """What the query embedding is made of: the message without its opener and the item it
    points at. The turn starts embedding it before the build (assistant.context.
    message_embedding_start), so both must make the same text. The words of the message's
    service topics (topics.py) are a vector of their own, made once per process and blended
    in (selectors._topic_blend): adding them to this text would cost a long embedding at
    every turn that has one."""
    message = opener_strip(message)
    return "\n".join(filter(None, [message, pointed]))


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
    message = opener_strip(message)  # "hi", "thanks! also": no part of the question
    memory = _Memory(texts=[message])
    memory.core_note(core or {})
    memory.recent_note(recent)
    terms, active, shown, texts = memory.terms, memory.active, memory.shown, memory.texts
    add = memory.add
    _articles_note(message, active=active, shown=shown)
    remembered = bool(active)
    for value in page.identifiers if page else ():
        active.add(identifier_key(value))
        shown.setdefault(identifier_key(value), value)
    # An active object's identifier finds its chunks, but is not scored: the bonus after
    # scoring is its whole preference (ShopBot's order), unless the message names it.
    for key in active:
        terms.pop(key, None)
    remembered_words = set(terms)
    add(message, W_MESSAGE)
    # "Nummer 2", "the last one", "das teurere": the item of the last list, as if named
    pointed = referent(message, next((t for role, t in recent if role == "assistant"), ""))
    add(pointed, W_MESSAGE)
    topics = topic_words(message)
    own_topics = topics_of(message)
    lead = dict.fromkeys(words(f"{message}\n{pointed}"), W_MESSAGE)
    for term in words(topics):
        lead.setdefault(term, W_TOPIC)
        terms.setdefault(term, W_TOPIC)
    back = bool(pointed) or refers_back(message)
    chosen = bool(pointed) or chooses(message)  # a list's item, "the woody one": the talk's
    return KnowledgeQuery(
        terms=terms,
        active_ids=active,
        recall=active - set(terms),
        shown=shown,
        text="\n".join(t for t in texts if t),
        lead=lead,
        fresh=[w for w in words(message) if w not in remembered_words and not chosen],
        refers_back=back,
        embed_text=embed_text_of(message, pointed),
        topic_text=topics,
        topics=own_topics,
        talk_topics=() if own_topics else service_topics_of(str((core or {}).get("request") or "")),
        page_key=page.key if page else "",
        page_wins=bool(page) and (deictic(message) or (back and not remembered)),
        language=language_guess(message, default=language),
    )


def names_no_subject(lead: list[str], shares: dict[str, float]) -> bool:
    """Whether a message's own words name nothing of their own (`shares`: the share of the
    shop's chunks each is in, backends.term_shares). A word names a subject when the shop
    uses it rarely (in OWN_SUBJECT_SHARE of its chunks or fewer): "do you ship to Canada?",
    or the words of a service topic it asks about (topics.py). A word in more chunks names
    none: "what's the material?" in a shop whose every product states its material asks
    about the subject of the talk as "is it machine washable?" does, without a pronoun for
    `refers_back` to see. Nor do one or two words the shop does not use at all: "how tall
    roughly?", "Maße?" after a product; UNKNOWN_SUBJECT_WORDS of them do ("I need a
    tablecloth for a six-seater, ideally with blue stripes" in a shop that says
    "Tischdecke")."""
    if not lead:
        return True
    if not shares or any(0 < shares.get(word, 0.0) <= OWN_SUBJECT_SHARE for word in lead):
        return False  # no counts (a small catalogue): every question names its subject
    return sum(1 for word in lead if not shares.get(word)) < UNKNOWN_SUBJECT_WORDS
