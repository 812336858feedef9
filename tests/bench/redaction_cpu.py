"""CPU of the redaction a visitor's message goes through on the database thread (`redact`,
then `leaves_open` on what is stored), per message, in English and in German (umlauts: the
path for text that is not ASCII), best of five batches of 1,000 on one thread
(`time.thread_time`). With `--baseline DIR` the same in another checkout, alternating.

    python -m tests.bench.redaction_cpu [--baseline /tmp/base] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tests.bench.harness import child_json

ROOT = Path(__file__).resolve().parents[2]
TEXTS = {
    "en": "Is the kurta KU-2291-M in size L? I would like it in blue please (5)",
    "de": "Gibt es die Kurta KU-2291-M in Größe L? Ich hätte sie gern in Blau, für München (5)",
}
BATCH, BATCHES = 1000, 5


def measure() -> dict[str, float]:
    """µs per message in this process's checkout."""
    # imported here: the parent only starts the children, each in its own checkout
    from memory.redaction import redact
    from memory.redaction.sequence import leaves_open

    out = {}
    for language, text in TEXTS.items():
        for _ in range(200):  # warm-up
            leaves_open(redact(text).text, removed={})
        batches = []
        for _ in range(BATCHES):
            start = time.thread_time()
            for _ in range(BATCH):
                leaves_open(redact(text).text, removed={})
            batches.append(time.thread_time() - start)
        out[language] = 1e6 * min(batches) / BATCH
    return out


def _run(checkout: Path) -> dict[str, float]:
    return child_json(
        checkout,
        "tests.bench.redaction_cpu",
        ["--child"],
        env={"PATH": "/usr/bin:/bin"},
        timeout=300,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure()))
        return
    checkouts = {"product": ROOT, **({"baseline": args.baseline} if args.baseline else {})}
    rows: dict[str, list[dict]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):
        for name, checkout in checkouts.items():
            rows[name].append(_run(checkout))
    print("redaction CPU per message (µs; best batch, each round)")
    for name, runs in rows.items():
        for language in TEXTS:
            print(f"{name:9s} {language}  " + "  ".join(f"{r[language]:6.1f}" for r in runs))


if __name__ == "__main__":
    main()
