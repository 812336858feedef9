"""The core's form: its keys, limits, the JSON schema the model fills, the labels staff
read, the empty form and how any input is coerced into it."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.utils.translation import gettext_lazy

from memory.core.sources import sources_coerce

log = logging.getLogger(__name__)

CORE_KEYS = (
    "request",
    "objects",
    "constraints",
    "open_points",
    "promises",
    "corrections",
    "settled",
)
CORE_LIMITS = {
    "objects": 20,
    "constraints": 12,
    "open_points": 6,
    "promises": 8,
    "corrections": 8,
    "settled": 8,
}
MAX_TEXT = 240

_STR = {"type": "string"}
_STRS = {"type": "array", "items": _STR}
CORE_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "required": list(CORE_KEYS),
    "properties": {
        "request": _STR,
        "objects": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind", "id", "label"],
                "properties": {"kind": _STR, "id": _STR, "label": _STR},
            },
        },
        "constraints": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["what", "value", "turn"],
                "properties": {"what": _STR, "value": _STR, "turn": {"type": "integer"}},
            },
        },
        "open_points": _STRS,
        "promises": _STRS,
        "corrections": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["was", "now", "turn"],
                "properties": {"was": _STR, "now": _STR, "turn": {"type": "integer"}},
            },
        },
        "settled": _STRS,
    },
}

# The core's sections as staff read them (admin conversation and case pages), in form order.
CORE_LABELS = (
    ("request", gettext_lazy("Request")),
    ("objects", gettext_lazy("Objects")),
    ("constraints", gettext_lazy("Constraints")),
    ("open_points", gettext_lazy("Open points")),
    ("promises", gettext_lazy("Promises")),
    ("corrections", gettext_lazy("Corrections")),
    ("settled", gettext_lazy("Settled")),
    ("claims", gettext_lazy("What the visitor says")),
)

#: The sections that are lists of plain strings (their sources are keyed by the string).
TEXT_SECTIONS = ("open_points", "promises", "settled", "claims")


# --- shape ------------------------------------------------------------------------------------


def core_empty() -> dict:
    return {
        "request": "",
        "objects": [],
        "constraints": [],
        "open_points": [],
        "promises": [],
        "corrections": [],
        "settled": [],
    }


def text_clean(value) -> str:
    """One line of at most MAX_TEXT characters (None: empty)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = str(value)
    return " ".join(value.split())[:MAX_TEXT]


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def core_coerce(data) -> dict:
    """Any input into the exact shape of the form (unknown keys dropped, types fixed)."""
    out = core_empty()
    if not isinstance(data, dict):
        return out
    s = text_clean
    out["request"] = s(data.get("request"))
    for item in data.get("objects") or []:
        if isinstance(item, dict):
            out["objects"].append(
                {
                    "kind": s(item.get("kind"))[:30].lower(),
                    "id": s(item.get("id"))[:60],
                    "label": s(item.get("label"))[:80],
                }
            )
    for item in data.get("constraints") or []:
        if isinstance(item, dict):
            out["constraints"].append(
                {
                    "what": s(item.get("what"))[:40],
                    "value": s(item.get("value"))[:120],
                    "turn": _int(item.get("turn")),
                }
            )
    for item in data.get("corrections") or []:
        if isinstance(item, dict):
            out["corrections"].append(
                {
                    "was": s(item.get("was"))[:120],
                    "now": s(item.get("now"))[:120],
                    "turn": _int(item.get("turn")),
                }
            )
    for key in ("open_points", "promises", "settled"):
        out[key] = [s(v) for v in (data.get(key) or []) if isinstance(v, (str, int, float))]
    claims = [s(v) for v in (data.get("claims") or []) if isinstance(v, str)]
    if claims:
        out["claims"] = claims
    sources = sources_coerce(data.get("sources"))
    if sources:
        out["sources"] = sources
    return out


def core_strings(data: dict) -> Iterator[str]:
    """Every value of a core, for searching it (verification, identifier checks)."""
    yield data.get("request", "")
    for o in data.get("objects", []):
        yield o["id"]
        yield o["label"]
    for c in data.get("constraints", []):
        yield c["what"]
        yield c["value"]
    for c in data.get("corrections", []):
        yield c["was"]
        yield c["now"]
    for key in ("open_points", "promises", "settled", "claims"):
        yield from data.get(key, [])


# --- rendering for the model (counted once when a version is stored) --------------------------
