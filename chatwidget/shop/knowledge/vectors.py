"""Exact nearest-neighbour search over a site's chunk vectors (numpy), on either database.

The vectors of a site's chunks are read once into one matrix per process and kept while the
site's knowledge version stays the same (`cache_keys.knowledge_version`: one cache read per
search, no query; imports, deletions and the background embedding change it after commit,
`knowledge_version_bump`). A search is then one matrix-vector product on one thread: under a
millisecond at 10,000 chunks of 384 dimensions, exact, with no index to build or tune. pgvector's HNSW
index would serve far larger catalogues, but it is not in Debian bookworm's archive that the
deployment installs from (ARCHITECTURE.md, decisions), and at a shop's size exact search is
both faster to keep fresh and never misses a neighbour.
"""

import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from django.core.cache import cache
from django.db import transaction

from chatwidget.platform import cache_keys
from chatwidget.platform.memo import ProcessMemo
from chatwidget.shop.models.knowledge import KnowledgeChunk

SITES_CACHED = 8
# A chunk with several vectors (embedding_queue.passage_texts) stores them as one blob:
# MAGIC, the dimension (uint32), then the vectors. Its length is 2 more than a multiple of
# 4, which a single float32 vector's (the form of every other chunk) never is.
MAGIC = b"MV"
_HEADER = len(MAGIC) + 4


def vectors_pack(vectors: list[bytes]) -> bytes:
    """One chunk's vectors (float32 bytes each, the whole chunk's first) as its `embedding`:
    a single vector as it is."""
    if len(vectors) == 1:
        return vectors[0]
    return MAGIC + struct.pack("<I", len(vectors[0]) // 4) + b"".join(vectors)


def _vectors_unpack(blob: bytes) -> tuple[int, bytes]:
    """(dimension, the vectors' bytes) of a stored `embedding`."""
    if len(blob) % 4 == 2 and blob[: len(MAGIC)] == MAGIC:
        return struct.unpack("<I", blob[len(MAGIC) : _HEADER])[0], blob[_HEADER:]
    return len(blob) // 4, blob


@dataclass
class _Matrix:
    version: str
    ids: list[int]
    rows: dict[int, int]  # chunk id -> row
    matrix: np.ndarray  # float32, normalised rows: each chunk's, its windows' after it
    first: np.ndarray | None  # the row of each chunk's own vector; None: one row per chunk


_CACHE: dict[int, _Matrix] = {}
VERSIONS = ProcessMemo[str]()


def knowledge_version(site_id: int) -> str:
    """The site's knowledge version; a new one when the cache lost it (then every process
    reads its matrix again: correct, only slower once). Kept a second in the process
    (platform.memo): another process's import is seen here within it."""
    return VERSIONS.get(site_id, lambda: _version(site_id))


def _version(site_id: int) -> str:
    key = cache_keys.knowledge_version(site_id)
    version = cache.get(key)
    if version is None:
        cache.add(key, secrets.token_hex(8), timeout=None)
        version = cache.get(key) or ""
    return str(version)


def knowledge_version_bump(site_id: int) -> None:
    """After commit: the site's chunks or vectors changed, every process reads them again
    (this one at once, the others once their memo of the version lapses)."""

    def bump() -> None:
        cache.set(cache_keys.knowledge_version(site_id), secrets.token_hex(8), None)
        VERSIONS.forget(site_id)

    transaction.on_commit(bump)


_HAS_VECTORS: dict[int, tuple[str, bool]] = {}


def knowledge_has_vectors(site_id: int) -> bool:
    """Whether any of the site's chunks has a vector, so that a turn of a site without them
    embeds no query (issue 30): remembered per process and knowledge version (one cache
    read per turn; one query when the version changed: an import, a deletion, the
    background embedding)."""
    version = knowledge_version(site_id)
    found = _HAS_VECTORS.get(site_id)
    if found is not None and found[0] == version:
        return found[1]
    has = KnowledgeChunk.objects.filter(site_id=site_id).exclude(embedding=None).exists()
    if site_id not in _HAS_VECTORS and len(_HAS_VECTORS) >= SITES_CACHED * 128:
        _HAS_VECTORS.pop(next(iter(_HAS_VECTORS)))
    _HAS_VECTORS[site_id] = (version, has)
    return has


def _matrix(site_id: int) -> _Matrix | None:
    version = knowledge_version(site_id)
    found = _CACHE.get(site_id)
    if found is not None and found.version == version:
        return found
    ids, raw = [], []
    rows = (
        KnowledgeChunk.objects.filter(site_id=site_id)
        .exclude(embedding=None)
        .order_by("pk")
        .values_list("pk", "embedding")
    )
    for pk, blob in rows.iterator(2000):
        ids.append(pk)
        raw.append(bytes(blob or b""))
    if not ids:
        _CACHE.pop(site_id, None)
        return None
    unpacked = [_vectors_unpack(r) for r in raw]
    dim = unpacked[0][0]
    parts, first, at = [], [], 0
    for size, body in unpacked:
        if size != dim or not body or len(body) % (dim * 4):
            body = bytes(dim * 4)  # another model's vector: no similarity, found by its words
        first.append(at)
        parts.append(body)
        at += len(body) // (dim * 4)
    matrix = np.frombuffer(b"".join(parts), dtype=np.float32).reshape(-1, dim)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = (matrix / np.where(norms == 0, 1, norms)).astype(np.float32)
    if site_id not in _CACHE and len(_CACHE) >= SITES_CACHED:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[site_id] = found = _Matrix(
        version=version,
        ids=ids,
        rows={pk: i for i, pk in enumerate(ids)},
        matrix=unit,
        first=np.array(first) if len(unit) != len(ids) else None,
    )
    return found


def vector_search(
    *, site_id: int, query: bytes, limit: int, among: Sequence[int] = ()
) -> tuple[list[tuple[int, float]], dict[int, float]]:
    """The `limit` chunks nearest to the query vector (id, cosine), best first, and the
    cosine of each chunk in `among` that has a vector. A chunk with windows
    (embedding_queue.passage_texts) counts the mean of its own cosine and its best window's:
    the window that says what the question asks lifts it, the whole keeps a page that only
    mentions it in passing from ranking like the page about it."""
    found = _matrix(site_id)
    if found is None:
        return [], {}
    q = np.frombuffer(query, dtype=np.float32)
    if q.shape[0] != found.matrix.shape[1]:
        return [], {}
    q = q / (np.linalg.norm(q) or 1.0)
    # einsum, not `matrix @ q`: BLAS spreads a matrix-vector product over its threads, whose
    # hand-offs cost more than the product on a busy machine (p95 8 ms against under 1 ms
    # on one thread at 10,000 chunks, issue 26)
    sims = np.einsum("ij,j->i", found.matrix, q)
    if found.first is not None:  # rows -> chunks (a chunk's rows follow each other)
        sims = (sims[found.first] + np.maximum.reduceat(sims, found.first)) / 2
    if limit < len(sims):  # the best `limit` without sorting every chunk
        part = np.argpartition(-sims, limit)[:limit]
        top = part[np.argsort(-sims[part])]
    else:
        top = np.argsort(-sims)
    nearest = [(found.ids[i], float(sims[i])) for i in top]
    return nearest, {pk: float(sims[found.rows[pk]]) for pk in among if pk in found.rows}
