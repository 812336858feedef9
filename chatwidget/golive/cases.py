"""The seven cases (conversation-memory article, "Testing the memory", with handover in
place of the deletion case, which the retention purge covers on its own schedule).

Each case talks to the site as a visitor would, then checks in two layers:
- what the pipeline guarantees, deterministically (`probe.check`): a failed check fails the
  case;
- what the model did with it, graded by the rubric (`probe.grade`): advisory.
Texts are in English; the site's own rules, conventions and model answer them.
"""

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chatwidget.golive import observe
from chatwidget.golive.probe import Probe, slice_around
from chatwidget.golive.rubric import Grade

FILLER = [
    "Is the fabric breathable?",
    "Can I wash it at 40 degrees?",
    "Do you ship to Austria?",
    "How long does delivery take?",
    "Can I pay by invoice?",
    "Is there a gift wrap option?",
    "What is your return period?",
    "Is the packaging plastic free?",
    "Can I change the delivery address later?",
    "Do you offer express shipping?",
    "Are the colours true to the photos?",
    "Do you restock sold out items?",
    "Is there a loyalty programme?",
    "Do you ship on Saturdays?",
    "Can I track the parcel?",
    "Does it shrink when washed?",
    "Can I order by phone?",
    "Is the stitching done by hand?",
]
LIST = (
    "I have three linen shirts of yours in mind: 1. LS-1001, light blue; 2. LS-1002, navy; "
    "3. LS-1003, sky blue. Are they all in stock?"
)
CARD = "4111 1111 1111 1111"
PASSWORD = "Blue-Kettle-739"


async def _fill(p: Probe, v, *, turns_so_far: int, keep_seq: int) -> None:
    for i in range(p.filler_count(turns_so_far=turns_so_far, keep_seq=keep_seq)):
        await p.say(v, FILLER[i % len(FILLER)])


async def _condensed(p: Probe, conv_id: int, *, through: int) -> dict:
    """Condensation runs now (no worker needed); checks it covers turn `through`."""
    core, problem = await p.read(observe.core_condense_now, conversation_id=conv_id)
    covered = core.covers_through_seq if core else 0
    p.check(
        _("condensation ran and the core covers turn %(turn)s") % {"turn": through},
        covered >= through,
        problem
        or _("core version %(v)s covers turns 1-%(n)s")
        % {"v": core.version if core else 0, "n": covered},
    )
    data = core.data if core else {}
    p.evidence(core=json.dumps(data, ensure_ascii=False, indent=1)[:2000])
    return data


async def back_reference(p: Probe) -> None:
    v, _welcome = await p.visitor()
    await p.say(v, "Hello! I am looking for a summer shirt.")
    await p.say(v, LIST)
    await p.say(v, "Are they all 100% linen?")
    await p.say(v, "Do they need ironing?")
    ex = await p.say(v, "Then I'll take the second one from the list.")
    conv = await p.conversation_of(v)
    request, trace = await p.request_of(conv, ex.seq)
    p.check(_("the model was called for the fifth message"), trace is not None)
    p.check(
        _("the back-referenced list is in the request (LS-1001, LS-1002, LS-1003)"),
        all(i in request for i in ("LS-1001", "LS-1002", "LS-1003")),
        f"{len(trace.verbatim_seqs) if trace else 0} turns verbatim, core version "
        f"{trace.core_version if trace else 0}",
    )
    p.evidence(request=slice_around(request, ["LS-1001"]), answer=ex.answer or "")
    await p.grade(
        ex=ex,
        context=[LIST, ex.text],
        criterion=(
            "The visitor means the second item of the list they gave: LS-1002, the navy linen "
            "shirt. Pass if the answer takes LS-1002 (or the navy shirt) as the chosen item "
            "without asking which one is meant; fail if it asks back or picks another item."
        ),
    )
    await v.close()


async def page_change(p: Probe) -> None:
    v, _welcome = await p.visitor()
    first = await p.say(v, "I need the linen shirt LS-1002 in navy, size M.")
    await p.say(v, "Does it come with a gift box?")
    session = v.session
    await v.close()  # the visitor opens another page of the shop
    conv = await p.conversation_of(v)
    stored = await p.read(observe.turns_of, conversation_id=conv)
    seen = first.answer_seq or 0
    v2, welcome = await p.visitor(session=session, last_seq=seen)
    p.check(
        _("the new page resumes the conversation"),
        welcome.get("resumed") is True and welcome.get("state") == "bot",
        f"resumed={welcome.get('resumed')}, state={welcome.get('state')}",
    )
    expected = [(t.seq, t.text) for t in stored if t.seq > seen]
    got = [(t["seq"], t["text"]) for t in welcome.get("turns", [])]
    p.check(
        _("the window shows the transcript after what the page had shown"),
        got == expected,
        f"turns {[s for s, _t in got]}, stored {[s for s, _t in expected]}",
    )
    full = await v2.hello(session=session)
    p.check(
        _("a fresh window shows the whole transcript so far"),
        [t["seq"] for t in full.get("turns", [])] == [t.seq for t in stored],
    )
    ex = await p.say(v2, "Does it come in XL too?")
    request, trace = await p.request_of(conv, ex.seq)
    p.check(
        _("the next call after the page change still has the context (LS-1002)"),
        trace is not None and "LS-1002" in request,
    )
    p.evidence(
        request=slice_around(request, ["LS-1002"]),
        answer=ex.answer or "",
        transcript="\n".join(f"{t['seq']} {t['role']}: {t['text']}" for t in full.get("turns", []))[
            :2000
        ],
    )
    await p.grade(
        ex=ex,
        context=[first.text, ex.text],
        criterion=(
            "After changing pages the visitor asks whether the shirt they named (LS-1002, navy "
            "linen shirt) comes in XL. Pass if the answer is about that shirt in XL without "
            "asking which product is meant; fail if it has lost the context."
        ),
    )
    await v2.close()


async def condensation_threshold(p: Probe) -> None:
    v, _welcome = await p.visitor()
    first = await p.say(
        v, "Hello, I need the cotton kurta KU-2291-M in mint, size L, delivered by 05.10.2026."
    )
    await _fill(p, v, turns_so_far=2, keep_seq=1)
    conv = await p.conversation_of(v)
    core = await _condensed(p, conv, through=1)
    p.check(
        _("the first turn's identifier is in the core (KU-2291-M)"), "KU-2291-M" in json.dumps(core)
    )
    ex = await p.say(v, "Remind me: which article and which size did I ask for at the start?")
    request, trace = await p.request_of(conv, ex.seq)
    p.check(
        _("the first turn went as the core, not verbatim"),
        trace is not None and 1 not in trace.verbatim_seqs and trace.core_covers_through >= 1,
    )
    p.check(
        _("the identifier reached the model (KU-2291-M in the request)"), "KU-2291-M" in request
    )
    if trace is not None:
        p.check(
            _("the request stayed within the budget"),
            trace.total_tokens <= trace.budget - trace.reserve,
            _("%(used)s of %(room)s tokens")
            % {"used": trace.total_tokens, "room": trace.budget - trace.reserve},
        )
        p.check(
            _("nothing was left out uncovered"),
            not [i for i in trace.left_out if i.get("reason") == "not_covered"],
        )
    p.evidence(request=slice_around(request, ["KU-2291-M"]), answer=ex.answer or "")
    await p.grade(
        ex=ex,
        context=[first.text, "(… more turns …)", ex.text],
        criterion=(
            "The visitor asked at the start for the cotton kurta KU-2291-M in mint, size L. Pass "
            "if the answer names that article (KU-2291-M or the mint cotton kurta) and size L; "
            "fail if it names something else or cannot say."
        ),
    )
    await v.close()


async def contradiction(p: Probe) -> None:
    v, _welcome = await p.visitor()
    first = await p.say(v, "I need a desk lamp DL-400-W for the small flat.")
    fix = await p.say(v, "Actually it is for the office, not for the small flat.")
    await _fill(p, v, turns_so_far=4, keep_seq=fix.seq or 3)
    conv = await p.conversation_of(v)
    core = await _condensed(p, conv, through=fix.seq or 3)
    corrections = core.get("corrections") or []
    p.check(
        _("the correction is recorded as a correction"),
        any("office" in str(c.get("now", "")).lower() for c in corrections),
        json.dumps(corrections, ensure_ascii=False),
    )
    p.check(
        _("the current request does not hold the old state"),
        "small flat" not in str(core.get("request", "")).lower(),
        str(core.get("request", "")),
    )
    ex = await p.say(v, "So is the lamp bright enough for it?")
    request, trace = await p.request_of(conv, ex.seq)
    p.check(_("the correction reached the model"), trace is not None and "office" in request)
    p.evidence(request=slice_around(request, ["Corrections", "office"]), answer=ex.answer or "")
    await p.grade(
        ex=ex,
        context=[first.text, fix.text, "(… more turns …)", ex.text],
        criterion=(
            "The visitor corrected where the lamp is for: the office, no longer the small flat. "
            "Pass if the answer uses the new state (the office) and names the correction; fail "
            "if it answers for the small flat or ignores the change."
        ),
    )
    await v.close()


async def change_of_subject(p: Probe) -> None:
    v, _welcome = await p.visitor()
    first = await p.say(v, "I want to return order 55-1031.")
    second = await p.say(
        v, "Great, that's settled. New question: do you have the kurta KU-2291-M in size L?"
    )
    await _fill(p, v, turns_so_far=4, keep_seq=second.seq or 3)
    conv = await p.conversation_of(v)
    core = await _condensed(p, conv, through=second.seq or 3)
    # Settled by the shop's word, or closed by the visitor: then memory keeps it as the
    # visitor's claim (their word, not the shop's), still out of the current request.
    closed = [s for s in core.get("settled") or [] if "55-1031" in str(s)] + [
        c for c in core.get("claims") or [] if "55-1031" in str(c)
    ]
    p.check(
        _("the settled request is marked settled (55-1031)"),
        bool(closed),
        json.dumps(closed or core.get("settled") or [], ensure_ascii=False),
    )
    p.check(
        _("the current request is the new one, without the settled order"),
        "55-1031" not in str(core.get("request", "")),
        str(core.get("request", "")),
    )
    ex = await p.say(v, "And how long would it take to arrive?")
    request, _trace = await p.request_of(conv, ex.seq)
    p.evidence(request=slice_around(request, ["Request", "Settled"]), answer=ex.answer or "")
    await p.grade(
        ex=ex,
        context=[first.text, second.text, "(… more turns …)", ex.text],
        criterion=(
            "The return of order 55-1031 is settled; the current request is the kurta KU-2291-M "
            "in size L. Pass if the answer is about the delivery of the kurta and does not bring "
            "the return of order 55-1031 back into it; fail otherwise."
        ),
    )
    await v.close()


async def forgetting(p: Probe) -> None:
    v, _welcome = await p.visitor()
    ex = await p.say(v, f"My card number is {CARD} and my password is {PASSWORD}.")
    conv = await p.conversation_of(v)
    stored = await p.read(observe.turns_of, conversation_id=conv)
    values = [CARD, CARD.replace(" ", ""), PASSWORD]
    leaks = await p.read(observe.leak_scan, values=values)
    p.check(
        _("the card number and the password are absent from every table"),
        not leaks,
        ", ".join(leaks) or _("every table of chatwidget, memory and handover scanned"),
    )
    requests = []
    for trace in await p.read(observe.traces_of, conversation_id=conv):
        requests.append(await p.read(observe.request_rebuild, trace=trace, site=p.site))
    p.check(
        _("the card number and the password are absent from every request"),
        bool(requests) and not any(val in r for r in requests for val in values),
        _("%(n)s request(s) checked") % {"n": len(requests)},
    )
    p.check(_("the visitor was told what was removed"), any(t.role == "system" for t in stored))
    visitor_turn = next((t.text for t in stored if t.seq == ex.seq), "")
    p.evidence(stored=visitor_turn, answer=ex.answer or "")
    await p.grade(
        ex=ex,
        context=["My card number is [removed] and my password is [removed]."],
        criterion=(
            "The visitor typed a card number and a password; the shop removed both before the "
            "assistant saw them. Pass if the answer does not ask the visitor to type the card "
            "number or the password into the chat (again); fail if it asks for them."
        ),
    )
    await v.close()


async def handover(p: Probe) -> None:
    v, _welcome = await p.visitor()
    ask = await p.say(v, "I would like to talk to a person from your team, please.")
    by_model = "waiting" in ask.states or "human" in ask.states
    state = "waiting" if by_model else await v.handover("go-live check")
    conv = await p.conversation_of(v)
    p.check(
        _("the conversation is handed over"),
        state in ("waiting", "human"),
        _("the model requested it")
        if by_model
        else _("the visitor asked: state %(state)s") % {"state": state},
    )
    traces = len(await p.read(observe.traces_of, conversation_id=conv))
    after = await p.say(v, "Hello? Is anyone there?", expect_answer=False)
    traces_after = await p.read(observe.traces_of, conversation_id=conv)
    p.check(
        _("after the handover the model is not called"),
        after.error is None
        and after.seq is not None
        and after.deltas == 0
        and after.answer is None
        and len(traces_after) == traces,
        _("%(calls)s model call(s), %(parts)s streamed part(s)")
        % {"calls": len(traces_after) - traces, "parts": after.deltas},
    )
    p.evidence(answer=ask.answer or "")
    p.result.grade = Grade(
        "pass" if by_model else "fail",
        evidence=(ask.answer or "")[:300],
        criterion=_("Asked for a person, the model hands over itself (request_handover tool)."),
        reason=_("The model called the handover tool.")
        if by_model
        else _("The model did not call the handover tool; the visitor's button did it."),
    )
    await v.close()


@dataclass(frozen=True)
class Case:
    key: str
    title: object  # lazy translation
    run: Callable[[Probe], Awaitable[None]]


CASES = [
    Case("back_reference", gettext_lazy("Back-reference"), back_reference),
    Case("page_change", gettext_lazy("Page change"), page_change),
    Case("condensation_threshold", gettext_lazy("Condensation threshold"), condensation_threshold),
    Case("contradiction", gettext_lazy("Contradiction"), contradiction),
    Case("change_of_subject", gettext_lazy("Change of subject"), change_of_subject),
    Case("forgetting", gettext_lazy("Forgetting"), forgetting),
    Case("handover", gettext_lazy("Handover"), handover),
]
