"""Knowledge benchmark: import of 10,000 products, and what retrieval adds to a turn.

    python -m tests.bench.knowledge_bench [--products 10000] [--builds 200]

1. Import: a JSON Lines feed of N synthetic products (about 90 tokens each, like the demo
   catalogue) through `knowledge_import`, timed, with the peak of Python allocations
   (tracemalloc) at N/5 and N products: streamed import keeps it flat, not proportional.
   A second run of the same feed shows the idempotent path (nothing re-processed).
2. Retrieval cost per turn: `context_build` of a follow-up turn ("what about size L?")
   in a conversation with a few turns, p50/p95 over many builds, with retrieval on (the
   site's knowledge share 25 %) and switched off (share 0), alternating build by build,
   side by side, and the ratio.
Uses its own test database: PostgreSQL when TEST_DATABASE_URL names one (the figure the
issue asks for), else SQLite in memory. Not collected by pytest (tests/bench is excluded).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

GARMENTS = [
    "kurta",
    "linen shirt",
    "wool jumper",
    "denim jacket",
    "chino trousers",
    "summer dress",
    "rain jacket",
    "T-shirt",
    "hoodie",
    "cardigan",
    "blazer",
    "parka",
    "polo shirt",
    "skirt",
    "coat",
    "vest",
    "tunic",
    "jeans",
    "shorts",
    "scarf",
]
ADJECTIVES = [
    "organic",
    "classic",
    "relaxed",
    "slim",
    "light",
    "heavy",
    "soft",
    "washed",
    "recycled",
    "merino",
    "cotton",
    "linen",
    "silk",
    "fleece",
    "quilted",
    "knitted",
    "striped",
    "plain",
    "printed",
    "brushed",
    "waxed",
    "ribbed",
    "cropped",
    "long",
    "short",
    "wide",
]
COLOURS = [
    "mint",
    "white",
    "black",
    "navy",
    "sand",
    "grey",
    "red",
    "blue",
    "green",
    "yellow",
    "olive",
    "rust",
    "pink",
    "teal",
    "beige",
    "brown",
    "ochre",
    "lilac",
    "cream",
    "coral",
]


def feed_write(path: Path, n: int) -> None:
    with path.open("w") as fh:
        for i in range(n):
            garment = GARMENTS[i % len(GARMENTS)]
            adjective = ADJECTIVES[(i // len(GARMENTS)) % len(ADJECTIVES)]
            colour = COLOURS[(i // (len(GARMENTS) * len(ADJECTIVES))) % len(COLOURS)]
            sku = f"BX-{i:05d}-{colour[:2].upper()}"
            title = f"{adjective.capitalize()} {garment}, {colour}"
            text = (
                f"{title}. Article {sku}. Made from {adjective} fabric in {colour}.\n\n"
                f"Sizes S to XL (size L: {'sold out' if i % 7 == 0 else 'in stock'}).\n\n"
                f"Care: {'machine wash at 30 °C' if i % 3 else 'hand wash only'}.\n\n"
                f"Price: {20 + i % 180}.90 EUR."
            )
            fh.write(
                json.dumps(
                    {
                        "id": sku,
                        "title": title,
                        "text": text,
                        "url": f"https://shop.example/p/{sku}",
                        "identifiers": [sku],
                    }
                )
                + "\n"
            )


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
            started = time.perf_counter()
            again = knowledge_import(source=source)
            out[size] = {
                "seconds": round(seconds, 2),
                "peak_mib": round(peak / 2**20, 1),
                "per_product_ms": round(seconds * 1000 / size, 3),
                "created": result.created,
                "reimport_seconds": round(time.perf_counter() - started, 2),
                "reimport_unchanged": again.unchanged,
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


def build_times(site, conv, seq: int, builds: int) -> dict[str, list[float]]:
    """Builds with retrieval off and on, alternating, so that a load that changes during
    the run (a shared machine) weighs on both columns alike."""
    from chatwidget.assistant.context import context_build

    times: dict[str, list[float]] = {"off": [], "on": []}
    for i in range(builds + 10):
        for label, share in (("off", 0), ("on", 25)):
            type(site).objects.filter(pk=site.pk).update(knowledge_share=share)
            started = time.perf_counter()
            context_build(conversation_id=conv.pk, request_seq=seq)
            if i >= 10:  # the first builds warm caches up
                times[label].append((time.perf_counter() - started) * 1000)
    return times


def latency_figures(site, n: int, builds: int) -> dict:
    from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
    from chatwidget.shop.models.knowledge import KnowledgeChunk

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "feed.jsonl"
        feed_write(path, n)
        demo = Path(__file__).resolve().parents[2] / "chatwidget" / "demo_data"
        for location in (path, demo / "catalogue.jsonl", demo / "pages"):
            knowledge_import(source=knowledge_source_ensure(site=site, location=str(location)))
    chunks = KnowledgeChunk.objects.filter(site=site).count()
    conv, seq = conversation_make(site)
    out = {"chunks": chunks}
    for label, times in build_times(site, conv, seq, builds).items():
        out[label] = {
            "p50_ms": round(statistics.median(times), 2),
            "p95_ms": round(statistics.quantiles(times, n=20)[18], 2),
        }
    out["added_p50_ms"] = round(out["on"]["p50_ms"] - out["off"]["p50_ms"], 2)
    out["ratio_p50"] = round(out["on"]["p50_ms"] / out["off"]["p50_ms"], 2)
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--products", type=int, default=10_000)
    parser.add_argument("--builds", type=int, default=200)
    parser.add_argument(
        "--skip-import",
        action="store_true",
        help="only the latency part (its catalogue is still imported)",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    from chatwidget.sites.services import site_create

    load_before = os.getloadavg()
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        site = site_create(name="Bench shop", origins=["http://shop.test"])
        imports = {} if args.skip_import else import_figures(site, args.products)
        latency = latency_figures(site, args.products, args.builds)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
    print(
        f"Knowledge benchmark on {connection.vendor} (load average before/after: "
        f"{load_before[0]:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)\n"
    )
    print("| products | import s | ms/product | peak Python MiB | re-import s (unchanged) |")
    print("|---:|---:|---:|---:|---:|")
    for size, f in imports.items():
        print(
            f"| {size} | {f['seconds']} | {f['per_product_ms']} | {f['peak_mib']} | "
            f"{f['reimport_seconds']} ({f['reimport_unchanged']}) |"
        )
    print(
        f"\ncontext_build of a follow-up turn at {latency['chunks']} chunks "
        f"({args.builds} builds):\n"
    )
    print("| retrieval | p50 ms | p95 ms |\n|---|---:|---:|")
    for label in ("off", "on"):
        print(f"| {label} | {latency[label]['p50_ms']} | {latency[label]['p95_ms']} |")
    print(
        f"\nretrieval adds {latency['added_p50_ms']} ms at p50 "
        f"(ratio {latency['ratio_p50']}); target: at most 5 ms on PostgreSQL"
    )
    return {"imports": imports, "latency": latency}


if __name__ == "__main__":
    main()
