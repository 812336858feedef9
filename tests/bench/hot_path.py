"""The database thread's CPU per visitor message, counted in one thread (time.thread_time,
so other processes on a busy machine do not count): the visitor's turn with its answer
prepared (`visitor_turn_receive`) and the answer stored (`_finish`), the two hops every
message makes, on PostgreSQL and Redis as deployed. With `--baseline DIR` the same runs
against another checkout (e.g. `git worktree add /tmp/base <commit>`), alternating, and
both are printed side by side.

    python -m tests.bench.hot_path [--baseline /tmp/base] [--rounds 3] [--language de]

`--language de` sends a German message (umlauts: the redaction's path for text that is not
ASCII) instead of the English one.

Env: BENCH_PG_URL's server, database `bench_chatwidget` (made by `tests.bench.run`; a site
is created when it has none), Redis db 7 (BENCH_REDIS_URL).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import uuid
from pathlib import Path

from tests.bench.harness import child_json

ROOT = Path(__file__).resolve().parents[2]
TEXTS = {
    "en": "Is the kurta KU-2291-M in size L? I would like it in blue please",
    "de": "Gibt es die Kurta KU-2291-M in Größe L? Ich hätte sie gern in Blau, für München",
}
ANSWER = (
    "The Kurta KU-2291-M comes in sizes S to XL; size L measures 104 cm at the chest. It is "
    "made of cotton and can be washed at 30 degrees. Delivery to Germany takes 2-4 working "
    "days, and returns are free within 30 days. Would you like me to check the blue one?"
)


def _env() -> dict:
    pg = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    return {
        "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
        "DEBUG": "0",
        "DATABASE_URL": pg.rsplit("/", 1)[0] + "/bench_chatwidget",
        "CONN_MAX_AGE": "60",
        "OPENAI_API_KEY": "bench",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",  # never called: no model request here
        "RATE_LIMIT_PER_SESSION": "1000000/60",
        "RATE_LIMIT_PER_ADDRESS": "1000000/60",
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7"),
        "TIKTOKEN_CACHE_DIR": os.environ.get(
            "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
        ),
    }


def measure(conversations: int, messages: int, language: str = "en") -> dict:
    """In this process (the checkout on sys.path): CPU ms per message of each hop."""
    os.environ.update(_env())
    import django

    django.setup()
    import chatwidget.platform.events as events
    from chatwidget.assistant.answers import _finish
    from chatwidget.assistant.turns import visitor_turn_receive
    from chatwidget.sites.models import Site

    # the server hands events to its loop (call_soon_threadsafe); here there is none
    events._send = lambda group, event: None
    site = Site.objects.first()
    if site is None:
        from chatwidget.sites.services import site_create

        site = site_create(name="Bench shop", origins=["http://bench.local"])

    def message(conversation_id: int | None, n: int):
        return visitor_turn_receive(
            site_id=site.id,
            address="10.9.9.9",
            session_key=str(conversation_id or uuid.uuid4().hex),
            token=None,
            client_id=f"c{n}",
            text=f"{TEXTS[language]} ({n})",
            language=language,
            profile_id=None,
            conversation_id=conversation_id,
            prepare_answer=True,
            on_prepared=lambda *args: None,
        )

    def finish(turn) -> None:
        p = turn.prepared
        _finish(turn.conversation_id, turn.seq, p.seq, ANSWER, p.owner, built=p.built)

    receive, store = [], []
    for _ in range(conversations):
        first = message(None, 0)  # the conversation's start: warm-up, not counted
        finish(first)
        for n in range(1, messages):
            a = time.thread_time()
            turn = message(first.conversation_id, n)
            b = time.thread_time()
            finish(turn)
            receive.append(b - a)
            store.append(time.thread_time() - b)
    return {
        "messages": len(receive),
        "receive_ms": 1000 * statistics.fmean(receive),
        "store_ms": 1000 * statistics.fmean(store),
        "total_ms": 1000 * (statistics.fmean(receive) + statistics.fmean(store)),
    }


def _run(checkout: Path, conversations: int, messages: int, language: str) -> dict:
    args = ["--child", str(conversations), str(messages)]
    if language != "en":
        args += ["--language", language]
    # this checkout's encodings, not the other's
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": _env()["TIKTOKEN_CACHE_DIR"]}
    return child_json(checkout, "tests.bench.hot_path", args, env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--conversations", type=int, default=30)
    parser.add_argument(
        "--messages", type=int, default=6, help="per conversation, the first not counted"
    )
    parser.add_argument("--language", choices=sorted(TEXTS), default="en")
    parser.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(*args.child, language=args.language)))
        return
    checkouts = {"product": ROOT, **({"baseline": args.baseline} if args.baseline else {})}
    rows: dict[str, list[dict]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):  # alternating, so a change in the machine's load hits both
        for name, checkout in checkouts.items():
            rows[name].append(_run(checkout, args.conversations, args.messages, args.language))
    print(f"database thread CPU per message (ms; median of rounds; language {args.language})")
    print(f"{'':10s} {'turn hop':>9s} {'store hop':>10s} {'total':>7s}")
    for name, runs in rows.items():
        med = {
            k: statistics.median(r[k] for r in runs) for k in ("receive_ms", "store_ms", "total_ms")
        }
        print(f"{name:10s} {med['receive_ms']:9.2f} {med['store_ms']:10.2f} {med['total_ms']:7.2f}")


if __name__ == "__main__":
    main()
