"""How common a word is in the shop's knowledge: the share of chunks that hold it (issue 26).

Every turn asks it twice or more: `backends._selective` leaves common words out of the
searches, and `selectors._leans_on_memory` reads a message whose words are all common as
leaning on the earlier subject (`backends.term_shares`). The figures come from the engine's
own counts, read once per process and knowledge version (`vectors.knowledge_version`: one
cache read, as the vector search makes) instead of once a search:
- PostgreSQL: its statistics of the tsvector column (the most common lexemes with their
  share, and the number of rows); a lexeme they do not list is rare. They are also kept in
  the shared cache for a few minutes, so a new process does not query the catalogue.
- SQLite: the FTS5 index's vocabulary (a temporary fts5vocab view per connection): exact
  counts, looked up for the words a turn has that this process has not counted yet.
Across the sites of the database, as the engines count: what a word says of a shop's
wording ("material" in every product) does not need one site's exact figure. Never kept
from inside a transaction, which may see what is not committed (or never will be).
"""

import json
from collections import OrderedDict
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db import connection

from chatwidget.platform import cache_keys
from chatwidget.shop.knowledge.analysis import stems
from chatwidget.shop.knowledge.vectors import knowledge_version

COMMON_SECONDS = 300
PG_CONFIG = "simple"  # the text search configuration of the index: our own stems, as they are
RARE = 1.0  # chunks PostgreSQL's rare lexemes count as (their share: RARE / chunks)
SITES_KNOWN = 64  # sites whose counts a process keeps
FORMS_KNOWN = 20_000  # counted words kept per site (SQLite) before they are counted again


@dataclass
class _Counts:
    version: str
    chunks: float = 0.0
    shares: dict[str, float] = field(default_factory=dict)  # index term -> share of chunks
    complete: bool = False  # PostgreSQL: `common` are its statistics' common lexemes
    common: frozenset[str] = frozenset()


_KNOWN: OrderedDict[tuple[str, int], _Counts] = OrderedDict()


def _pg_common() -> tuple[float, dict[str, float]]:
    """The number of chunks, and lexeme -> share of chunks for the most common lexemes
    (PostgreSQL's own statistics of the tsvector column, cached for a few minutes)."""
    found = cache.get(cache_keys.KNOWLEDGE_PG_COMMON_LEXEMES)
    if not isinstance(found, tuple):  # absent (or written by an older release: a dict)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs, "
                "c.reltuples FROM pg_class c LEFT JOIN pg_stats s "
                "ON s.tablename = c.relname AND s.attname = 'search' "
                "WHERE c.relname = 'memory_knowledgechunk'"
            )
            row = cursor.fetchone()
        chunks = float(row[2] or 0) if row else 0.0  # -1: never analysed
        found = (chunks, dict(zip(row[0], row[1], strict=False)) if row and row[0] else {})
        cache.set(cache_keys.KNOWLEDGE_PG_COMMON_LEXEMES, found, COMMON_SECONDS)
    return found


def _pg_present(forms: set[str]) -> set[str]:
    """Which of `forms` some chunk holds (a lexeme PostgreSQL's statistics do not list may
    be rare or absent: a GIN index lookup each, one statement)."""
    words = sorted(f for f in forms if f.isalnum())
    if not words:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT f FROM unnest(%s::text[]) AS f WHERE EXISTS (SELECT 1 FROM "
            "memory_knowledgechunk c WHERE c.search @@ to_tsquery(%s::regconfig, f))",
            [words, PG_CONFIG],
        )
        return {row[0] for row in cursor.fetchall()}


def _sqlite_chunks() -> int:
    total = cache.get(cache_keys.KNOWLEDGE_SQLITE_CHUNKS)
    if total is None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM memory_knowledgechunk")
            total = cursor.fetchone()[0]
        cache.set(cache_keys.KNOWLEDGE_SQLITE_CHUNKS, total, COMMON_SECONDS)
    return int(total or 0)


def _sqlite_docs(forms: set[str]) -> dict[str, int]:
    """Chunks per index term, from the FTS5 index's vocabulary (0 for a term it lacks)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.knowledge_vocab USING "
            "fts5vocab(main, memory_knowledgechunk_fts, 'row')"
        )
        cursor.execute(
            "SELECT term, doc FROM temp.knowledge_vocab "
            "WHERE term IN (SELECT value FROM json_each(%s))",
            [json.dumps(sorted(forms))],
        )
        return dict.fromkeys(forms, 0) | dict(cursor.fetchall())


def _counts(site_id: int | None, forms: set[str]) -> _Counts:
    """The counts this process knows for the site's knowledge version, with `forms` among
    them (those it lacked are read now)."""
    kept = site_id is not None and not connection.in_atomic_block
    key = (connection.alias, site_id or 0)
    version = knowledge_version(site_id) if kept and site_id is not None else ""
    found = _KNOWN.get(key) if kept else None
    if found is None or found.version != version:
        found = _Counts(version=version)
        if connection.vendor == "postgresql":
            found.chunks, found.shares = _pg_common()
            found.common = frozenset(found.shares)
            found.complete = True
        else:
            found.chunks = _sqlite_chunks()
    missing = set() if not found.chunks else forms - found.shares.keys()
    if missing:
        if len(found.shares) > FORMS_KNOWN:
            found.shares = {k: v for k, v in found.shares.items() if k in found.common}
            missing = forms - found.shares.keys()
        if found.complete:  # PostgreSQL: not among the common lexemes, so rare or absent
            found.shares |= {f: RARE / found.chunks for f in _pg_present(missing)}
            found.shares |= dict.fromkeys(missing - found.shares.keys(), 0.0)
        else:
            found.shares |= {f: n / found.chunks for f, n in _sqlite_docs(missing).items()}
    if kept:
        _KNOWN[key] = found
        _KNOWN.move_to_end(key)
        if len(_KNOWN) > SITES_KNOWN:
            _KNOWN.popitem(last=False)
    return found


def shares(
    terms: list[str], language: str, *, at_least: int, site_id: int | None = None
) -> dict[str, float] | None:
    """Share of chunks per query word (its most common stem; PostgreSQL: a lexeme its
    statistics do not list is rare). None: fewer chunks than `at_least`, or an engine
    without counts. `site_id`: whose knowledge version keeps the counts in this process
    (None: read them now)."""
    if connection.vendor not in ("postgresql", "sqlite"):
        return None
    forms = {f for t in terms for f in stems(t, language)}
    counts = _counts(site_id, forms)
    if not counts.chunks or counts.chunks < at_least:
        return None
    return {t: max(counts.shares.get(f, 0.0) for f in stems(t, language)) for t in terms}
