"""Verification: a proposed core checked against its sources before it is stored.

- every identifier and number in it occurs in the source turns or the previous core;
  invented ones are removed;
- identifiers found by deterministic extraction (memory/extract.py) survive even if the
  model drops them;
- what never goes into a core (memory.core.rules) is kept out;
- a correction replaces the current value and stays named; a settled request is not the
  current request.

Each rule is one small function over a `_Check` (the sources and the repair counts).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from memory import extract
from memory.core import CORE_KEYS, CORE_LIMITS, core_coerce, core_empty, core_strings
from memory.core.lookups import lookup_states_apply
from memory.core.provenance import core_provenance_apply
from memory.core.rules import core_value_forbidden
from memory.core.sources import text_replace
from memory.models import TurnRole
from memory.redaction import never_kept_found

_KIND_WORDS = {
    extract.SIZE: ("size", "größe", "groesse", "gr."),
    extract.COLOUR: ("colour", "color", "farbe"),
    extract.QUANTITY: ("quantity", "amount", "number", "menge", "anzahl", "stück", "pieces"),
    extract.DATE: (
        "date",
        "deadline",
        "delivery",
        "by",
        "datum",
        "termin",
        "lieferung",
        "bis",
        "appointment",
        "when",
    ),
}


def core_haystack(data: dict) -> str:
    """A core's values as one normalised text, to search identifiers in."""
    return extract.normalise(" \n ".join(core_strings(data)))


def _what_is(what: str, kind: str) -> bool:
    words = extract.normalise(what)
    return kind in words or any(w in words for w in _KIND_WORDS.get(kind, ()))


@dataclass
class _Check:
    turns: list[dict]
    through_seq: int
    sources: str
    repairs: Counter = field(default_factory=Counter)

    @property
    def first_seq(self) -> int:
        return min((t["turn"] for t in self.turns), default=1)

    def ok(self, text: str) -> bool:
        """May `text` stand in the core: nothing forbidden, no invented number."""
        if not text:
            return True
        reason = core_value_forbidden(text)
        if reason:
            self.repairs[f"kept_out_{reason}"] += 1
            return False
        if any(not extract.occurs(tok, self.sources) for tok in extract.numberish_tokens(text)):
            self.repairs["invented_removed"] += 1
            return False
        return True

    def turn_fixed(self, turn: int, value: str, fallback: int = 0) -> int:
        """A turn number within the sources: as given, the turn naming `value`, `fallback`,
        or the first source turn."""
        if 1 <= turn <= self.through_seq:
            return turn
        self.repairs["turn_fixed"] += 1
        for t in self.turns:
            if value and extract.occurs(value, extract.normalise(t["text"])):
                return t["turn"]
        return fallback if 1 <= fallback <= self.through_seq else self.first_seq


def _request(check: _Check, proposed: dict, prev: dict, reference: dict | None) -> str:
    request = proposed["request"]
    if request and not check.ok(request):
        request = ""
    if not request:
        for candidate in ((reference or {}).get("request", ""), prev["request"]):
            if candidate and check.ok(candidate):
                return candidate
    return request


def _objects(check: _Check, proposed: dict) -> list[dict]:
    out: list[dict] = []
    seen_ids: set[str] = set()
    for o in proposed["objects"]:
        key = extract.normalise(o["id"])
        if not o["id"] or key in seen_ids or not check.ok(o["id"]):
            continue
        if extract.numberish_tokens(o["id"]) or extract.occurs(o["id"], check.sources):
            seen_ids.add(key)
            out.append(
                {
                    "kind": o["kind"] or "object",
                    "id": o["id"],
                    "label": o["label"] if check.ok(o["label"]) else "",
                }
            )
        else:
            check.repairs["invented_removed"] += 1
    return out


def _constraints(check: _Check, proposed: dict, prev: dict) -> list[dict]:
    prev_turns = {extract.normalise(c["value"]): c["turn"] for c in prev["constraints"]}
    out = []
    for c in proposed["constraints"]:
        if c["value"] and check.ok(c["value"]) and check.ok(c["what"]):
            c["turn"] = check.turn_fixed(
                c["turn"], c["value"], prev_turns.get(extract.normalise(c["value"]), 0)
            )
            out.append(c)
    return out


def _corrections(check: _Check, proposed: dict) -> list[dict]:
    out = []
    for c in proposed["corrections"]:
        if c["now"] and check.ok(c["now"]) and check.ok(c["was"]):
            c["turn"] = check.turn_fixed(c["turn"], c["now"])
            out.append(c)
    return out


def _unique_lines(check: _Check, values: list[str]) -> list[str]:
    out, seen = [], set()
    for value in values:
        norm = extract.normalise(value)
        if value and norm not in seen and check.ok(value):
            seen.add(norm)
            out.append(value)
    return out


def _corrections_applied(check: _Check, out: dict) -> None:
    """A correction replaces the current value (constraints and request)."""
    for corr in out["corrections"]:
        was = extract.normalise(corr["was"])
        if not was:
            continue
        for c in out["constraints"]:
            if extract.normalise(c["value"]) == was:
                c["value"] = corr["now"]
                check.repairs["correction_applied"] += 1
        if was in extract.normalise(out["request"]):
            out["request"] = text_replace(out["request"], was=corr["was"], now=corr["now"])
            check.repairs["correction_applied"] += 1


def _settled_request_cleared(check: _Check, out: dict) -> None:
    """A settled request is not the current one."""
    req = extract.normalise(out["request"])
    if req and any(extract.normalise(s).startswith(req) for s in out["settled"]):
        out["request"] = ""
        check.repairs["settled_request_cleared"] += 1


def _named(out: dict, value: str) -> bool:
    return extract.occurs(
        value, extract.normalise(" \n ".join([o["id"] for o in out["objects"]] + out["settled"]))
    )


def _extracted_restored(check: _Check, out: dict) -> None:
    """Identifiers found by extraction survive: object ids as objects (or inside a settled
    entry), the visitor's values anywhere in the core."""
    hay = core_haystack(out)
    for t in check.turns:
        for f in extract.identifiers_extract(t["text"]):
            if never_kept_found(f.value) or never_kept_found(f"{f.kind} {f.value}"):
                # a turn stored before the rules knew this spelling: never add it back
                check.repairs["kept_out_never_kept"] += 1
                continue
            if f.kind in extract.ID_KINDS:
                if _named(out, f.value):
                    continue
                out["objects"].append({"kind": f.kind, "id": f.value, "label": ""})
            elif extract.occurs(f.value, hay):
                continue
            elif t["role"] != TurnRole.VISITOR:
                continue  # values named by the assistant are not the visitor's constraints
            elif any(_what_is(c["what"], f.kind) for c in out["constraints"]):
                check.repairs["superseded_not_restored"] += 1
                continue
            else:
                out["constraints"].append({"what": f.kind, "value": f.value, "turn": t["turn"]})
            check.repairs["restored"] += 1
            hay = core_haystack(out)


def _previous_objects_restored(check: _Check, out: dict, prev: dict) -> None:
    for o in prev["objects"]:
        if o["id"] and not _named(out, o["id"]):
            out["objects"].append(o)
            check.repairs["restored"] += 1


def _previous_constraints_restored(check: _Check, out: dict, prev: dict) -> None:
    """Constraints of the previous core survive too, unless this step settled a request (its
    constraints go with it) or a newer value of the same kind replaced them."""
    prev_settled = {extract.normalise(v) for v in prev["settled"]}
    if any(extract.normalise(v) not in prev_settled for v in out["settled"]):
        return
    hay = core_haystack(out)
    for c in prev["constraints"]:
        if (
            c["value"]
            and not extract.occurs(c["value"], hay)
            and not any(
                extract.normalise(n["what"]) == extract.normalise(c["what"])
                for n in out["constraints"]
            )
        ):
            out["constraints"].append(c)
            check.repairs["restored"] += 1
            hay = core_haystack(out)


def _capped(check: _Check, out: dict) -> None:
    for key, limit in CORE_LIMITS.items():
        if len(out[key]) > limit:
            check.repairs[f"{key}_capped"] += len(out[key]) - limit
            out[key] = out[key][-limit:]


def core_verify(
    *,
    data,
    previous: dict | None,
    turns: list[dict],
    through_seq: int,
    reference: dict | None = None,
) -> tuple[dict, dict]:
    """Check a proposed core against its sources. Returns (verified core, repairs: counts).

    `turns` are the condenser inputs (`{"turn", "role", "text"}`); `reference` is the
    extractive core of the same step, used where the proposal's request had to go."""
    prev = core_coerce(previous) if previous else core_empty()
    proposed = core_coerce(data)
    sources = (
        extract.normalise(" \n ".join(t["text"] for t in turns)) + " \n " + core_haystack(prev)
    )
    check = _Check(turns=turns, through_seq=through_seq, sources=sources)
    if not isinstance(data, dict) or set(data) != set(CORE_KEYS):
        check.repairs["shape_fixed"] += 1
    out = core_empty()
    out["request"] = _request(check, proposed, prev, reference)
    out["objects"] = _objects(check, proposed)
    out["constraints"] = _constraints(check, proposed, prev)
    out["corrections"] = _corrections(check, proposed)
    for key in ("open_points", "promises", "settled"):
        out[key] = _unique_lines(check, proposed[key])
    _corrections_applied(check, out)
    _settled_request_cleared(check, out)
    _extracted_restored(check, out)
    _previous_objects_restored(check, out, prev)
    _previous_constraints_restored(check, out, prev)
    if changed := lookup_states_apply(out=out, turns=turns):  # shop lookups' states
        check.repairs["lookup_states"] += changed
    _capped(check, out)
    core_provenance_apply(out=out, prev=prev, turns=turns, repairs=check.repairs)
    return out, dict(check.repairs)
