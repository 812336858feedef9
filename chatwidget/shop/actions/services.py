"""One action call: checked, made, cut, stored and traced.

Before any request: every argument the Owner marked as the visitor's must occur in what the
visitor wrote in this conversation (the assistant never looks anything up with a value it
made up or took from elsewhere; whether an order number and a postcode belong together is
the shop API's decision), and the conversation must be under its hourly call limit. Refused
calls make no request and are told to the model like failures.

The call and its result are stored as one turn of role `tool` (redacted like any text, never
shown to the visitor, shown to staff, condensed and purged with the transcript) and as an
ActionCall row on the answer's context trace, whose `tools` section grows by the result's
tokens.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone, translation
from django.utils.translation import gettext

from chatwidget.platform.db import db_async
from chatwidget.shop.actions.arguments import arguments_check
from chatwidget.shop.actions.http import action_request
from chatwidget.shop.actions.tools import site_actions
from chatwidget.shop.models.actions import ActionCall
from memory.models import ContextTrace, Turn, TurnRole
from memory.services import turn_append
from memory.tokens import count_tokens, tokens_truncate

log = logging.getLogger(__name__)

Outcome = ActionCall.Outcome
TOOL_TURN_PREFIX = "Lookup"
TOOL_ID_PREFIX = "~t:"
VISITOR_TURNS_CHECKED = 200
NOT_COUNTED = (Outcome.MISSING_ARGS, Outcome.INVALID_ARGS, Outcome.RATE_LIMITED)  # no request
_INSTRUCTIONS = {
    Outcome.MISSING_ARGS: "No lookup was made: the visitor has not written {missing} in this "
    "conversation. Ask the visitor for it; never guess it.",
    Outcome.INVALID_ARGS: "No lookup was made: the arguments do not fit ({missing}). Ask the "
    "visitor for the value it needs; never put anything else in its place.",
    Outcome.RATE_LIMITED: "No lookup was made: this conversation has reached its limit of "
    "lookups. Tell the visitor it could not be checked right now and offer a person.",
}
_FAILED = (
    "The lookup failed ({outcome}): nothing is known about the result. Tell the "
    "visitor it could not be checked right now and offer to pass them to a person. "
    "Do not guess."
)


@dataclass(frozen=True)
class CallResult:
    name: str
    arguments: dict
    outcome: str
    content: str  # what the model is told (the tool message)
    data: object = None  # the shop's answer, parsed (ok only)
    tokens: int = 0  # what the result adds to the context

    @property
    def ok(self) -> bool:
        return self.outcome == Outcome.OK


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^0-9a-zäöüß]+", " ", str(text).casefold()).split())


def value_given_by_visitor(value, visitor_texts: list[str]) -> bool:
    """Whether the value occurs, as whole words, in what the visitor wrote ("10452" in
    "where is my order 10452?"; "LS-1002" also as "ls 1002" or "LS1002"; never "1045" in
    "10452")."""
    joined = _norm(value).replace(" ", "")
    if not joined:
        return False
    for text in visitor_texts:
        tokens = _norm(text).split()
        for i in range(len(tokens)):
            run = ""
            for token in tokens[i:]:
                run += token
                if len(run) >= len(joined):
                    break
            if run == joined:
                return True
    return False


def _precheck(
    conversation_id: int, visitor_args: list[str], arguments: dict, calls_per_hour: int
) -> tuple[str | None, list[str]]:
    """(refusal outcome or None, missing argument names). Two queries at most."""
    if visitor_args:
        texts = list(
            Turn.objects.filter(conversation_id=conversation_id, role=TurnRole.VISITOR)
            .order_by("-seq")
            .values_list("text", flat=True)[:VISITOR_TURNS_CHECKED]
        )
        missing = [
            name
            for name in visitor_args
            if not value_given_by_visitor(arguments.get(name, ""), texts)
        ]
        if missing:
            return Outcome.MISSING_ARGS, missing
    since = timezone.now() - timedelta(hours=1)
    made = (
        ActionCall.objects.filter(conversation_id=conversation_id, created_at__gte=since)
        .exclude(outcome__in=NOT_COUNTED)
        .count()
    )
    if made >= calls_per_hour:
        return Outcome.RATE_LIMITED, []
    return None, []


def result_cut(*, data, max_tokens: int, model: str) -> tuple[str, int, bool]:
    """The result as compact JSON within `max_tokens`: (text, tokens, cut)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    cut, tokens = tokens_truncate(text, max_tokens=max_tokens, model=model)
    return cut, tokens, cut != text


def tool_turn_text(*, name: str, arguments: dict, outcome: str, result: str) -> str:
    """The stored turn: `Lookup <name> <arguments> → <result>` (memory.condense reads it)."""
    args = json.dumps(arguments, ensure_ascii=False, sort_keys=True)
    shown = result if outcome == Outcome.OK else f"failed: {outcome}"
    return f"{TOOL_TURN_PREFIX} {name} {args} → {shown}"


def _store(
    *,
    conversation_id: int,
    request_seq: int,
    index: int,
    action_id: int | None,
    name: str,
    arguments: dict,
    outcome: str,
    result: str,
    status_code: int | None,
    latency_ms: int,
    tokens: int,
    cut: bool,
) -> None:
    appended = turn_append(
        conversation_id=conversation_id,
        role=TurnRole.TOOL,
        publish=False,
        client_id=f"{TOOL_ID_PREFIX}{request_seq}:{index}",
        text=tool_turn_text(name=name, arguments=arguments, outcome=outcome, result=result),
    )
    ActionCall.objects.create(
        conversation_id=conversation_id,
        action_id=action_id,
        name=name,
        request_seq=request_seq,
        turn_seq=appended.turn.seq,
        outcome=outcome,
        status_code=status_code,
        latency_ms=latency_ms,
        tokens=tokens,
        cut=cut,
    )


def _trace_update(trace_id: int, sections: dict, total: int) -> None:
    ContextTrace.objects.filter(pk=trace_id).update(sections=sections, total_tokens=total)


async def trace_tools_add(*, built, tokens: int) -> None:
    """Count a result into the answer's trace (`tools` and the total): in memory, and in the
    row when the trace is stored already."""
    if not tokens:
        return
    trace = built.trace
    for sections in {id(s): s for s in (built.sections, trace.sections)}.values():
        sections["tools"] = sections.get("tools", 0) + tokens
    trace.total_tokens += tokens
    if trace.pk:
        await db_async(_trace_update)(trace.pk, trace.sections, trace.total_tokens)


async def action_call(
    *,
    site_id: int,
    conversation_id: int,
    request_seq: int,
    index: int,
    model: str,
    name: str,
    arguments: dict,
) -> CallResult:
    """Call the site's action `name` with the model's (or demo mode's) arguments. Never
    raises for what the shop does: every failure is a CallResult the model is told."""
    actions = site_actions(site_id=site_id)
    config = actions.config[name]
    checked = arguments_check(schema=config["parameters"], arguments=arguments)
    arguments = checked.arguments
    refused: str | None
    if checked.problems:  # no request with a value the schema does not allow
        refused, missing = Outcome.INVALID_ARGS, list(checked.problems)
    else:
        refused, missing = await db_async(_precheck)(
            conversation_id, config["visitor_args"], arguments, actions.calls_per_hour
        )
    data, status, latency, tokens, cut = None, None, 0, 0, False
    if refused:
        outcome = refused
        content = json.dumps(
            {
                "ok": False,
                "error": outcome,
                "instruction": _INSTRUCTIONS[Outcome(outcome)].format(missing=", ".join(missing)),
            }
        )
        result = ""
        tokens = count_tokens(content, model=model)
    else:
        response = await action_request(config=config, arguments=arguments)
        outcome, status, latency = response.outcome, response.status_code, response.latency_ms
        if outcome == Outcome.OK:
            data = response.data
            result, tokens, cut = result_cut(
                data=data, max_tokens=actions.result_max_tokens, model=model
            )
            content = result
        else:
            result = ""
            content = json.dumps(
                {"ok": False, "error": outcome, "instruction": _FAILED.format(outcome=outcome)}
            )
            tokens = count_tokens(content, model=model)
    await db_async(_store)(
        conversation_id=conversation_id,
        request_seq=request_seq,
        index=index,
        action_id=config["id"],
        name=name,
        arguments=arguments,
        outcome=outcome,
        result=result,
        status_code=status,
        latency_ms=latency,
        tokens=tokens,
        cut=cut,
    )
    log.info(
        "shop action",
        extra={
            "conversation": conversation_id,
            "action": name,
            "outcome": outcome,
            "status": status,
            "ms": latency,
            "tokens": tokens,
            "cut": cut,
        },
    )
    return CallResult(
        name=name, arguments=arguments, outcome=outcome, content=content, data=data, tokens=tokens
    )


def lookup_failed_text(language: str) -> str:
    """What the visitor hears when a lookup failed and the model said nothing about it."""
    with translation.override(language):
        return gettext(
            "I could not check that with the shop's system right now. Would you "
            "like me to pass your question to a person?"
        )
