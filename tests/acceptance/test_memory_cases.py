"""The memory test cases before go-live (conversation-memory article, "Testing the memory"),
driven through the websocket against a fake OpenAI-compatible model, with condensation
really running. Each case checks what the MODEL RECEIVED, and what is stored.

Forgetting (card number and password) and deletion are covered in tests/memory
(test_forgetting_e2e.py, test_retention.py)."""

import json

import pytest
from channels.db import database_sync_to_async

from chatwidget.assistant.sections import tools_tokens
from memory.models import ContextTrace, Core
from memory.tokens import count_tokens
from tests.acceptance.conftest import FILLER, conversation_of, exchange, sent, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def latest_core(conv_id):
    return Core.objects.filter(conversation_id=conv_id).order_by("-version").first()


alatest_core = database_sync_to_async(latest_core)


def core_line(request: dict, prefix: str) -> str:
    core = next(
        m["content"]
        for m in request["messages"]
        if m["content"].startswith("Current state of this conversation")
    )
    return next((line for line in core.splitlines() if line.startswith(prefix)), "")


async def test_back_reference_turn_five_names_the_item_from_the_list_in_turn_two(
    shop, connect, model, fake_llm, condensation
):
    c = await connect(shop.key)
    await c.hello()
    await exchange(c, "Hello! I am looking for a summer shirt.", "m1")
    model.answers.append(
        "We have three linen shirts: 1. Linen shirt LS-1001, light blue. "
        "2. Linen shirt LS-1002, navy. 3. Linen overshirt LS-1003, sky blue."
    )
    await exchange(c, "Which linen shirts do you have in blue?", "m2")
    await exchange(c, "Are they all 100% linen?", "m3")
    await exchange(c, "Do they need ironing?", "m4")
    await c.say("Then I'll take the second one from your list.", "m5")
    final, _ = await c.answer()
    assert final["text"] == "You mean LS-1002.", "it names the item instead of asking back"
    assert "LS-1001" in text_of(sent(fake_llm)[-1]) and "LS-1003" in text_of(sent(fake_llm)[-1])


async def test_back_reference_still_works_once_the_list_is_condensed(
    shop, connect, model, fake_llm, condensation
):
    c = await connect(shop.key)
    await c.hello()
    model.answers.append(
        "We have three linen shirts: 1. Linen shirt LS-1001, light blue. "
        "2. Linen shirt LS-1002, navy. 3. Linen overshirt LS-1003, sky blue."
    )
    ack = await exchange(c, "Which linen shirts do you have in blue?", "m1")
    for i, question in enumerate(FILLER[:6]):
        await exchange(c, question, f"f{i}")
    await c.say("Then I'll take the second one from your list.", "last")
    final, _ = await c.answer()
    conv = await conversation_of(ack)
    core = await alatest_core(conv.pk)
    assert core.covers_through_seq >= 2, "the list has left the verbatim window"
    request = sent(fake_llm)[-1]
    assert "LS-1002" in core_line(request, "Objects:")
    assert final["text"] == "You mean LS-1002."


async def test_page_change_keeps_the_transcript_and_the_context(
    shop, connect, model, fake_llm, condensation
):
    c = await connect(shop.key)
    await c.hello()
    ack = await exchange(c, "I need the linen shirt LS-1002 in navy, size M.", "m1")
    for i, question in enumerate(FILLER[:5]):
        await exchange(c, question, f"f{i}")
    await c.close()  # the visitor clicks to another page of the shop

    c2 = await connect(shop.key)
    welcome = await c2.hello(session=ack["session"], last_seq=4)
    assert welcome["resumed"] is True and welcome["state"] == "bot"
    assert [t["seq"] for t in welcome["turns"]] == list(range(5, 13)), (
        "the window shows the transcript after what it already had"
    )
    full = await c2.hello(session=ack["session"])
    assert full["turns"][0]["text"] == "I need the linen shirt LS-1002 in navy, size M."

    await exchange(c2, "Does it come in XL too?", "m-after")
    request = sent(fake_llm)[-1]
    assert "LS-1002" in text_of(request), "the next call still has the context"
    assert request["messages"][-1]["content"] == "Does it come in XL too?"


async def test_condensation_threshold_a_detail_from_turn_one_after_forty_turns(
    shop, connect, model, fake_llm, condensation
):
    # the tools (request_handover, offer_choices) take their share of the budget too
    shop.context_budget, shop.answer_reserve = 1100, 200
    await database_sync_to_async(shop.save)()
    c = await connect(shop.key)
    await c.hello()
    ack = await exchange(
        c,
        "Hello, I need the cotton kurta KU-2291-M in mint, size L, delivered by 05.10.2026.",
        "m1",
    )
    for i, question in enumerate(FILLER[:19]):
        await exchange(c, question, f"f{i}")  # 40 turns in all
    await c.say("Remind me: which article and which size did I ask for at the start?", "last")
    await c.answer()

    request = sent(fake_llm)[-1]
    received = text_of(request)
    assert "KU-2291-M" in received and "05.10.2026" in received
    assert "size: L" in core_line(request, "Constraints:")
    prompt = sum(count_tokens(m["content"]) for m in request["messages"]) + tools_tokens(
        request["model"]
    )
    assert prompt <= shop.context_budget - shop.answer_reserve, "within the budget"
    everything = sum(count_tokens(m["content"]) for m in request["messages"][:2])
    conv = await conversation_of(ack)
    all_turns = await database_sync_to_async(
        lambda: sum(conv.turns.values_list("token_count", flat=True))
    )()
    assert everything + all_turns > shop.context_budget, "sending everything would not fit"
    trace = await database_sync_to_async(
        lambda: ContextTrace.objects.filter(conversation=conv).latest("id")
    )()
    assert 1 not in trace.verbatim_seqs and trace.core_covers_through >= 1
    assert not trace.inline_condensed, "condensation kept up; it did not wait for the call"


async def test_contradiction_the_new_state_is_used_and_the_correction_named(
    shop, connect, model, fake_llm, condensation
):
    c = await connect(shop.key)
    await c.hello()
    ack = await exchange(c, "I need a desk lamp DL-400-W for the small flat.", "m1")
    await exchange(c, "Actually it is for the office, not for the small flat.", "m2")
    for i, question in enumerate(FILLER[:5]):
        await exchange(c, question, f"f{i}")
    await exchange(c, "So is the lamp bright enough for it?", "last")

    conv = await conversation_of(ack)
    core = await alatest_core(conv.pk)
    assert core.covers_through_seq >= 3, "the correction has been condensed"
    assert {"was": "for the small flat", "now": "for the office", "turn": 3} in core.data[
        "corrections"
    ]
    assert "office" in core.data["request"] and "small flat" not in core.data["request"]
    request = sent(fake_llm)[-1]
    assert core_line(request, "Corrections:").startswith(  # then who said it (issue 13)
        "Corrections: was 'for the small flat', now 'for the office' (turn 3) [visitor"
    )
    assert "small flat" not in text_of(request).replace(core_line(request, "Corrections:"), ""), (
        "the old state appears only as the named correction"
    )


async def test_change_of_subject_the_settled_request_does_not_leak(
    shop, connect, model, fake_llm, condensation
):
    c = await connect(shop.key)
    await c.hello()
    model.answers.append("The return label for order 55-1031 has been sent by e-mail.")
    ack = await exchange(c, "I want to return order 55-1031.", "m1")
    await exchange(
        c, "Great, that's settled. New question: do you have the kurta KU-2291-M in size L?", "m2"
    )
    for i, question in enumerate(FILLER[:5]):
        await exchange(c, question, f"f{i}")
    await exchange(c, "And how long would it take to arrive?", "last")

    conv = await conversation_of(ack)
    core = await alatest_core(conv.pk)
    assert "55-1031" not in core.data["request"] and "KU-2291-M" in core.data["request"]
    assert any("55-1031" in item for item in core.data["settled"])
    request = sent(fake_llm)[-1]
    assert "55-1031" not in core_line(request, "Request:")
    assert "KU-2291-M" in core_line(request, "Request:")
    assert "55-1031" in core_line(request, "Settled:")


async def test_a_model_that_drops_an_identifier_does_not_lose_it(
    shop, connect, model, fake_llm, condensation
):
    def drop(core):
        core["objects"] = [o for o in core["objects"] if o["id"] != "KU-2291-M"]
        core["request"] = "a kurta"
        core["constraints"] = []
        return core

    model.mutate = drop
    c = await connect(shop.key)
    await c.hello()
    ack = await exchange(c, "I need the cotton kurta KU-2291-M in size L.", "m1")
    for i, question in enumerate(FILLER[:6]):
        await exchange(c, question, f"f{i}")
    await exchange(c, "Which one was it again?", "last")

    conv = await conversation_of(ack)
    core = await alatest_core(conv.pk)
    assert core.source == Core.Source.MODEL and core.repairs.get("restored", 0) >= 1
    request = sent(fake_llm)[-1]
    assert "KU-2291-M" in core_line(request, "Objects:"), "it still reaches the next call"
    assert "size: L" in core_line(request, "Constraints:")


async def test_a_model_that_invents_an_identifier_never_gets_it_through(
    shop, connect, model, fake_llm, condensation
):
    def invent(core):
        core["objects"].append({"kind": "order", "id": "77-4242", "label": "earlier order"})
        core["promises"].append("refund of 49.90 EUR by 12.12.2026")
        return core

    model.mutate = invent
    c = await connect(shop.key)
    await c.hello()
    ack = await exchange(c, "I need the cotton kurta KU-2291-M in size L.", "m1")
    for i, question in enumerate(FILLER[:8]):
        await exchange(c, question, f"f{i}")

    conv = await conversation_of(ack)
    cores = await database_sync_to_async(lambda: list(Core.objects.filter(conversation=conv)))()
    assert cores and all(core.repairs.get("invented_removed", 0) >= 1 for core in cores)
    stored = json.dumps([core.data for core in cores])
    assert "77-4242" not in stored and "49.90" not in stored
    for request in sent(fake_llm):
        received = text_of(request)
        assert "77-4242" not in received and "49.90" not in received
    assert "KU-2291-M" in core_line(sent(fake_llm)[-1], "Objects:")


async def test_with_the_worker_down_condensation_runs_inline_and_nothing_is_dropped(
    shop, connect, model, fake_llm
):
    """No `condensation` fixture: enqueued tasks go to a broker nobody consumes."""
    # the tools (request_handover, offer_choices) take their share of the budget too
    shop.context_budget, shop.answer_reserve = 1100, 200
    await database_sync_to_async(shop.save)()
    c = await connect(shop.key)
    await c.hello()
    ack = await exchange(c, "Hello, I need the cotton kurta KU-2291-M in mint, size L.", "m1")
    for i, question in enumerate(FILLER[:12]):
        await exchange(c, question, f"f{i}")
    await exchange(c, "Remind me: which article did I ask for?", "last")

    conv = await conversation_of(ack)
    traces = await database_sync_to_async(
        lambda: list(ContextTrace.objects.filter(conversation=conv).order_by("id"))
    )()
    assert any(t.inline_condensed for t in traces)
    core = await alatest_core(conv.pk)
    assert core.source == Core.Source.INLINE
    condense_calls = [r for r in fake_llm.requests if not r.get("stream")]
    assert condense_calls, "the model condensed, before the answer call"
    request = sent(fake_llm)[-1]
    assert "KU-2291-M" in core_line(request, "Objects:")
    prompt = sum(count_tokens(m["content"]) for m in request["messages"]) + tools_tokens(
        request["model"]
    )
    assert prompt <= shop.context_budget - shop.answer_reserve
    for trace in traces:
        assert not [i for i in trace.left_out if i["reason"] == "not_covered"]
