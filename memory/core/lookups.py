"""Shop lookups in the core: a stored `tool` turn (chatwidget.shop.actions) reads
`Lookup <action> <arguments as JSON> → <result as JSON>`; an order's status (any result with
a status or state and an identifier) becomes an object with its identifier and state, the
newest lookup's state winning. A failed or cut result gives nothing: no state is guessed."""

from __future__ import annotations

import json
import re

from memory.core import text_clean

_HEAD = re.compile(r"^Lookup (\w+) ")
_ARROW = " → "
_STATE_KEYS = ("status", "state", "order_status", "delivery_status")
_ID_KEYS = ("order_number", "order_id", "order", "number", "id", "article", "sku")


def _first(data: dict, keys: tuple[str, ...]) -> str:
    for key in keys:
        value = data.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return str(value).strip()
    return ""


def lookup_parse(text: str) -> tuple[str, dict, object] | None:
    """(action name, arguments, result) of a lookup turn, or None (failed, cut, not one)."""
    head = _HEAD.match(text)
    if not head:
        return None
    decoder = json.JSONDecoder()
    try:
        arguments, end = decoder.raw_decode(text, head.end())
        if not text.startswith(_ARROW, end):
            return None
        result, rest = decoder.raw_decode(text, end + len(_ARROW))
    except ValueError:
        return None
    if text[rest:].strip() or not isinstance(arguments, dict):
        return None
    return head.group(1), arguments, result


def lookup_objects(text: str) -> list[dict]:
    """The core objects a lookup turn gives: [{"kind", "id", "label": state}]."""
    parsed = lookup_parse(text)
    if parsed is None:
        return []
    name, arguments, result = parsed
    items = result if isinstance(result, list) else [result]
    objects = []
    for item in items[:5]:
        if not isinstance(item, dict):
            continue
        state = _first(item, _STATE_KEYS)
        ident = _first(item, _ID_KEYS) or _first(arguments, _ID_KEYS)
        if not state or not ident:
            continue
        kind = (
            "order"
            if "order" in name.lower() or any(k.startswith("order") for k in item)
            else "item"
        )
        objects.append(
            {"kind": kind, "id": text_clean(ident)[:60], "label": text_clean(state)[:80]}
        )
    return objects


def lookup_states_apply(*, out: dict, turns: list[dict]) -> int:
    """Verification's last word on lookups (memory.core.verify): every order state the
    step's lookup turns report is in the core, the newest winning, whatever a model wrote.
    Returns how many objects were added or changed."""
    changed = 0
    for turn in turns:
        if turn.get("role") != "tool":
            continue
        for obj in lookup_objects(turn.get("text", "")):
            same = next((o for o in out["objects"] if o["id"] == obj["id"]), None)
            if same is None:
                out["objects"].append(obj)
                changed += 1
            elif (same["kind"], same["label"]) != (obj["kind"], obj["label"]):
                same["kind"], same["label"] = obj["kind"], obj["label"]
                changed += 1
    return changed
