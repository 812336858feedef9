"""Full-text search that fits the deployment, behind one small interface.

- PostgreSQL: a `tsvector` column on the chunk table with a GIN index, built with the
  site's language configuration (`german` for a German site, else `english`), ranked with
  `ts_rank`. Identifiers and the title weigh A, the text B.
- SQLite (the embedded default): an FTS5 table keyed by the chunk id, ranked with BM25
  (identifiers and title weighted above the text); a trigger removes its rows when chunks
  are deleted, by a cascade or otherwise.
Both are created by memory's knowledge migration (guarded by vendor) and written in the caller's
transaction, so a chunk is searchable exactly when it is committed.

Queries are a disjunction of normalised terms: the query built from memory is long (message,
request, active objects, recent turns) and no chunk holds every word; the ranking, and the
rescoring after it (chatwidget/shop/knowledge/scoring.py), decide.
"""

import json
from collections import OrderedDict
from dataclasses import dataclass, field
from itertools import combinations

from django.core.cache import cache
from django.db import connection
from django.db.models import Q

from chatwidget.platform import cache_keys
from chatwidget.shop.knowledge import vocab
from chatwidget.shop.knowledge.analysis import (
    compound_head,
    compound_splits,
    fold,
    language_guess,
    stems,
)
from chatwidget.shop.knowledge.query import identifier_key, text_terms
from chatwidget.shop.knowledge.vectors import knowledge_version
from chatwidget.shop.models.knowledge import KnowledgeChunk

# Table names are literal in the SQL below (memory_knowledgechunk, its _fts companion):
# the migration that creates them names them the same way.

PAIR_TERMS = 6  # the leading terms whose pairs select candidates first
MIN_HITS = 5  # fewer pair matches than this: add chunks matching any term
COMMON_SHARE = 0.2  # a lexeme in more than this share of chunks does not select candidates
PRUNE_FROM_CHUNKS = 2000  # ... in a catalogue of at least this many chunks
SHARES_FROM_CHUNKS = 20  # term_shares: a word's share says something from this many chunks
KEEP_TERMS = 3  # ... unless nothing rarer is left: the rarest few are kept


@dataclass
class Hit:
    chunk_id: int
    rank: float  # the backend's own score: higher is better
    title: str = ""
    url: str = ""
    identifiers: list[str] = field(default_factory=list)
    text: str = ""
    token_count: int = 0


def _hit(row: tuple) -> Hit:
    pk, title, url, identifiers, text, tokens, rank = row
    if isinstance(identifiers, str | bytes):
        identifiers = json.loads(identifiers or "[]")
    return Hit(
        chunk_id=pk,
        rank=float(rank),
        title=title,
        url=url,
        identifiers=list(identifiers or []),
        text=text,
        token_count=tokens,
    )


# Both engines index the terms of chatwidget/shop/knowledge/analysis.py (stemmed in the
# chunk's language); PostgreSQL's `simple` configuration only lower-cases them.
PG_CONFIG = vocab.PG_CONFIG
COMPOUND_SPLITS = 8  # splits of one German compound tried in a query


def index_chunks(*, chunk_rows: list[tuple[int, str, str, str]], language: str) -> None:
    """Index chunks just inserted: (id, keywords, title, text) each. `language`: the site's,
    for a chunk whose own language cannot be told."""
    if not chunk_rows:
        return
    # Indexed as analysed (folded, stemmed in the chunk's language), as query terms are:
    # "Größen" and "groesse" typed without umlauts meet, and both engines see the same terms.
    rows = []
    for pk, kw, title, text in chunk_rows:
        lang = language_guess(f"{title}\n{text}", default=language)
        rows.append(
            (
                pk,
                fold(kw),
                " ".join(text_terms(title, language=lang)),
                " ".join(text_terms(text, language=lang)),
            )
        )
    chunk_rows = rows
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cfg = PG_CONFIG
            # one statement for the batch (a row at a time was a round trip per chunk)
            ids, kws, titles, texts = (list(col) for col in zip(*chunk_rows, strict=True))
            cursor.execute(
                "UPDATE memory_knowledgechunk c SET search = "
                "setweight(to_tsvector(%s::regconfig, v.kw), 'A') || "
                "setweight(to_tsvector(%s::regconfig, v.title), 'A') || "
                "setweight(to_tsvector(%s::regconfig, v.body), 'B') "
                "FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[]) "
                "AS v(id, kw, title, body) WHERE c.id = v.id",
                [cfg, cfg, cfg, ids, kws, titles, texts],
            )
        elif connection.vendor == "sqlite":
            cursor.executemany(
                "INSERT INTO memory_knowledgechunk_fts (rowid, keywords, title, body) "
                "VALUES (%s, %s, %s, %s)",
                chunk_rows,
            )


def index_rebuild(*, chunks, batch: int = 500) -> int:
    """Index every chunk again with this module's analyser (the terms changed: issue 26).
    `chunks`: a queryset of chunks (a migration passes its historical model's). Returns the
    number of chunks indexed."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM memory_knowledgechunk_fts")
    done = 0
    rows = chunks.order_by("pk").values_list(
        "pk", "identifiers", "title", "text", "site__default_language"
    )
    by_language: dict[str, list[tuple[int, str, str, str]]] = {}
    for pk, identifiers, title, text, language in rows.iterator(chunk_size=batch):
        keywords = " ".join(identifier_key(str(i)) for i in identifiers or [])
        by_language.setdefault(language or "en", []).append((pk, keywords, title, text))
        done += 1
        if done % batch == 0:
            for lang, part in by_language.items():
                index_chunks(chunk_rows=part, language=lang)
            by_language = {}
    for lang, part in by_language.items():
        index_chunks(chunk_rows=part, language=lang)
    return done


def pending_merge() -> None:
    """PostgreSQL: merge the full-text index's pending list. Rows written since the last
    merge (an import's; every chunk the embedding task gives its vector, a new row version
    with new index entries) wait there, and every search scans the list row by row until
    autovacuum merges it: after the background embedding of 10,000 chunks a full-text search
    took 27 ms at p50 against 3 ms merged (knowledge_bench)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT gin_clean_pending_list('knowledge_chunk_search'::regclass)")


def statistics_refresh() -> None:
    """After an import: the index merged and PostgreSQL's statistics up to date, so the
    planner uses the GIN index and `_selective` knows the catalogue's common words."""
    pending_merge()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE memory_knowledgechunk")
    cache.delete_many([cache_keys.KNOWLEDGE_PG_COMMON_LEXEMES, cache_keys.KNOWLEDGE_SQLITE_CHUNKS])


def term_shares(*, terms: list[str], language: str, site_id: int | None = None) -> dict[str, float]:
    """The share of the knowledge's chunks that hold each term (any of its stems), whatever
    the catalogue's size: PostgreSQL's statistics (a lexeme they do not list counts as rare)
    or SQLite's FTS5 vocabulary. Across the sites of the database, as `_selective` counts:
    what a term says of a shop's wording (in every product: "material", "size") does not
    need one site's exact figure. Empty on other engines, and below SHARES_FROM_CHUNKS
    chunks, where any word of two chunks would be "common". `site_id`: the counts are kept
    in this process for the site's knowledge version (vocab.py)."""
    terms = [t for t in terms if t.isalnum()]
    if not terms:
        return {}
    found = vocab.shares(terms, language, at_least=SHARES_FROM_CHUNKS, site_id=site_id)
    return found or {}


def _selective(
    terms: list[str], *, vendor: str, language: str, site_id: int | None = None
) -> tuple[list[str], bool]:
    """The terms that select candidates: words in most chunks ("size", "price" in a
    catalogue) make the engine walk and rank nearly every row, so they are left to the
    rescoring (chatwidget/shop/knowledge/scoring.py), which still weighs them. The rarest few always
    stay, in the query's order. Also says whether a common word had to stay (the search then
    ranks most of the catalogue: `_cached`)."""
    share = vocab.shares(terms, language, at_least=PRUNE_FROM_CHUNKS, site_id=site_id)
    if share is None:
        return terms, False
    kept = {t for t in terms if share[t] <= COMMON_SHARE}
    if len(kept) < KEEP_TERMS:  # the least common of the common words fill up
        kept |= set(
            sorted((t for t in terms if t not in kept), key=lambda t: share[t])[
                : KEEP_TERMS - len(kept)
            ]
        )
    return [t for t in terms if t in kept], any(share[t] > COMMON_SHARE for t in kept)


def _expr(term: str, vendor: str, language: str) -> str:
    """One query word in the engine's query syntax: any of its stems, or both parts of a
    German compound, as the rescoring matches it (query.term_matches)."""
    forms = [f for f in stems(term, language) if f.isalnum()]
    splits = [(a, b) for a, b in compound_splits(term) if a.isalnum() and b.isalnum()]
    head = compound_head(term)  # the first part of a compound
    if vendor == "postgresql":
        parts = forms + [f"({a} & {b})" for a, b in splits[:COMPOUND_SPLITS]]
        parts += [f"{head}:*"] if head else []
        return "(" + " | ".join(parts) + ")"
    parts = [f'"{f}"' for f in forms] + [f'("{a}" AND "{b}")' for a, b in splits[:COMPOUND_SPLITS]]
    parts += [f'"{head}"*'] if head else []
    return "(" + " OR ".join(parts) + ")"


def _either(parts: list[str], vendor: str) -> str:
    return (" | " if vendor == "postgresql" else " OR ").join(parts)


def _stemmed(term: str, vendor: str, language: str) -> str:
    forms = [f for f in stems(term, language) if f.isalnum()]
    if vendor == "postgresql":
        return forms[0] if len(forms) == 1 else "(" + " | ".join(forms) + ")"
    return (
        " OR ".join(f'"{f}"' for f in forms)
        if len(forms) == 1
        else ("(" + " OR ".join(f'"{f}"' for f in forms) + ")")
    )


def _pairs(terms: list[str], vendor: str, language: str) -> str:
    """Stems only: compound splits in every pair would make the index scan wide."""
    pairs = combinations([_stemmed(t, vendor, language) for t in terms[:PAIR_TERMS]], 2)
    if vendor == "postgresql":
        return " | ".join(f"({a} & {b})" for a, b in pairs)
    return " OR ".join(f"({a} AND {b})" for a, b in pairs)


def _run(
    cursor,
    *,
    vendor: str,
    match: str,
    language: str,
    site_id: int,
    limit: int,
) -> list[Hit]:
    if vendor == "postgresql":
        cursor.execute(
            "SELECT id, title, url, identifiers, text, token_count, ts_rank(search, q) AS r "
            "FROM memory_knowledgechunk, to_tsquery(%s::regconfig, %s) q "
            "WHERE site_id = %s AND search @@ q ORDER BY r DESC, id LIMIT %s",
            [PG_CONFIG, match, site_id, limit],
        )
    else:
        cursor.execute(
            "SELECT c.id, c.title, c.url, c.identifiers, c.text, c.token_count, "
            "-bm25(memory_knowledgechunk_fts, 4.0, 2.0, 1.0) AS r "
            "FROM memory_knowledgechunk_fts JOIN memory_knowledgechunk c "
            "ON c.id = memory_knowledgechunk_fts.rowid "
            "WHERE memory_knowledgechunk_fts MATCH %s AND c.site_id = %s "
            "ORDER BY r DESC, c.id LIMIT %s",
            [match, site_id, limit],
        )
    return [_hit(row) for row in cursor.fetchall()]


RESULTS_CACHED = 256
_RESULTS: "OrderedDict[tuple, tuple[str, list[Hit]]]" = OrderedDict()


def _cached(cursor, *, site_id: int, match: str, limit: int, **kwargs) -> list[Hit]:
    """`_run` for a search of common words only ("size" alone in a catalogue where every
    product has sizes): the engine ranks nearly every chunk (about 50 ms at 10,000 chunks,
    issue 26), yet the answer depends only on the words and the site's knowledge, and such
    messages repeat across visitors. Kept per process while the site's knowledge version
    (vectors.py) stays the same; never inside a transaction, which may see what is not
    committed (or never will be)."""
    if connection.in_atomic_block:
        return _run(cursor, site_id=site_id, match=match, limit=limit, **kwargs)
    version = knowledge_version(site_id)
    key = (connection.alias, site_id, match, limit)
    found = _RESULTS.get(key)
    if found is not None and found[0] == version:
        _RESULTS.move_to_end(key)
        return list(found[1])
    hits = _run(cursor, site_id=site_id, match=match, limit=limit, **kwargs)
    _RESULTS[key] = (version, hits)
    if len(_RESULTS) > RESULTS_CACHED:
        _RESULTS.popitem(last=False)
    return list(hits)


def search(*, site_id: int, terms: list[str], language: str, limit: int) -> list[Hit]:
    """Chunks of the site matching the terms, best first, with what an excerpt needs.
    `terms` are normalised words (letters and digits only, most important first), so they
    are safe inside the query syntax of either engine.

    First the chunks that match two of the leading terms ("kurta" and "mint"): few, found
    through the index, cheap to rank whatever the catalogue's size. Only when that finds
    fewer than MIN_HITS does a second query take chunks matching any term."""
    vendor = connection.vendor
    terms = [t for t in terms if t.isalnum()]
    common = False
    if vendor in ("postgresql", "sqlite") and terms:
        terms, common = _selective(terms, vendor=vendor, language=language, site_id=site_id)
    if not terms:
        return []
    if vendor not in ("postgresql", "sqlite"):  # substring matches, unranked: correct, slow
        q = Q()
        for t in terms[:20]:
            q |= Q(text__icontains=t) | Q(title__icontains=t)
        rows = KnowledgeChunk.objects.filter(q, site_id=site_id).values_list(
            "id", "title", "url", "identifiers", "text", "token_count"
        )[:limit]
        return [_hit((*row, 1.0)) for row in rows]
    hits: list[Hit] = []
    with connection.cursor() as cursor:
        if len(terms) >= 2:
            hits = (_cached if common else _run)(
                cursor,
                vendor=vendor,
                match=_pairs(terms, vendor, language),
                language=language,
                site_id=site_id,
                limit=limit,
            )
        if len(hits) < MIN_HITS:
            seen = {h.chunk_id for h in hits}
            more = (_cached if common else _run)(
                cursor,
                vendor=vendor,
                match=_either([_expr(t, vendor, language) for t in terms], vendor),
                language=language,
                site_id=site_id,
                limit=limit,
            )
            hits += [h for h in more if h.chunk_id not in seen][: limit - len(hits)]
    return hits
