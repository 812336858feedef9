"""The context builder: what one model call is sent, within the token budget.

First version (foundation): system rules, pinned conventions and the newest turns that fit.
"""

from dataclasses import dataclass, field

from django.conf import settings

from chatwidget.models import Site
from memory.models import ContextTrace, Conversation, Turn, TurnRole
from memory.tokens import count_tokens

ROLE_TO_CHAT = {
    TurnRole.VISITOR: "user",
    TurnRole.ASSISTANT: "assistant",
    TurnRole.STAFF: "assistant",
    TurnRole.SYSTEM: "system",
}


@dataclass
class BuiltContext:
    messages: list[dict]
    trace: ContextTrace
    model: str
    sections: dict[str, int] = field(default_factory=dict)


def site_model(site: Site) -> str:
    return site.model_name or settings.CHAT_MODEL


def context_build(*, conversation_id: int, request_seq: int) -> BuiltContext:
    conv = Conversation.objects.select_related("site").get(pk=conversation_id)
    site = conv.site
    model = site_model(site)
    system_text = site.system_rules
    pinned_text = site.pinned_conventions
    t_system = count_tokens(system_text, model=model) if system_text else 0
    t_pinned = count_tokens(pinned_text, model=model) if pinned_text else 0
    available = site.context_budget - site.answer_reserve - t_system - t_pinned

    window = list(
        Turn.objects.filter(conversation=conv, seq__lte=request_seq)
        .order_by("-seq")
        .only("seq", "role", "text", "token_count")[: site.verbatim_window_turns * 2]
    )
    chosen: list[Turn] = []
    used = 0
    for turn in window:
        if used + turn.token_count > available and chosen:
            break
        chosen.append(turn)
        used += turn.token_count
    chosen.reverse()
    messages = []
    if system_text:
        messages.append({"role": "system", "content": system_text})
    if pinned_text:
        messages.append({"role": "system", "content": pinned_text})
    for turn in chosen:
        messages.append({"role": ROLE_TO_CHAT[turn.role], "content": turn.text})
    request_tokens = chosen[-1].token_count if chosen else 0
    sections = {
        "system": t_system,
        "pinned": t_pinned,
        "core": 0,
        "verbatim": used - request_tokens,
        "request": request_tokens,
    }
    trace = ContextTrace.objects.create(
        conversation=conv,
        request_seq=request_seq,
        mode="demo" if settings.DEMO_MODE else "model",
        model_name=model,
        budget=site.context_budget,
        reserve=site.answer_reserve,
        sections=sections,
        total_tokens=sum(sections.values()),
        verbatim_seqs=[t.seq for t in chosen],
    )
    return BuiltContext(messages=messages, trace=trace, model=model, sections=sections)
