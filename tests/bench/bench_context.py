"""Context benchmark: does building a turn cost the same at turn 10 and turn 1,000?

    python -m tests.bench.bench_context [--quick]

One shop conversation grows to 1,000 turns through the real services (redaction, token
counts, condensation scheduled after each commit and run at once, as by an idle worker; the
extractive condenser, no model). Printed side by side:

- context build time at 10, 100 and 1,000 turns (median of N builds) and the 1,000/10 ratio;
- prompt tokens of the call at turn 10, 100 and 1,000 against a send-everything baseline
  (system rules + tools + every turn), and the totals over the conversation so far;
- condensation tokens per turn: what the condensation calls would have cost a model
  (input as `condense_messages_build` sends it + the core as output), divided by turns.

`main()` returns the figures as a dict (tests/bench/run.py calls it). It creates and destroys
its own test database (SQLite in memory unless TEST_DATABASE_URL says otherwise).
Not collected by pytest (tests/bench is excluded).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

POINTS = (10, 100, 1000)

PRODUCTS = [
    ("cotton kurta", "KU-2291-M"),
    ("linen shirt", "LS-1002"),
    ("desk lamp", "DL-400-W"),
    ("wool scarf", "WS-3310-G"),
    ("rain jacket", "RJ-7781-B"),
]
CITIES = ["Hamburg", "Vienna", "Zurich", "Munich", "Cologne"]
VISITOR = [
    "Do you have the {product} {sku} in size {size}?",
    "How long does delivery to {city} take?",
    "Can I pay by invoice, or only by card?",
    "What is the return period for order {order}?",
    "Is the {product} machine washable at 40 degrees?",
    "Actually I need it by {date}, not later.",
    "Does the {product} come in {colour} as well?",
    "Could you check the status of order {order} for me?",
]
ASSISTANT = [
    "Yes, the {product} {sku} is in stock in size {size}. It is made of organic cotton and "
    "ships from our warehouse in Leipzig within one working day.",
    "Delivery to {city} usually takes two to three working days. You will receive a tracking "
    "link by e-mail as soon as the parcel leaves our warehouse.",
    "You can pay by invoice, PayPal or card. Invoices are due within 14 days of delivery.",
    "You can return order {order} within 30 days. I have noted that you may want to return "
    "it; the label is available in your account.",
    "The {product} can be washed at 40 degrees on a gentle cycle. Please do not tumble dry "
    "it, so that it keeps its shape.",
    "Noted: you need it by {date}. With standard shipping it would arrive in time if you "
    "order today.",
]


def _text(rng: random.Random, templates: list[str]) -> str:
    product, sku = rng.choice(PRODUCTS)
    return rng.choice(templates).format(
        product=product,
        sku=sku,
        size=rng.choice(["S", "M", "L", "XL"]),
        city=rng.choice(CITIES),
        order=f"{rng.randint(10, 99)}-{rng.randint(1000, 9999)}",
        date=f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.2026",
        colour=rng.choice(["mint", "navy", "white", "black"]),
    )


def _median_ms(fn, repeat: int) -> float:
    for _ in range(max(3, repeat // 5)):  # warm caches and the connection first
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _run(*, repeat: int) -> dict:
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import memory.tasks  # noqa: F401 (registers the condensation task for eager runs)
    from chatwidget.assistant.context import context_build
    from chatwidget.assistant.sections import tools_tokens
    from chatwidget.celery import app as celery_app
    from chatwidget.sites.services import site_create
    from memory.core.inputs import condense_messages_build, turn_text_for_core
    from memory.models import Core, Turn
    from memory.services import conversation_start, turn_append
    from memory.tokens import count_tokens

    settings.DEMO_MODE = True  # the extractive condenser: deterministic, no model needed
    celery_app.conf.task_always_eager = True  # condensation runs right after each commit
    site = site_create(name="Bench shop", origins=["http://shop.bench"])
    conv, _ = conversation_start(site_id=site.pk)
    model = site.model_name or settings.CHAT_MODEL
    fixed = (
        count_tokens(site.system_rules, model=model) if site.system_rules else 0
    ) + tools_tokens(model)

    rng = random.Random(20261129)
    results: dict = {
        "build_ms": {},
        "build_queries": {},
        "prompt_tokens": {},
        "prompt_tokens_total": {},
        "condense_tokens_per_turn": {},
    }
    history_tokens = 0
    memory_total = baseline_total = 0
    seq = 0
    while seq < POINTS[-1] + 1:
        seq += 1
        visitor = seq % 2 == 1
        text = _text(rng, VISITOR if visitor else ASSISTANT)
        turn = turn_append(
            conversation_id=conv.pk, role="visitor" if visitor else "assistant", text=text
        ).turn
        if visitor:  # a model call for every visitor turn, as in the product
            built = context_build(conversation_id=conv.pk, request_seq=seq)
            memory_total += built.trace.total_tokens
            baseline_total += fixed + history_tokens + turn.token_count
        history_tokens += turn.token_count
        if seq - 1 in POINTS:  # `seq - 1` turns of history, this visitor turn the request
            n = seq - 1
            results["build_ms"][n] = round(
                _median_ms(
                    lambda s=seq: context_build(conversation_id=conv.pk, request_seq=s), repeat
                ),
                3,
            )
            with CaptureQueriesContext(connection) as queries:
                built = context_build(conversation_id=conv.pk, request_seq=seq)
            results["build_queries"][n] = len(queries)
            results["prompt_tokens"][n] = {
                "memory": built.trace.total_tokens,
                "send_everything": fixed + history_tokens,
                "verbatim_turns": len(built.trace.verbatim_seqs),
                "core_covers_through": built.trace.core_covers_through,
            }
            results["prompt_tokens_total"][n] = {
                "memory": memory_total,
                "send_everything": baseline_total,
            }
            results["condense_tokens_per_turn"][n] = round(
                _condense_tokens(
                    conv.pk,
                    Core,
                    Turn,
                    condense_messages_build,
                    turn_text_for_core,
                    count_tokens,
                    model,
                )
                / n,
                1,
            )
    celery_app.conf.task_always_eager = False
    results["build_ratio_1000_to_10"] = round(
        results["build_ms"][1000] / results["build_ms"][10], 2
    )
    results["budget"] = {
        "context_budget": site.context_budget,
        "answer_reserve": site.answer_reserve,
        "verbatim_window_turns": site.verbatim_window_turns,
        "condense_after_turns": site.condense_after_turns,
    }
    results["builds_per_point"] = repeat
    results["database"] = connection.vendor
    return results


def _condense_tokens(conversation_id, Core, Turn, build, for_core, count, model) -> int:
    """Tokens the condensation calls so far would have cost a model: each step's input (the
    previous core + the turns that left the window) and its output (the new core)."""
    total = 0
    previous = None
    for core in Core.objects.filter(conversation_id=conversation_id).order_by("version"):
        after = previous.covers_through_seq if previous else 0
        turns = [
            {
                "turn": t.seq,
                "role": t.role,
                "text": for_core(text=t.text, spans=t.spans, health=t.health),
            }
            for t in Turn.objects.filter(
                conversation_id=conversation_id, seq__gt=after, seq__lte=core.covers_through_seq
            ).order_by("seq")
        ]
        messages = build(previous=previous.data if previous else None, turns=turns)
        total += sum(count(m["content"], model=model) for m in messages)
        total += count(json.dumps(core.data, ensure_ascii=False), model=model)
        previous = core
    return total


def main(quick: bool = False) -> dict:
    """Run the benchmark in a fresh test database and return the figures."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        return _run(repeat=10 if quick else 50)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


def _print(figures: dict) -> None:
    print(
        "Context build and prompt size by conversation length "
        f"({figures['database']}, median of {figures['builds_per_point']} builds)\n"
    )
    head = (
        f"{'turns':>6} {'build ms':>9} {'queries':>8} {'prompt':>7} {'send-all':>9} "
        f"{'verbatim':>9} {'core→':>6} {'Σ prompt':>10} {'Σ send-all':>11} "
        f"{'condense tok/turn':>18}"
    )
    print(head)
    print("-" * len(head))
    for n in POINTS:
        p, t = figures["prompt_tokens"][n], figures["prompt_tokens_total"][n]
        print(
            f"{n:>6} {figures['build_ms'][n]:>9.3f} {figures['build_queries'][n]:>8} "
            f"{p['memory']:>7} {p['send_everything']:>9} {p['verbatim_turns']:>9} "
            f"{p['core_covers_through']:>6} {t['memory']:>10} {t['send_everything']:>11} "
            f"{figures['condense_tokens_per_turn'][n]:>18}"
        )
    print(f"\nbuild time ratio 1,000/10 turns: {figures['build_ratio_1000_to_10']}")
    print(f"budget: {figures['budget']}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 builds per point, not 50")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = main(quick=args.quick)
    print(json.dumps(figures, indent=2) if args.json else "", end="")
    if not args.json:
        _print(figures)
