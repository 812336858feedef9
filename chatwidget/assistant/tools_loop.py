"""The model rounds of one answer with shop actions, and demo mode's lookup.

`reply_events` stands in for `llm.stream_reply` in the answer flow: it offers the site's
actions as tools next to `request_handover` and `offer_choices`, makes the calls the model asks for
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

from chatwidget.assistant.tools import HANDOVER_TOOL, OFFER_CHOICES_TOOL
from chatwidget.platform import llm
from chatwidget.platform.db import db_async
from chatwidget.shop.actions.services import (
    CallResult,
    action_call,
    lookup_failed_text,
    trace_tools_add,
)
from chatwidget.shop.actions.tools import ROUNDS, SiteActions, site_actions
from chatwidget.shop.models.actions import ActionCall
from memory.models import Turn, TurnRole

Outcome = ActionCall.Outcome
_GENERIC = frozenset(
    {"get", "check", "lookup", "look", "up", "find", "query", "fetch", "api", "number", "id"}
)

# Demo mode matches a message to an action by the words of its name; German visitors name
# the same things in their words ("Wo ist meine Bestellung 10453?" for order_status).
_NAME_WORDS_DE = {
    "order": {"bestellung", "bestellnummer", "auftrag", "paket", "lieferung"},
    "orders": {"bestellungen"},
    "status": {"stand"},
    "stock": {"lager", "bestand", "vorrätig", "verfügbar", "lieferbar", "vorrat"},
    "track": {"sendung", "sendungsverfolgung"},
    "tracking": {"sendungsverfolgung", "sendungsnummer"},
    "delivery": {"lieferung", "zustellung"},
}


def _name_words(name: str) -> set[str]:
    """The words of an action's name that identify it in a message, with their German."""
    keys = {w for w in name.casefold().split("_") if w not in _GENERIC}
    return keys.union(*(_NAME_WORDS_DE.get(k, set()) for k in keys))


def _failed(result: CallResult) -> bool:
    return not result.ok and result.outcome != Outcome.MISSING_ARGS


async def reply_events(
    *,
    built,
    conversation_id: int,
    request_seq: int,
    language: str,
    address: str | None = None,
) -> AsyncIterator[llm.Delta | llm.ToolCall]:
    """The answer's events over one or more model requests (see the module docstring).
    `address`: the visitor's client address, which shop lookups are limited by."""
    actions = site_actions(site_id=built.site_id) if built.tools else SiteActions()
    messages = list(built.messages)
    made = 0
    failed = False
    for round_ in range(ROUNDS + 1):
        offer = actions.tools if round_ < ROUNDS else []
        calls: list[llm.ToolCall] = []
        text: list[str] = []
        async for event in llm.stream_reply(
            messages=messages, model=built.model, tools=[HANDOVER_TOOL, OFFER_CHOICES_TOOL, *offer]
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
                    address=address,
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


def _values(text: str, properties: dict, order: list[str]) -> dict:
    """Each argument's value by its schema pattern: the first match shortly after a word of
    the argument's name ("postcode 10115", "order 10452"), else the first match no other
    argument took ("10452, 10115": the order number, then the postcode)."""
    taken: set[tuple[int, int]] = set()
    values: dict = {}
    for arg in order:
        schema = properties.get(arg)
        pattern = schema.get("pattern") if isinstance(schema, dict) else None
        if not pattern:
            continue
        found = list(re.finditer(rf"(?<![\w-])(?:{_unanchored(pattern)})(?![\w-])", text))
        keys = [w for w in arg.casefold().split("_") if w not in _GENERIC] or [arg.casefold()]
        named = [
            m
            for m in found
            if m.span() not in taken
            and any(k in text[max(0, m.start() - 24) : m.start()].casefold() for k in keys)
        ]
        free = [m for m in found if m.span() not in taken]
        chosen = next(iter(named or free), None)
        if chosen is not None:
            taken.add(chosen.span())
            values[arg] = chosen.group(0)
    return values


def _matched(context: str, actions: SiteActions, *, adds: str | None) -> tuple[str, dict] | None:
    """The first action with a word of its name in `context` whose required arguments all
    match their patterns there (and, with `adds`, one of whose values `adds` holds)."""
    words = set(re.findall(r"\w+", context.casefold()))
    for name, config in actions.config.items():
        if not _name_words(name) & words:
            continue
        parameters = config.get("parameters") or {}
        properties = parameters.get("properties", {})
        required = list(parameters.get("required", []))
        order = required + [a for a in properties if a not in required]
        arguments = _values(context, properties, order)
        if not set(required) <= arguments.keys():
            continue
        if adds is None or _values(adds, properties, order):
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


def demo_match(*, text: str, actions: SiteActions, before: str = "") -> tuple[str, dict] | None:
    """(action name, arguments) for a message, or None: the first action with a word of its
    name in the message whose required arguments all match their schema patterns there; or
    else in the visitor's message `before` it and this one together, when this one adds a
    value ("Where is my order 10452?" - "The postcode is 10115.")."""
    found = _matched(text, actions, adds=None)
    if found is None and before:
        found = _matched(f"{before}\n{text}", actions, adds=text)
    return found


def _request_texts(conversation_id: int, request_seq: int) -> tuple[str, str]:
    """The visitor's message `request_seq` and the visitor's message before it."""
    texts = list(
        Turn.objects.filter(
            conversation_id=conversation_id, seq__lte=request_seq, role=TurnRole.VISITOR
        )
        .order_by("-seq")
        .values_list("seq", "text")[:2]
    )
    text = texts[0][1] if texts and texts[0][0] == request_seq else ""
    before = texts[1][1] if len(texts) > 1 and text else ""
    return text, before


def _missing_line(result: CallResult) -> str:
    """Demo mode: what the visitor still has to write for the lookup."""
    missing = [name.replace("_", " ") for name in result.missing]
    if result.missing_factor:
        names = [name.replace("_", " ") for name in result.missing_factor]
        either = names[-1]
        for name in reversed(names[:-1]):
            either = gettext("%(first)s or %(second)s") % {"first": name, "second": either}
        missing.append(either)
    return gettext("To look this up, please also write: %(missing)s.") % {
        "missing": ", ".join(missing)
    }


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
    language: str,
    address: str | None = None,
) -> list[str]:
    """Demo mode: make the lookup the message asks for and show its result (no lines when
    the site has no actions or the message matches none)."""
    if not built.tools:
        return []
    actions = site_actions(site_id=built.site_id)
    text, before = await db_async(_request_texts)(conversation_id, request_seq)
    match = demo_match(text=text, actions=actions, before=before)
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
        address=address,
    )
    await trace_tools_add(built=built, tokens=result.tokens)
    with translation.override(language):
        if result.ok:
            return [
                gettext("The shop's system answered the lookup %(action)s:") % {"action": name},
                f"- {_flat(result.data)}",
            ]
        if result.outcome == Outcome.MISSING_ARGS:
            return [_missing_line(result)]
        if result.outcome == Outcome.NOT_FOUND:
            return [
                gettext(
                    "The shop's system found nothing for these details. Please check the "
                    "number and the e-mail address or postcode."
                )
            ]
        return [lookup_failed_text(language)]
