"""The model rounds of one answer with shop actions, and demo mode's lookup.

`reply_events` stands in for `llm.stream_reply` in the answer flow: it offers the site's
actions as tools next to `request_handover`, makes the calls the model asks for
(chatwidget.shop.actions.services), sends their results (or the failure) in the next request,
and yields the same `Delta`/`ToolCall` events, so the caller streams and stores as before.
At most `ROUNDS` rounds with calls; the last round offers no action tools, so the model has
to answer. A failed lookup the model then says nothing about still gets an answer: the
visitor hears it could not be checked and is offered a person.

Demo mode has no model: `demo_lookup_lines` matches the message deterministically to an
action (a word of the action's name in the message, every required argument found by its
schema `pattern`) and shows the shop's answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

from django.utils import translation
from django.utils.translation import gettext

from chatwidget.assistant.tools import HANDOVER_TOOL
from chatwidget.platform import llm
from chatwidget.shop.actions.services import (
    CallResult,
    action_call,
    lookup_failed_text,
    trace_tools_add,
)
from chatwidget.shop.actions.tools import ROUNDS, SiteActions, site_actions
from chatwidget.shop.models.actions import ActionCall
from memory.models import Turn

Outcome = ActionCall.Outcome
_GENERIC = frozenset({"get", "check", "lookup", "look", "up", "find", "query", "fetch", "api"})


def _failed(result: CallResult) -> bool:
    return not result.ok and result.outcome != Outcome.MISSING_ARGS


async def reply_events(
    *,
    built,
    conversation_id: int,
    request_seq: int,
    language: str,
) -> AsyncIterator[llm.Delta | llm.ToolCall]:
    """The answer's events over one or more model requests (see the module docstring)."""
    actions = site_actions(site_id=built.site_id) if built.tools else SiteActions()
    messages = list(built.messages)
    made = 0
    failed = False
    for round_ in range(ROUNDS + 1):
        offer = actions.tools if round_ < ROUNDS else []
        calls: list[llm.ToolCall] = []
        text: list[str] = []
        async for event in llm.stream_reply(
            messages=messages, model=built.model, tools=[HANDOVER_TOOL, *offer]
        ):
            if isinstance(event, llm.ToolCall) and event.name in actions.config:
                calls.append(event)
                continue
            if isinstance(event, llm.Delta):
                text.append(event.text)
            yield event
        if not calls or not offer:
            if failed and not "".join(text).strip():
                yield llm.Delta(lookup_failed_text(language))
            return
        requested, answered = [], []
        for call in calls:
            made += 1
            call_id = f"call_{made}"
            if made > ROUNDS:  # more calls than the context kept room for
                content = json.dumps({"ok": False, "error": "too_many_calls"})
                arguments = call.arguments
            else:
                result = await action_call(
                    site_id=built.site_id,
                    conversation_id=conversation_id,
                    request_seq=request_seq,
                    index=made,
                    model=built.model,
                    name=call.name,
                    arguments=call.arguments,
                )
                await trace_tools_add(built=built, tokens=result.tokens)
                failed = failed or _failed(result)
                content, arguments = result.content, result.arguments
            requested.append(
                {
                    "id": call_id,
                    "type": "function",
                    "function": {
                        "name": call.name,
                        "arguments": json.dumps(arguments, ensure_ascii=False),
                    },
                }
            )
            answered.append({"role": "tool", "tool_call_id": call_id, "content": content})
        messages = [
            *messages,
            {"role": "assistant", "content": "".join(text) or None, "tool_calls": requested},
            *answered,
        ]


# --- demo mode ------------------------------------------------------------------------------


def _unanchored(pattern: str) -> str:
    return pattern.removeprefix("^").removesuffix("$")


def demo_match(*, text: str, actions: SiteActions) -> tuple[str, dict] | None:
    """(action name, arguments) for a message, or None: the first action with a word of its
    name in the message whose required arguments all match their schema patterns there."""
    words = set(re.findall(r"\w+", text.casefold()))
    for name, config in actions.config.items():
        keys = {w for w in name.casefold().split("_") if w not in _GENERIC}
        if not keys & words:
            continue
        properties = (config.get("parameters") or {}).get("properties", {})
        required = set((config.get("parameters") or {}).get("required", []))
        arguments: dict = {}
        for arg, schema in properties.items():
            pattern = schema.get("pattern") if isinstance(schema, dict) else None
            found = (
                re.search(rf"(?<![\w-])(?:{_unanchored(pattern)})(?![\w-])", text)
                if pattern
                else None
            )
            if found:
                arguments[arg] = found.group(0)
        if required <= arguments.keys():
            return name, arguments
    return None


def request_text(conversation_id: int, request_seq: int) -> str:
    """The visitor's message the answer is for."""
    return (
        Turn.objects.filter(conversation_id=conversation_id, seq=request_seq)
        .values_list("text", flat=True)
        .first()
        or ""
    )


def _flat(data) -> str:
    if isinstance(data, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {_flat(v)}" for k, v in data.items())
    if isinstance(data, list):
        return ", ".join(_flat(v) for v in data)
    return str(data)


async def demo_lookup_lines(
    *,
    built,
    conversation_id: int,
    request_seq: int,
    message: str,
    language: str,
) -> list[str]:
    """Demo mode: make the lookup the message asks for and show its result (no lines when
    the site has no actions or the message matches none)."""
    if not built.tools:
        return []
    actions = site_actions(site_id=built.site_id)
    match = demo_match(text=message, actions=actions)
    if match is None:
        return []
    name, arguments = match
    result = await action_call(
        site_id=built.site_id,
        conversation_id=conversation_id,
        request_seq=request_seq,
        index=1,
        model=built.model,
        name=name,
        arguments=arguments,
    )
    await trace_tools_add(built=built, tokens=result.tokens)
    with translation.override(language):
        if result.ok:
            return [
                gettext("The shop's system answered the lookup %(action)s:") % {"action": name},
                f"- {_flat(result.data)}",
            ]
        return [lookup_failed_text(language)]
