"""The context builder: what one model call is sent, within the token budget.

    T_system + T_pinned + T_profile + T_tools + T_core + Σ T_verbatim + T_request + R_answer ≤ B

- System rules and pinned conventions ride in every call.
- The condensed core, rendered compactly and marked as the current state (counted once,
  when it was stored).
- Verbatim turns, newest first: at least the last `Site.verbatim_min_exchanges` exchanges,
  then every turn the core does not cover yet, as far as the budget allows.
- Every turn older than the verbatim turns is covered by the core. When condensation lags
  and the uncovered turns do not fit, an inline condensation runs before the call
  (`core_refresh_inline`). Nothing is dropped silently: what is left out is named in the
  trace with a reason.

Cost is the same at turn 10 and turn 10,000: at most four queries (conversation, current
core, a LIMITed slice of the newest turns, the trace insert; the answer flow passes the
conversation it locked and stores the trace with the answer), stored token counts, and no
tokenisation of history. Only the owner's texts (cached per text) and, rarely, an
over-long request are tokenised here.
"""

import functools
import json
import logging
from dataclasses import dataclass, field

from django.conf import settings

from chatwidget.assistant.tools import HANDOVER_TOOL
from chatwidget.platform.db import relaxed_durability
from chatwidget.shop.actions.tools import site_actions
from chatwidget.shop.knowledge.window import (
    KnowledgeSection,
    knowledge_cap,
    knowledge_demo_lines,
    knowledge_select,
)
from chatwidget.shop.models.knowledge import KnowledgeTrace
from chatwidget.sites.models import Site
from memory.condense.service import core_refresh_inline
from memory.core import core_render, core_render_within
from memory.models import ContextTrace, Conversation, Core, Turn
from memory.profiles import profile_background
from memory.tokens import count_tokens, encoding_name_for, get_encoding
from memory.window import verbatim_minimum

log = logging.getLogger(__name__)

ROLE_TO_CHAT = {
    "visitor": "user",
    "assistant": "assistant",
    "staff": "assistant",
    "system": "system",
    "tool": "system",  # a shop lookup's call and result, as data (chatwidget.shop.actions)
}

# Reasons in ContextTrace.left_out (ids and counts only, never text).
LEFT_MIN_WINDOW = "min_window_over_budget"  # newest turns that did not fit; covered by the core
LEFT_REQUEST_TRUNCATED = "request_truncated"  # count: tokens cut from the request's end
LEFT_CORE_TRIMMED = "core_items_trimmed"  # count: least current core items not sent
LEFT_NOT_COVERED = "not_covered"  # must not happen: inline condensation failed (logged)
LEFT_BUDGET_TOO_SMALL = "budget_too_small"  # system rules + pinned exceed the budget


@dataclass
class BuiltContext:
    messages: list[dict]
    trace: ContextTrace
    model: str
    sections: dict[str, int] = field(default_factory=dict)
    knowledge_lines: list[str] = field(default_factory=list)  # demo mode shows them
    knowledge_trace: dict | None = None  # saved with the trace (context_trace_save)
    tools: list[dict] = field(default_factory=list)  # the site's shop actions (openai tools)
    site_id: int = 0


def site_model(site: Site) -> str:
    return site.model_name or settings.CHAT_MODEL


@functools.lru_cache(maxsize=256)
def _owner_text_tokens(text: str, model: str) -> int:
    """Owner-set texts change rarely; counting them once per text keeps builds flat."""
    return count_tokens(text, model=model) if text else 0


@functools.lru_cache(maxsize=8)
def tools_tokens(model: str) -> int:
    """The tool definitions sent with every model call take budget too."""
    return count_tokens(json.dumps([HANDOVER_TOOL]), model=model)


def _profile_section(conversation: Conversation) -> tuple[str | None, int]:
    """The recognition profile, rendered for the model, and its token count.

    (None, 0) sends nothing. Background from earlier visits (memory.profiles), marked as
    such: no query without a profile, one with. Tokenised here: a profile is small and
    bounded."""
    if not conversation.profile_id:
        return None, 0
    text = profile_background(conversation=conversation).text
    return (text, count_tokens(text, model=site_model(conversation.site))) if text else (None, 0)


def _truncate(text: str, *, tokens: int, model: str) -> str:
    enc = get_encoding(encoding_name_for(model))
    ids = enc.encode(text, disallowed_special=())
    return enc.decode(ids[: max(tokens, 0)]) + " […]"


def _fetch_limit(site: Site) -> int:
    """How many of the newest turns one build may read: the verbatim window, the condensation
    threshold and the minimum, twice over. More uncovered turns than this means the worker
    lags far behind; they are condensed inline instead of being read here."""
    return (
        2
        * (
            site.verbatim_window_turns
            + site.condense_after_turns
            + verbatim_minimum(min_exchanges=site.verbatim_min_exchanges)
        )
        + 1
    )


def _select(
    rows: list[Turn], *, covered: int, min_turns: int, room: int
) -> tuple[list[Turn], bool]:
    """Newest first: the minimum window, then uncovered turns, while they fit in `room`.
    Returns (chosen, overflow) where overflow means a needed turn did not fit."""
    chosen: list[Turn] = []
    used = 0
    for i, turn in enumerate(rows):
        if turn.seq <= covered and i >= min_turns:
            return chosen, False
        if used + turn.token_count > room:
            return chosen, True
        chosen.append(turn)
        used += turn.token_count
    return chosen, False


def _knowledge(
    *, site: Site, model: str, message: str, core: Core | None, rows: list[Turn], room: int
) -> KnowledgeSection:
    """Shop knowledge for this call (memory/knowledge/window.py): at most the site's share
    of the budget and never what the core and the verbatim minimum need (`room`), retrieved
    with the message, the core and the recent turns."""
    return knowledge_select(
        site=site,
        model=model,
        message=message,
        core=core.data if core else None,
        recent=[(t.role, t.text) for t in rows],
        room=max(0, min(knowledge_cap(site), room)),
    )


def context_build(
    *,
    conversation_id: int,
    request_seq: int,
    trace_save: bool = True,
    conversation: Conversation | None = None,
) -> BuiltContext:
    """The messages of one model call and their trace. `trace_save=False` leaves the trace
    unsaved for the caller to store with `context_trace_save` later: the answer flow writes
    it after the answer, off the path to the model call (statements and a commit less
    before the first token). `conversation`: the row with its site, when the caller has just
    read it (the visitor's turn locked it): one query less."""
    conv = conversation or Conversation.objects.select_related("site").get(pk=conversation_id)
    site = conv.site
    model = site_model(site)
    budget, reserve = site.context_budget, site.answer_reserve
    core: Core | None = None
    if conv.core_version:  # versions start at 1: none yet, nothing to read
        core = (
            Core.objects.filter(conversation_id=conv.pk, version=conv.core_version)
            .only("version", "data", "covers_through_seq", "token_count")
            .first()
        )
    covered = core.covers_through_seq if core else 0
    min_turns = verbatim_minimum(min_exchanges=site.verbatim_min_exchanges)
    limit = _fetch_limit(site)
    lower = max(0, min(covered, request_seq - min_turns - 1))
    fetched = list(
        Turn.objects.filter(conversation_id=conv.pk, seq__gt=lower, seq__lte=request_seq)
        .order_by("-seq")
        .only("seq", "role", "text", "token_count")[: limit + 1]
    )
    unfetched = len(fetched) > limit  # more uncovered turns exist than one build reads
    fetched = fetched[:limit]
    request_turn = fetched[0] if fetched and fetched[0].seq == request_seq else None
    rows = fetched[1:] if request_turn else fetched

    left_out: list[dict] = []
    t_system = _owner_text_tokens(site.system_rules, model)
    t_pinned = _owner_text_tokens(site.pinned_conventions, model)
    profile_text, t_profile = _profile_section(conv)
    # shop actions: their descriptions always, and room kept for their results (counted
    # into the trace's `tools` when a call is made); cached, no query per build
    actions = site_actions(site_id=site.pk)
    t_tools = tools_tokens(model) + _owner_text_tokens(actions.tools_json, model)
    fixed = t_system + t_pinned + t_profile + t_tools + actions.result_room
    if fixed > budget - reserve:
        log.error(
            "context budget too small for system rules and pinned conventions",
            extra={"conversation": conv.pk, "site": site.pk, "fixed": fixed},
        )
        left_out.append({"reason": LEFT_BUDGET_TOO_SMALL, "seqs": [], "count": fixed})
    room = budget - reserve - fixed

    # the request: always sent; cut only if it alone would break the budget
    request_text = request_turn.text if request_turn else ""
    t_request = request_turn.token_count if request_turn else 0
    max_request = max(room // 2, room - (core.token_count if core else 0))
    if request_turn and t_request > max_request:
        request_text = _truncate(request_text, tokens=max_request - 12, model=model)
        cut = t_request - count_tokens(request_text, model=model)
        t_request = count_tokens(request_text, model=model)
        left_out.append({"reason": LEFT_REQUEST_TRUNCATED, "seqs": [request_seq], "count": cut})
    room -= t_request

    core_cap = max(0, min(settings.MEMORY_CORE_MAX_TOKENS, room // 3))
    t_core = core.token_count if core else 0
    knowledge = _knowledge(
        site=site,
        model=model,
        message=request_text,
        core=core,
        rows=rows,
        room=room - t_core - sum(t.token_count for t in rows[:min_turns]),
    )
    room -= knowledge.tokens
    left_out.extend(knowledge.left_out)
    chosen, overflow = _select(rows, covered=covered, min_turns=min_turns, room=room - t_core)
    uncovered_left = unfetched or any(t.seq > covered for t in rows[len(chosen) :])
    inline = False
    if uncovered_left and (overflow or unfetched):
        # Condensation lags and the uncovered turns do not fit: condense them now, leaving
        # room for a core of up to core_cap tokens.
        chosen, _ = _select(
            rows, covered=covered, min_turns=min_turns, room=room - max(t_core, core_cap)
        )
        through = (chosen[-1].seq if chosen else request_seq) - 1
        log.info("inline condensation", extra={"conversation": conv.pk, "through": through})
        try:
            core = core_refresh_inline(conversation_id=conv.pk, through_seq=through) or core
        except Exception as exc:  # noqa: BLE001 - a failed condensation must not silence the
            # bot: answer from the stored core and the verbatim turns that fit (named below)
            log.error(
                "inline condensation failed",
                extra={"conversation": conv.pk, "error": type(exc).__name__},
            )
        inline = True
        covered = core.covers_through_seq if core else 0
        t_core = core.token_count if core else 0
        missing = [t.seq for t in rows[len(chosen) :] if t.seq > covered]
        if missing or (unfetched and covered < through):
            log.error(
                "turns neither verbatim nor covered",
                extra={"conversation": conv.pk, "count": len(missing)},
            )
            left_out.append({"reason": LEFT_NOT_COVERED, "seqs": missing, "count": len(missing)})
    short = [t.seq for t in rows[len(chosen) : min_turns]]
    if short:
        left_out.append({"reason": LEFT_MIN_WINDOW, "seqs": sorted(short), "count": len(short)})

    core_text = None
    if core is not None:
        verbatim_tokens = sum(t.token_count for t in chosen)
        core_room = room - verbatim_tokens
        if t_core <= core_room:
            core_text = core_render(data=core.data, covers_through=core.covers_through_seq)
        else:
            core_text, t_core, dropped = core_render_within(
                data=core.data,
                covers_through=core.covers_through_seq,
                max_tokens=core_room,
                model=model,
            )
            left_out.append({"reason": LEFT_CORE_TRIMMED, "seqs": [], "count": dropped})

    chosen.reverse()
    messages: list[dict] = []
    if site.system_rules:
        messages.append({"role": "system", "content": site.system_rules})
    if site.pinned_conventions:
        messages.append({"role": "system", "content": site.pinned_conventions})
    if profile_text:
        messages.append({"role": "system", "content": profile_text})
    if core_text:
        # data labelled by speaker, never in the system role: a visitor's words in the core
        # must not read as the shop's instructions (memory.core.core_render)
        messages.append({"role": "user", "content": core_text})
    if knowledge.message:  # reference material, after the rules and the core
        messages.append({"role": "system", "content": knowledge.message})
    for turn in chosen:
        messages.append({"role": ROLE_TO_CHAT[turn.role], "content": turn.text})
    if request_turn:
        messages.append({"role": ROLE_TO_CHAT[request_turn.role], "content": request_text})

    sections = {
        "system": t_system,
        "pinned": t_pinned,
        "profile": t_profile,
        "tools": t_tools,
        "core": t_core if core_text else 0,
        "knowledge": knowledge.tokens,
        "verbatim": sum(t.token_count for t in chosen),
        "request": t_request,
    }
    trace = ContextTrace(
        conversation=conv,
        request_seq=request_seq,
        mode="demo" if settings.DEMO_MODE else "model",
        model_name=model,
        budget=budget,
        reserve=reserve,
        sections=sections,
        total_tokens=sum(sections.values()),
        verbatim_seqs=[t.seq for t in chosen] + ([request_seq] if request_turn else []),
        core_version=core.version if core_text else 0,
        core_covers_through=core.covers_through_seq if core_text else 0,
        left_out=left_out,
        inline_condensed=inline,
    )
    lines = (
        knowledge_demo_lines(knowledge, language=conv.language)
        if settings.DEMO_MODE and knowledge.attempted
        else []
    )
    built = BuiltContext(
        messages=messages,
        trace=trace,
        model=model,
        sections=sections,
        knowledge_lines=lines,
        knowledge_trace=(
            {"chunks": knowledge.retrieved, "tokens": knowledge.tokens, "room": knowledge.room}
            if knowledge.retrieved
            else None
        ),
        tools=actions.tools,
        site_id=site.pk,
    )
    if trace_save:
        context_trace_save(built=built)
    return built


def context_trace_save(*, built: BuiltContext) -> None:
    """Store the trace of a built context (and what knowledge retrieval added to it)."""
    with relaxed_durability():  # a trace lost in a crash costs nothing; an fsync costs ms
        built.trace.save(force_insert=True)
        if built.knowledge_trace:
            KnowledgeTrace.objects.create(trace=built.trace, **built.knowledge_trace)
