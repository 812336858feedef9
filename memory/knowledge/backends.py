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
rescoring after it (memory/knowledge/query.py), decide.
"""

import json
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Q

from memory.knowledge.models import KnowledgeChunk
from memory.knowledge.query import fold

# Table names are literal in the SQL below (memory_knowledgechunk, its _fts companion):
# the migration that creates them names them the same way.

PREFIX = 5


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
    return Hit(chunk_id=pk, rank=float(rank), title=title, url=url,
               identifiers=list(identifiers or []), text=text, token_count=tokens)


def pg_config(language: str) -> str:
    return "german" if language == "de" else "english"


def index_chunks(*, chunk_rows: list[tuple[int, str, str, str]], language: str) -> None:
    """Index chunks just inserted: (id, keywords, title, text) each."""
    if not chunk_rows:
        return
    # Indexed folded (lower case, no diacritics, ß -> ss), as query terms are: "Größe" and
    # "groesse" typed without umlauts meet, and both engines see the same words.
    chunk_rows = [(pk, fold(kw), fold(title), fold(text)) for pk, kw, title, text in chunk_rows]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cfg = pg_config(language)
            cursor.executemany(
                "UPDATE memory_knowledgechunk SET search = "
                "setweight(to_tsvector(%s::regconfig, %s), 'A') || "
                "setweight(to_tsvector(%s::regconfig, %s), 'A') || "
                "setweight(to_tsvector(%s::regconfig, %s), 'B') WHERE id = %s",
                [(cfg, kw, cfg, title, cfg, text, pk) for pk, kw, title, text in chunk_rows],
            )
        elif connection.vendor == "sqlite":
            cursor.executemany(
                "INSERT INTO memory_knowledgechunk_fts (rowid, keywords, title, body) "
                "VALUES (%s, %s, %s, %s)",
                chunk_rows,
            )


def search(*, site_id: int, terms: list[str], language: str, limit: int) -> list[Hit]:
    """Chunks of the site matching any term, best first, with what an excerpt needs (one
    query). `terms` are normalised words (letters and digits only), so they are safe inside
    the query syntax of either engine."""
    terms = [t for t in terms if t.isalnum()]
    if not terms:
        return []
    # A long word also matches by its first letters (zurückschicken ~ zurückgeben), as the
    # rescoring does (query.stem).
    prefixes = sorted({t[:PREFIX] for t in terms if len(t) > PREFIX and t.isalpha()})
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT id, title, url, identifiers, text, token_count, ts_rank(search, q) AS r "
                "FROM memory_knowledgechunk, "
                "to_tsquery(%s::regconfig, %s) q "
                "WHERE site_id = %s AND search @@ q ORDER BY r DESC, id LIMIT %s",
                [pg_config(language), " | ".join(terms + [f"{p}:*" for p in prefixes]),
                 site_id, limit],
            )
        elif connection.vendor == "sqlite":
            match = " OR ".join([f'"{t}"' for t in terms] + [f'"{p}"*' for p in prefixes])
            cursor.execute(
                "SELECT c.id, c.title, c.url, c.identifiers, c.text, c.token_count, "
                "-bm25(memory_knowledgechunk_fts, 4.0, 2.0, 1.0) AS r "
                "FROM memory_knowledgechunk_fts JOIN memory_knowledgechunk c "
                "ON c.id = memory_knowledgechunk_fts.rowid "
                "WHERE memory_knowledgechunk_fts MATCH %s AND c.site_id = %s "
                "ORDER BY r DESC, c.id LIMIT %s",
                [match, site_id, limit],
            )
        else:  # another database: substring matches, unranked; correct, not fast
            q = Q()
            for t in terms[:20]:
                q |= Q(text__icontains=t) | Q(title__icontains=t)
            rows = KnowledgeChunk.objects.filter(q, site_id=site_id).values_list(
                "id", "title", "url", "identifiers", "text", "token_count")[:limit]
            return [_hit((*row, 1.0)) for row in rows]
        return [_hit(row) for row in cursor.fetchall()]
