"""The never-kept check on a held-out set: recall and false positives, end to end.

    .venv/bin/python -m tests.bench.secrets_heldout            # figures per kind and language
    .venv/bin/python -m tests.bench.secrets_heldout --show 30  # and up to 30 misses per side

The set (tests/bench/heldout/secrets_v1.jsonl, 723 records in English and German) was
written by a helper who had not seen the redaction rules, before they were changed for
issue 25 (its builder is in tests/bench/heldout/secrets_build/). Each record is a
conversation: visitor and assistant turns, the values that must not be kept (`secrets`)
and the values that must survive (`keep`).

The records are split in two halves by a hash of their id: the rules were changed while
reading the misses of the "dev" half only; the "test" half's misses were never read, so its
figures are the honest ones.

Every record runs through the product's own path, on a throw-away database: a conversation
is started, each visitor turn goes through `visitor_message_receive` (so a code sent after a
message that asked for one, or a card number split over two messages, is judged with the
conversation it belongs to), each assistant turn through `turn_append`. Then the stored
turns are read back.

- A secret is *kept* (a miss) when it survives in a stored visitor turn as typed, or with
  its spaces, dashes, dots and slashes removed.
- A benign record is a *false positive* when a `keep` value does not survive as typed, or
  a never-kept placeholder appears in it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import re
import sys
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parent / "heldout" / "secrets_v1.jsonl"
_SEPARATORS = re.compile(r"[\s\-./]+")


def _compact(text: str) -> str:
    return _SEPARATORS.sub("", text)


def secret_kept(secret: str, stored: list[str]) -> bool:
    compact = _compact(secret)
    return any(
        secret in text or (len(compact) >= 3 and compact in _compact(text)) for text in stored
    )


def part_of(record_id: str) -> str:
    """The half a record belongs to: "dev" (misses may be read while changing the rules) or
    "test" (never read: its figures are the honest ones)."""
    return "dev" if int(hashlib.sha1(record_id.encode()).hexdigest(), 16) % 2 == 0 else "test"


def records(path: Path = DATA, *, part: str = "all") -> list[dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if part == "all" or part_of(r["id"]) == part]


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.test")
    root = Path(__file__).resolve().parents[2]
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(root.parent / "shared" / "tiktoken"))
    import django

    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()
    from django.db import connection

    connection.creation.create_test_db(verbosity=0)


def _site():
    try:
        from chatwidget.sites.services import site_create
    except ImportError:  # before the house move (issue 24): the first run was made there
        from chatwidget.services import site_create
    return site_create(name="Held-out shop", origins=["https://shop.example"])


def run_record(record: dict, *, site_id: int) -> list[str]:
    """The stored text of the record's visitor turns, after the product's path."""
    from memory.models import Turn, TurnRole
    from memory.services import conversation_start, turn_append, visitor_message_receive

    conversation, _token = conversation_start(site_id=site_id, language=record["lang"])
    for index, turn in enumerate(record["turns"]):
        if turn["role"] == "visitor":
            visitor_message_receive(
                site_id=site_id,
                token=None,
                client_id=f"m{index}",
                text=turn["text"],
                language=record["lang"],
                conversation_id=conversation.pk,
            )
        else:
            turn_append(conversation_id=conversation.pk, role="assistant", text=turn["text"])
    return list(
        Turn.objects.filter(conversation=conversation, role=TurnRole.VISITOR)
        .order_by("seq")
        .values_list("text", flat=True)
    )


def evaluate(show: int = 0, part: str = "all") -> dict:
    from memory.redaction import PLACEHOLDERS_BY_LANGUAGE

    placeholders = {p for table in PLACEHOLDERS_BY_LANGUAGE.values() for p in table.values()}
    site = _site()
    secrets_total: Counter = Counter()
    secrets_kept: Counter = Counter()
    benign_total: Counter = Counter()
    benign_fp: Counter = Counter()
    misses, false_positives = [], []
    chosen = records(part=part)
    for record in chosen:
        stored = run_record(record, site_id=site.pk)
        lang = record["lang"]
        if record["kind"] == "benign":
            benign_total[lang] += 1
            damaged = [k for k in record["keep"] if not any(k in text for text in stored)]
            removed = any(p in text for p in placeholders for text in stored)
            if damaged or removed:
                benign_fp[lang] += 1
                false_positives.append((record, stored))
            continue
        for secret in record["secrets"]:
            key = (record["kind"], lang)
            secrets_total[key] += 1
            if secret_kept(secret, stored):
                secrets_kept[key] += 1
                misses.append((record, secret, stored))
    total = sum(secrets_total.values())
    kept = sum(secrets_kept.values())
    benign = sum(benign_total.values())
    fps = sum(benign_fp.values())
    print(f"held-out set: {DATA.name}, part {part}: {len(chosen)} records")
    print(f"recall (secrets removed): {total - kept}/{total} = {(total - kept) / total:.3f}")
    print(f"false positives (benign records): {fps}/{benign} = {fps / benign:.3%}")
    print("\nper kind and language (removed/total):")
    for kind, lang in sorted(secrets_total):
        n = secrets_total[(kind, lang)]
        print(f"  {kind:18} {lang}  {n - secrets_kept[(kind, lang)]:3}/{n:3}")
    for lang in sorted(benign_total):
        print(f"  benign FP          {lang}  {benign_fp[lang]:3}/{benign_total[lang]:3}")
    for record, secret, stored in misses[:show]:
        print(f"\nMISS {record['id']} {secret!r}\n  stored: {stored}")
    for record, stored in false_positives[:show]:
        print(f"\nFALSE POSITIVE {record['id']} keep={record['keep']}\n  stored: {stored}")
    return {
        "recall": (total - kept) / total,
        "fp_rate": fps / benign,
        "misses": [(r["id"], s) for r, s, _ in misses],
        "false_positives": [r["id"] for r, _ in false_positives],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=0, help="print up to N misses per side")
    parser.add_argument("--json", help="write the figures and the misses to this file")
    parser.add_argument(
        "--part",
        choices=("all", "dev", "test"),
        default="all",
        help="dev: the half whose misses were read while changing the rules; test: the other",
    )
    args = parser.parse_args(argv)
    _setup_django()
    logging.disable(logging.INFO)
    result = evaluate(show=args.show, part=args.part)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
