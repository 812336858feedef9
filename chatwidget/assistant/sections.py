"""The sections of one model call's budget, each within what is left of it (the build is
chatwidget.assistant.context): what rides in every call (the owner's texts, the profile,
the tools), the request, shop knowledge, the verbatim turns and the condensed core. Each
section that leaves something out names it in `left_out` (ids and counts, never text).
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings

from chatwidget.assistant.tools import HANDOVER_TOOL, OFFER_CHOICES_TOOL
from chatwidget.platform.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES
from chatwidget.shop.actions.tools import SiteActions, site_actions
from chatwidget.shop.knowledge.window import KnowledgeSection, knowledge_cap, knowledge_select
from chatwidget.sites.models import Site
from memory.condense.service import core_refresh_inline
from memory.core import core_render, core_render_within
from memory.models import Conversation, Core
from memory.pages import page_render
from memory.profiles import profile_background
from memory.tokens import count_tokens, tokens_truncate
from memory.turn_sql import turns_newest
from memory.window import verbatim_minimum

log = logging.getLogger(__name__)

# Reasons in ContextTrace.left_out (ids and counts only, never text).
LEFT_MIN_WINDOW = "min_window_over_budget"  # newest turns that did not fit; covered by the core
LEFT_REQUEST_TRUNCATED = "request_truncated"  # count: tokens cut from the request's end
LEFT_CORE_TRIMMED = "core_items_trimmed"  # count: least current core items not sent
LEFT_NOT_COVERED = "not_covered"  # must not happen: inline condensation failed (logged)
LEFT_BUDGET_TOO_SMALL = "budget_too_small"  # system rules + pinned exceed the budget
LEFT_PAGE = "page_over_budget"  # the request's page line did not fit (count: its tokens)
PAGE_SHARE = 4  # the page line takes at most a quarter of what the request left


def site_model(site: Site) -> str:
    return site.model_name or settings.CHAT_MODEL


@functools.lru_cache(maxsize=256)
def _owner_text_tokens(text: str, model: str) -> int:
    """Owner-set texts change rarely; counting them once per text keeps builds flat."""
    return count_tokens(text, model=model) if text else 0


@functools.lru_cache(maxsize=8)
def tools_tokens(model: str) -> int:
    """The tool definitions sent with every model call take budget too."""
    return count_tokens(json.dumps([HANDOVER_TOOL, OFFER_CHOICES_TOOL]), model=model)


# With a verified identity (memory.customers) shop lookups take the account's e-mail from
# it (chatwidget.shop.actions.admission): the model need not ask the visitor for it.
SIGNED_IN_NOTE = (
    "The visitor is signed in to the shop, which verified who they are. Shop lookups take "
    "the e-mail address of their account from the sign-in: do not ask the visitor for it."
)


def language_instruction(language: str) -> str:
    """The visitor's language for the model, in English (the language of the rules): the
    widget's language (setLanguage, the page, the browser) is the best guess of what the
    visitor reads; what they write wins."""
    name = LANGUAGE_NAMES.get(language) or LANGUAGE_NAMES[DEFAULT_LANGUAGE]
    return (
        f"The visitor's language is {name}. Answer in {name} unless the visitor writes in "
        "another language; then answer in theirs."
    )


def profile_section(conversation: Conversation) -> tuple[str | None, int]:
    """The recognition profile, rendered for the model, and its token count.

    (None, 0) sends nothing. Background from earlier visits (memory.profiles), marked as
    such: no query without a profile, one with. Tokenised here: a profile is small and
    bounded."""
    if not conversation.profile_id:
        return None, 0
    text = profile_background(conversation=conversation).text
    return (text, count_tokens(text, model=site_model(conversation.site))) if text else (None, 0)


def fetch_limit(site: Site) -> int:
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


def select_newest(
    rows: list[TurnRow], *, covered: int, min_turns: int, room: int
) -> tuple[list[TurnRow], bool]:
    """Newest first: the minimum window, then uncovered turns, while they fit in `room`.
    Returns (chosen, overflow) where overflow means a needed turn did not fit."""
    chosen: list[TurnRow] = []
    used = 0
    for i, turn in enumerate(rows):
        if turn.seq <= covered and i >= min_turns:
            return chosen, False
        if used + turn.token_count > room:
            return chosen, True
        chosen.append(turn)
        used += turn.token_count
    return chosen, False


def knowledge_section(
    *,
    site: Site,
    model: str,
    message: str,
    core: CoreRead | None,
    rows: list[TurnRow],
    room: int,
    page_url: str = "",
) -> KnowledgeSection:
    """Shop knowledge for this call (chatwidget/shop/knowledge/window.py): at most the site's share
    of the budget and never what the core and the verbatim minimum need (`room`), retrieved
    with the message, the core, the recent turns and the page the visitor is on."""
    return knowledge_select(
        site=site,
        model=model,
        message=message,
        core=core.data if core else None,
        recent=[(t.role, t.text) for t in rows],
        room=max(0, min(knowledge_cap(site), room)),
        page_url=page_url,
    )


class TurnRow(NamedTuple):
    """A turn as one build reads it: plain values, no model instance (issue 30)."""

    seq: int
    role: str
    text: str
    token_count: int
    page: dict | None
    attachments: list | None  # the visitor's files (memory.Attachment), as the turn names them


@dataclass
class Turns:
    """The newest turns one build reads (newest first), the request among them."""

    rows: list[TurnRow]  # without the request
    request: TurnRow | None
    unfetched: bool  # more uncovered turns exist than one build reads


@dataclass
class Fixed:
    """What rides in every call: the owner's texts, the profile, the tools."""

    system: int  # the owner's system rules and the language instruction
    pinned: int
    language_text: str
    profile_text: str | None
    profile: int
    tools: int
    actions: SiteActions
    total: int

    def counts(self) -> dict[str, int]:
        """The trace's sections these fill."""
        return {
            "system": self.system,
            "pinned": self.pinned,
            "profile": self.profile,
            "tools": self.tools,
        }


@dataclass
class Verbatim:
    chosen: list[TurnRow]
    core: CoreRead | None
    inline: bool


class CoreRow(NamedTuple):
    """The current core as one build reads it: plain values (issue 30)."""

    version: int
    data: dict
    covers_through_seq: int
    token_count: int


CoreRead = Core | CoreRow  # a core read for the build, or one condensed inline


def core_current(conv: Conversation) -> CoreRead | None:
    """The conversation's current core: read with the conversation when the visitor's turn
    locked it (memory.conversation_sql: no query here), else one query."""
    if not conv.core_version:  # versions start at 1: none yet, nothing to read
        return None
    if hasattr(conv, "core_row_tokens"):
        row = [getattr(conv, f"core_row_{name}") for name in ("data", "covers", "tokens")]
        return None if row[2] is None else CoreRow(conv.core_version, *row)  # None: gone
    return (
        Core.objects.filter(conversation_id=conv.pk, version=conv.core_version)
        .only("version", "data", "covers_through_seq", "token_count")
        .first()
    )


def turns_fetch(
    conv: Conversation,
    *,
    covered: int,
    request_seq: int,
    min_turns: int,
    pending: TurnRow | None = None,
) -> Turns:
    """One LIMITed query: the newest turns down to the core's end (at least the minimum).
    `pending`: the request turn in hand, not yet written (the build before its statement);
    the turns before it were read with the conversation's locked row where the database
    could (`newest_turns`, memory.conversation_sql: the newest `fetch_limit` below the
    row's next seq), so no statement runs here."""
    limit = fetch_limit(conv.site)
    lower = max(0, min(covered, request_seq - min_turns - 1))
    through = request_seq - 1 if pending else request_seq
    read: list | None = getattr(conv, "newest_turns", None) if pending else None
    if read is not None:  # the newest fetch_limit below the row's next seq: bounded here
        rows = [row for row in read if lower < row[0] <= through]
    else:
        rows = turns_newest(
            conversation_id=conv.pk,
            after=lower,
            through=through,
            limit=limit if pending else limit + 1,
            names=TurnRow._fields,
        )
    fetched = [TurnRow(*row) for row in rows]
    if pending is not None:
        fetched.insert(0, pending)
    unfetched = len(fetched) > limit
    fetched = fetched[:limit]
    request = fetched[0] if fetched and fetched[0].seq == request_seq else None
    return Turns(rows=fetched[1:] if request else fetched, request=request, unfetched=unfetched)


def fixed_sections(conv: Conversation, *, model: str, left_out: list[dict]) -> Fixed:
    """The owner's texts, the profile and the tools (shop actions: their descriptions
    always, and room kept for their results, counted into the trace's `tools` when a call
    is made; cached, no query per build)."""
    site = conv.site
    language_text = language_instruction(conv.language)
    system = _owner_text_tokens(site.system_rules, model) + _owner_text_tokens(language_text, model)
    pinned = _owner_text_tokens(site.pinned_conventions, model)
    profile_text, profile = profile_section(conv)
    actions = site_actions(site_id=site.pk)
    if conv.customer_id and actions.tools:  # a signed-in customer (hello.identity)
        profile_text = f"{profile_text}\n\n{SIGNED_IN_NOTE}" if profile_text else SIGNED_IN_NOTE
        profile += count_tokens(SIGNED_IN_NOTE, model=model)
    tools = tools_tokens(model) + _owner_text_tokens(actions.tools_json, model)
    total = system + pinned + profile + tools + actions.result_room
    if total > site.context_budget - site.answer_reserve:
        log.error(
            "context budget too small for system rules and pinned conventions",
            extra={"conversation": conv.pk, "site": site.pk, "fixed": total},
        )
        left_out.append({"reason": LEFT_BUDGET_TOO_SMALL, "seqs": [], "count": total})
    return Fixed(system, pinned, language_text, profile_text, profile, tools, actions, total)


def request_fit(
    request: TurnRow | None, *, room: int, core: CoreRead | None, model: str, left_out: list[dict]
) -> tuple[str, int]:
    """The request: always sent; cut only if it alone would break the budget."""
    if request is None:
        return "", 0
    max_request = max(room // 2, room - (core.token_count if core else 0))
    if request.token_count <= max_request:
        return request.text, request.token_count
    text, tokens = tokens_truncate(request.text, max_tokens=max_request, model=model)
    cut = request.token_count - tokens
    left_out.append({"reason": LEFT_REQUEST_TRUNCATED, "seqs": [request.seq], "count": cut})
    return text, tokens


def page_fit(request: TurnRow | None, *, room: int, left_out: list[dict]) -> tuple[str | None, int]:
    """The page the visitor asked from, as a line of data before the request (part of
    T_request; its tokens were counted when the turn was stored), when it fits a share of
    `room` (what the request left); otherwise named in the trace."""
    page = request.page if request is not None else None
    if request is None or not page or not page.get("url"):
        return None, 0
    tokens = int(page.get("tokens") or 0)
    if tokens > max(0, room) // PAGE_SHARE:
        left_out.append({"reason": LEFT_PAGE, "seqs": [request.seq], "count": tokens})
        return None, 0
    return page_render(page), tokens


def verbatim_choose(
    conv: Conversation,
    turns: Turns,
    *,
    core: CoreRead | None,
    min_turns: int,
    room: int,
    core_cap: int,
    request_seq: int,
    left_out: list[dict],
) -> Verbatim:
    """Newest turns first, the minimum window, then what the core does not cover, within
    `room` (the core's tokens not yet taken out). When condensation lags and the uncovered
    turns do not fit, condense them now, leaving room for a core of up to `core_cap`
    tokens; what is still neither verbatim nor covered is named."""
    rows, covered = turns.rows, core.covers_through_seq if core else 0
    t_core = core.token_count if core else 0
    chosen, overflow = select_newest(rows, covered=covered, min_turns=min_turns, room=room - t_core)
    uncovered_left = turns.unfetched or any(t.seq > covered for t in rows[len(chosen) :])
    inline = False
    if uncovered_left and (overflow or turns.unfetched):
        chosen, _ = select_newest(
            rows, covered=covered, min_turns=min_turns, room=room - max(t_core, core_cap)
        )
        through = (chosen[-1].seq if chosen else request_seq) - 1
        core = _condense_inline(conv, through=through) or core
        inline = True
        covered = core.covers_through_seq if core else 0
        missing = [t.seq for t in rows[len(chosen) :] if t.seq > covered]
        if missing or (turns.unfetched and covered < through):
            log.error(
                "turns neither verbatim nor covered",
                extra={"conversation": conv.pk, "count": len(missing)},
            )
            left_out.append({"reason": LEFT_NOT_COVERED, "seqs": missing, "count": len(missing)})
    short = [t.seq for t in rows[len(chosen) : min_turns]]
    if short:
        left_out.append({"reason": LEFT_MIN_WINDOW, "seqs": sorted(short), "count": len(short)})
    return Verbatim(chosen=chosen, core=core, inline=inline)


def _condense_inline(conv: Conversation, *, through: int) -> Core | None:
    """Condensation lags: condense through `through` before the call. A failed
    condensation must not silence the bot: the stored core and the verbatim turns that fit
    answer (what is left out is named by the caller)."""
    log.info("inline condensation", extra={"conversation": conv.pk, "through": through})
    try:
        return core_refresh_inline(conversation_id=conv.pk, through_seq=through)
    except Exception as exc:  # noqa: BLE001 - a failed condensation must not silence the bot
        log.error(
            "inline condensation failed",
            extra={"conversation": conv.pk, "error": type(exc).__name__},
        )
        return None


def core_section(
    core: CoreRead | None, *, room: int, model: str, left_out: list[dict]
) -> tuple[str | None, int]:
    """The core as the model reads it, trimmed (least current items first) to `room`."""
    if core is None:
        return None, 0
    if core.token_count <= room:
        return core_render(data=core.data, covers_through=core.covers_through_seq), core.token_count
    text, tokens, dropped = core_render_within(
        data=core.data, covers_through=core.covers_through_seq, max_tokens=room, model=model
    )
    left_out.append({"reason": LEFT_CORE_TRIMMED, "seqs": [], "count": dropped})
    return text, tokens
