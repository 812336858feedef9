"""One action call: admitted, made, checked, cut, stored and traced.

Before any request (chatwidget.shop.actions.admission): the arguments fit the schema, the
visitor wrote every value the Owner marked as theirs and, for a customer's data, a second
factor; the conversation, the client address and the site are under their limits. Refused
calls make no request and are told to the model like failures.

After it (chatwidget.shop.actions.protect): a customer's data is answered only when the
second factor equals the answer's field (else "not found", as for an unknown number), and
only the declared answer fields reach the model, the stored turn and the trace.

The call and its result are stored as one turn of role `tool` (redacted like any text, never
shown to the visitor, shown to staff, condensed and purged with the transcript) and as an
ActionCall row on the answer's context trace, whose `tools` section grows by the result's
tokens.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from chatwidget.platform.db import db_async
from chatwidget.shop.actions.admission import Admission, call_admit
from chatwidget.shop.actions.arguments import arguments_check
from chatwidget.shop.actions.http import HttpResult, action_request
from chatwidget.shop.actions.orders import order_request
from chatwidget.shop.actions.protect import answer_fields_keep, answer_matches
from chatwidget.shop.actions.tools import site_actions
from chatwidget.shop.models.actions import ActionCall
from memory.models import ContextTrace, TurnRole
from memory.services import turn_append
from memory.tokens import count_tokens, tokens_truncate

log = logging.getLogger(__name__)

Outcome = ActionCall.Outcome
TOOL_TURN_PREFIX = "Lookup"
TOOL_ID_PREFIX = "~t:"
_INSTRUCTIONS = {
    Outcome.MISSING_ARGS: "No lookup was made: the visitor has not written {missing} in this "
    "conversation. Ask the visitor for it; never guess it.",
    Outcome.INVALID_ARGS: "No lookup was made: the arguments do not fit ({missing}). Ask the "
    "visitor for the value it needs; never put anything else in its place.",
    Outcome.RATE_LIMITED: "No lookup was made: this conversation has reached its limit of "
    "lookups. Tell the visitor it could not be checked right now and offer a person.",
    Outcome.ADDRESS_LIMITED: "No lookup was made: the limit of lookups has been reached. "
    "Tell the visitor it could not be checked right now and offer a person.",
    Outcome.NOT_FOUND: "Nothing was found for the details the visitor gave. Tell the visitor "
    "so and ask them to check what they wrote (for example the number and the e-mail "
    "address or postcode of the order); never guess, and say nothing about what else might "
    "exist.",
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
    data: object = None  # the shop's answer as the model saw it: declared fields (ok only)
    tokens: int = 0  # what the result adds to the context
    missing: tuple[str, ...] = ()  # what the visitor still has to write (missing_args)
    missing_factor: tuple[str, ...] = ()  # ... and one of these (missing_args)

    @property
    def ok(self) -> bool:
        return self.outcome == Outcome.OK


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
    with transaction.atomic():  # the turn and its call: one commit (issue 30)
        appended = turn_append(
            conversation_id=conversation_id,
            role=TurnRole.TOOL,
            publish=False,
            client_id=f"{TOOL_ID_PREFIX}{request_seq}:{index}",
            text=tool_turn_text(name=name, arguments=arguments, outcome=outcome, result=result),
            savepoint=False,
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


async def _admit(
    *,
    site_id: int,
    conversation_id: int,
    address: str | None,
    config: dict,
    arguments: dict,
    problems: tuple[str, ...],
) -> Admission:
    """Everything decided before a request, cheapest first."""
    if problems:  # no request with a value the schema does not allow
        return Admission(refused=Outcome.INVALID_ARGS, missing=list(problems))
    return await db_async(call_admit)(
        site_id=site_id,
        conversation_id=conversation_id,
        address=address,
        config=config,
        arguments=arguments,
        calls_per_hour=site_actions(site_id=site_id).calls_per_hour,
    )


def _told(outcome: str, admission: Admission) -> str:
    """What the model is told of a call without a result (argument names, never values)."""
    missing = list(admission.missing)
    if admission.missing_factor:
        missing.append(" or ".join(admission.missing_factor))
    if outcome in _INSTRUCTIONS:
        instruction = _INSTRUCTIONS[Outcome(outcome)].format(missing=", ".join(missing))
    else:
        instruction = _FAILED.format(outcome=outcome)
    return json.dumps({"ok": False, "error": outcome, "instruction": instruction})


def _answer_checked(response: HttpResult, *, config: dict, factors: dict[str, str]) -> str:
    """The outcome of a made request: an unknown number (404) and an answer whose second
    factor differs are the same "not found"."""
    if response.outcome == Outcome.HTTP_ERROR and response.status_code == 404:
        return Outcome.NOT_FOUND
    if response.outcome != Outcome.OK:
        return response.outcome
    if (factors or config.get("customer_data", True)) and not answer_matches(
        data=response.data, factors=config.get("factors") or {}, given=factors
    ):
        return Outcome.NOT_FOUND
    return Outcome.OK


async def action_call(
    *,
    site_id: int,
    conversation_id: int,
    request_seq: int,
    index: int,
    model: str,
    name: str,
    arguments: dict,
    address: str | None = None,
) -> CallResult:
    """Call the site's action `name` with the model's (or demo mode's) arguments, for the
    visitor at client `address`. Never raises for what the shop does: every failure is a
    CallResult the model is told."""
    config = site_actions(site_id=site_id).config[name]
    checked = arguments_check(schema=config["parameters"], arguments=arguments)
    arguments = checked.arguments
    admission = await _admit(
        site_id=site_id,
        conversation_id=conversation_id,
        address=address,
        config=config,
        arguments=arguments,
        problems=checked.problems,
    )
    data, answered, status, latency, cut, result = None, None, None, 0, False, ""
    if admission.refused:
        outcome = admission.refused
    else:
        arguments = {**arguments, **admission.filled}  # from the verified identity
        request = order_request if config.get("connection") else action_request
        response = await request(config=config, arguments=arguments)
        answered, status, latency = response.data, response.status_code, response.latency_ms
        outcome = _answer_checked(response, config=config, factors=admission.factors)
    if outcome == Outcome.OK:
        data = answer_fields_keep(data=answered, fields=config.get("answer_fields") or [])
        max_tokens = site_actions(site_id=site_id).result_max_tokens
        result, tokens, cut = result_cut(data=data, max_tokens=max_tokens, model=model)
        content = result
    else:
        content = _told(outcome, admission)
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
        name=name,
        arguments=arguments,
        outcome=outcome,
        content=content,
        data=data,
        tokens=tokens,
        missing=tuple(admission.missing) if outcome == Outcome.MISSING_ARGS else (),
        missing_factor=admission.missing_factor,
    )


def lookup_failed_text(language: str) -> str:
    """What the visitor hears when a lookup failed and the model said nothing about it."""
    with translation.override(language):
        return gettext(
            "I could not check that with the shop's system right now. Would you "
            "like me to pass your question to a person?"
        )
