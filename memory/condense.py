"""Condensation: turns that left the verbatim window become the structured core.

The core is a form, not an essay (DESIGN.md): request, objects, constraints, open points,
promises, corrections, settled. It is built incrementally (previous core + the turns that
just left the window), by the model with structured output (`CORE_SCHEMA`), or, in demo
mode and as the last fallback, by the deterministic extractive condenser `core_extract`.
Either way it is verified (`core_verify`) before it is stored:

- every identifier and number in it occurs in the source turns or the previous core;
  invented ones are removed;
- identifiers found by deterministic extraction (memory/extract.py) survive even if the
  model drops them;
- payment data, credentials, redaction placeholders, contact and health details,
  third parties' details, guesses about the person and pleasantries are kept out;
- a correction replaces the current value and stays named; a settled request is not the
  current request.

A failed or rejected condensation never deletes or hides a turn: turns are never touched
here, and the previous core stays current until a verified one is stored.

Concurrency: one condensation per conversation at a time, by a cache lock (`cache.add`,
atomic SET NX on Redis via django-redis in production). Not `select_for_update` on the
conversation row: the model call takes seconds, and that row lock is the one every
`turn_append` takes, so it would hold up replies. Correctness does not rest on the lock:
storing re-checks, under a short row lock, that the new core covers more than the stored
one, so a run that lost a race (or a second delivery of the same task) stores nothing.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import re
import secrets
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy

from chatwidget import llm
from memory import extract
from memory.models import Conversation, Core, Turn, TurnRole
from memory.redaction import PLACEHOLDERS_BY_LANGUAGE, redact
from memory.tokens import count_tokens

log = logging.getLogger(__name__)

CORE_KEYS = ("request", "objects", "constraints", "open_points", "promises", "corrections",
             "settled")
_LIMITS = {"objects": 20, "constraints": 12, "open_points": 6, "promises": 8,
           "corrections": 8, "settled": 8}
_MAX_TEXT = 240

_STR = {"type": "string"}
_STRS = {"type": "array", "items": _STR}
CORE_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "required": list(CORE_KEYS),
    "properties": {
        "request": _STR,
        "objects": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["kind", "id", "label"],
            "properties": {"kind": _STR, "id": _STR, "label": _STR}}},
        "constraints": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["what", "value", "turn"],
            "properties": {"what": _STR, "value": _STR, "turn": {"type": "integer"}}}},
        "open_points": _STRS,
        "promises": _STRS,
        "corrections": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["was", "now", "turn"],
            "properties": {"was": _STR, "now": _STR, "turn": {"type": "integer"}}}},
        "settled": _STRS,
    },
}

CONDENSE_INSTRUCTIONS = """\
You keep the memory of a shop's chat assistant. You receive the previous condensed core of
a conversation (JSON, or null) and the turns that have just left the verbatim window, each
with its turn number. Return the new core: the previous core updated with these turns, in
the given JSON form. It is a form, not an essay.
- request: the visitor's current request in one sentence, in the visitor's own words.
- objects: named things with their identifiers exactly as written (article, order,
  contract, customer numbers, model designations, appointments); label: a few words.
- constraints: what narrows the answer (size, colour, quantity, deadline, budget,
  language, preferred channel), each with the turn number where it was stated.
- open_points: what was asked and not answered yet.
- promises: what the shop or assistant promised (a call back, a handover, a refund).
- corrections: when a detail is corrected, use the new value everywhere and record
  {"was": old, "now": new, "turn": n}.
- settled: when a request is done, move it here in one line with its identifiers, and
  start the next request fresh; it must not stay in request.
Never include: pleasantries; payment data, passwords, PINs, codes or placeholders such as
"[card number removed]"; health details; names or contact details of other people; contact
details; guesses about the person (mood, solvency, intent).
Never invent an identifier or a number: copy only what occurs in the turns or the previous
core. Keep every identifier that still matters. Write in the visitor's language."""

CONTACT_OMITTED = "[contact detail omitted]"
HEALTH_OMITTED = "[health detail omitted]"
_CONTACT_KINDS = frozenset({"email", "phone", "iban", "address"})

QUEUED_KEY = "condense:queued:{}"
LOCK_KEY = "condense:lock:{}"


class CondenseBusy(Exception):
    """Another condensation of this conversation holds the lock; try again later."""


# --------------------------------------------------------------------------------------
# Input: what a condenser sees of a turn
# --------------------------------------------------------------------------------------


def turn_text_for_core(*, text: str, spans: Iterable, health: bool = False) -> str:
    """The turn text with contact and health details replaced, so neither the model nor the
    extractive condenser can carry them into the core. Never-kept values (cards, codes,
    passwords) are already placeholders in stored text."""
    replaced = []
    for span in spans or ():
        kind, start, end = span[0], int(span[1]), int(span[2])
        if kind in _CONTACT_KINDS:
            replaced.append((start, end, CONTACT_OMITTED))
        elif kind == "health":
            replaced.append((start, end, HEALTH_OMITTED))
    if health and not any(r[2] == HEALTH_OMITTED for r in replaced):
        return HEALTH_OMITTED  # flagged without a span: keep the whole turn out
    out, cursor = [], 0
    for start, end, marker in sorted(replaced):
        if start < cursor or end > len(text):
            return HEALTH_OMITTED if health else CONTACT_OMITTED  # inconsistent: fail closed
        out.append(text[cursor:start])
        out.append(marker)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def _turn_inputs(turns: Iterable[Turn]) -> list[dict]:
    return [
        {"turn": t.seq, "role": t.role,
         "text": turn_text_for_core(text=t.text, spans=t.spans, health=t.health)}
        for t in turns
    ]


def condense_messages_build(*, previous: dict | None, turns: list[dict]) -> list[dict]:
    """The model call of one condensation step (also used by the benchmark to count)."""
    payload = {"previous_core": previous, "turns": turns}
    return [
        {"role": "system", "content": CONDENSE_INSTRUCTIONS},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]


# --------------------------------------------------------------------------------------
# Shape
# --------------------------------------------------------------------------------------


def core_empty() -> dict:
    return {"request": "", "objects": [], "constraints": [], "open_points": [], "promises": [],
            "corrections": [], "settled": []}


def _s(value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        value = str(value)
    return " ".join(value.split())[:_MAX_TEXT]


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
    out["request"] = _s(data.get("request"))
    for item in data.get("objects") or []:
        if isinstance(item, dict):
            out["objects"].append({"kind": _s(item.get("kind"))[:30].lower(),
                                   "id": _s(item.get("id"))[:60], "label": _s(item.get("label"))[:80]})
    for item in data.get("constraints") or []:
        if isinstance(item, dict):
            out["constraints"].append({"what": _s(item.get("what"))[:40],
                                       "value": _s(item.get("value"))[:120],
                                       "turn": _int(item.get("turn"))})
    for item in data.get("corrections") or []:
        if isinstance(item, dict):
            out["corrections"].append({"was": _s(item.get("was"))[:120],
                                       "now": _s(item.get("now"))[:120],
                                       "turn": _int(item.get("turn"))})
    for key in ("open_points", "promises", "settled"):
        out[key] = [_s(v) for v in (data.get(key) or []) if isinstance(v, (str, int, float))]
    return out


def core_strings(data: dict) -> Iterator[str]:
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
    for key in ("open_points", "promises", "settled"):
        yield from data.get(key, [])


def _core_haystack(data: dict) -> str:
    return extract.normalise(" \n ".join(core_strings(data)))


# --------------------------------------------------------------------------------------
# What never goes into a core
# --------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(
    r"\[[^\]\n]{0,40}\b(?:removed|entfernt|omitted|ausgelassen)\]"
    + "|" + "|".join(re.escape(p) for d in PLACEHOLDERS_BY_LANGUAGE.values() for p in d.values()),
    re.IGNORECASE,
)
_PLEASANTRY = re.compile(
    r"^(?:the )?(?:visitor |customer |user )?(?:hi|hello|hey|hallo|moin|servus|greeted\b.*"
    r"|said (?:hello|hi|thanks|thank you|goodbye)\b.*|good (?:morning|afternoon|evening)"
    r"|guten (?:tag|morgen|abend)|thanks?(?: you)?(?: (?:a lot|so much|very much))?|danke"
    r"(?: sch(?:ö|oe)n| sehr)?|vielen dank|bye|goodbye|tsch(?:ü|ue)ss|ok(?:ay)?|great|super"
    r"|perfect|perfekt|prima|you'?re welcome|gern(?:e|geschehen)?)[\s,.!]*$",
    re.IGNORECASE,
)
_GUESS = re.compile(
    r"\b(?:seems|appears|sounds|looks|wirkt|scheint)\b[^.;]{0,30}\b(?:angry|annoyed|frustrated|"
    r"upset|impatient|rude|nervous|stressed|confused|rich|wealthy|poor|broke|suspicious|"
    r"verärgert|genervt|wütend|ungeduldig|unhöflich|nervös|gestresst|reich|arm|pleite|"
    r"verdächtig)\b"
    r"|\b(?:visitor|customer|user|person|kunde|kundin|besucher(?:in)?|he|she|er|sie)\b[^.;]{0,20}"
    r"\b(?:is|ist|probably|likely|wahrscheinlich|vermutlich)\b[^.;]{0,20}\b(?:angry|annoyed|"
    r"frustrated|upset|impatient|rude|rich|wealthy|poor|broke|can'?t afford|cannot afford|"
    r"lying|suspicious|a fraud|verärgert|genervt|wütend|ungeduldig|unhöflich|reich|arm|pleite|"
    r"lügt|verdächtig)\b"
    r"|\b(?:can'?t|cannot) afford\b|\b(?:low|poor|bad) (?:credit|solvency)\b|\bzahlungsunfähig",
    re.IGNORECASE,
)
_THIRD_PARTY = re.compile(
    # "my wife Anna", "our neighbour Tom's": a relation word directly followed by a name
    r"(?i:\b(?:my|his|her|our|their)\s(?:wife|husband|partner|neighbou?r|friend|colleague|boss|"
    r"mother|father|mum|mom|dad|sister|brother|son|daughter|aunt|uncle|grandma|grandpa)"
    r"(?:'s)?\s)(?!(?:Size|Order|Article)\b)[A-Z][a-z]{2,}"
    # "Mrs Miller", "Herr Schmidt" (not "meine Frau Größe ...")
    r"|\b(?:Mr|Mrs|Ms|Miss|Dr|Herrn?)\.?\s[A-ZÄÖÜ][a-zäöüß]{2,}"
    r"|(?<!meine )(?<!seine )(?<!ihre )(?<!eine )(?<!unsere )(?<!Meine )(?<!Ihre )\bFrau\s"
    r"(?:Dr\.\s)?[A-ZÄÖÜ][a-zäöüß]{2,}(?=[\s,.;!?]|$)(?!\s(?:[A-Z]{1,3}|\d))",
)


def core_value_forbidden(text: str) -> str | None:
    """Why `text` may not be a core value, or None when it may."""
    if _PLACEHOLDER.search(text):
        return "placeholder"
    if _PLEASANTRY.match(text.strip()):
        return "pleasantry"
    if _GUESS.search(text):
        return "guess"
    if _THIRD_PARTY.search(text):
        return "third_party"
    found = redact(text)
    if found.removed:
        return "payment_or_credential"
    if found.findings.get("health"):
        return "health"
    if any(kind in found.findings for kind in _CONTACT_KINDS):
        return "contact"
    return None


# --------------------------------------------------------------------------------------
# Verification
# --------------------------------------------------------------------------------------

_KIND_WORDS = {
    extract.SIZE: ("size", "größe", "groesse", "gr."),
    extract.COLOUR: ("colour", "color", "farbe"),
    extract.QUANTITY: ("quantity", "amount", "number", "menge", "anzahl", "stück", "pieces"),
    extract.DATE: ("date", "deadline", "delivery", "by", "datum", "termin", "lieferung", "bis",
                   "appointment", "when"),
}


def _what_is(what: str, kind: str) -> bool:
    words = extract.normalise(what)
    return kind in words or any(w in words for w in _KIND_WORDS.get(kind, ()))


def core_verify(*, data, previous: dict | None, turns: list[dict], through_seq: int,
                reference: dict | None = None) -> tuple[dict, dict]:
    """Check a proposed core against its sources. Returns (verified core, repairs: counts).

    `turns` are the condenser inputs (`{"turn", "role", "text"}`); `reference` is the
    extractive core of the same step, used where the proposal's request had to go."""
    repairs: Counter = Counter()
    prev = core_coerce(previous) if previous else core_empty()
    proposed = core_coerce(data)
    if not isinstance(data, dict) or set(data) != set(CORE_KEYS):
        repairs["shape_fixed"] += 1
    sources = extract.normalise(" \n ".join(t["text"] for t in turns)) + " \n " + \
        _core_haystack(prev)
    first_seq = min((t["turn"] for t in turns), default=1)

    def ok(text: str) -> bool:
        if not text:
            return True
        reason = core_value_forbidden(text)
        if reason:
            repairs[f"kept_out_{reason}"] += 1
            return False
        invented = [tok for tok in extract.numberish_tokens(text)
                    if not extract.occurs(tok, sources)]
        if invented:
            repairs["invented_removed"] += 1
            return False
        return True

    def fix_turn(turn: int, value: str, fallback: int = 0) -> int:
        if 1 <= turn <= through_seq:
            return turn
        repairs["turn_fixed"] += 1
        for t in turns:
            if value and extract.occurs(value, extract.normalise(t["text"])):
                return t["turn"]
        return fallback if 1 <= fallback <= through_seq else first_seq

    out = core_empty()
    # request
    request = proposed["request"]
    if request and not ok(request):
        request = ""
    if not request:
        for candidate in ((reference or {}).get("request", ""), prev["request"]):
            if candidate and ok(candidate):
                request = candidate
                break
    out["request"] = request
    # objects
    seen_ids: set[str] = set()
    for o in proposed["objects"]:
        key = extract.normalise(o["id"])
        if not o["id"] or key in seen_ids or not ok(o["id"]):
            continue
        if extract.numberish_tokens(o["id"]) or extract.occurs(o["id"], sources):
            seen_ids.add(key)
            out["objects"].append({"kind": o["kind"] or "object", "id": o["id"],
                                   "label": o["label"] if ok(o["label"]) else ""})
        else:
            repairs["invented_removed"] += 1
    # constraints and corrections
    prev_turns = {extract.normalise(c["value"]): c["turn"] for c in prev["constraints"]}
    for c in proposed["constraints"]:
        if c["value"] and ok(c["value"]) and ok(c["what"]):
            c["turn"] = fix_turn(c["turn"], c["value"],
                                 prev_turns.get(extract.normalise(c["value"]), 0))
            out["constraints"].append(c)
    for c in proposed["corrections"]:
        if c["now"] and ok(c["now"]) and ok(c["was"]):
            c["turn"] = fix_turn(c["turn"], c["now"])
            out["corrections"].append(c)
    for key in ("open_points", "promises", "settled"):
        seen: set[str] = set()
        for value in proposed[key]:
            norm = extract.normalise(value)
            if value and norm not in seen and ok(value):
                seen.add(norm)
                out[key].append(value)

    # a correction replaces the current value
    for corr in out["corrections"]:
        was = extract.normalise(corr["was"])
        if not was:
            continue
        for c in out["constraints"]:
            if extract.normalise(c["value"]) == was:
                c["value"] = corr["now"]
                repairs["correction_applied"] += 1
        if was in extract.normalise(out["request"]):
            out["request"] = re.sub(re.escape(corr["was"]), corr["now"], out["request"],
                                    flags=re.IGNORECASE)
            repairs["correction_applied"] += 1
    # a settled request is not the current one
    req = extract.normalise(out["request"])
    if req and any(extract.normalise(s).startswith(req) for s in out["settled"]):
        out["request"] = ""
        repairs["settled_request_cleared"] += 1

    # identifiers found by extraction survive: object ids as objects (or inside a settled
    # entry), values anywhere in the core
    hay = _core_haystack(out)

    def named(value: str) -> bool:
        return extract.occurs(value, extract.normalise(" \n ".join(
            [o["id"] for o in out["objects"]] + out["settled"])))

    for t in turns:
        for f in extract.identifiers_extract(t["text"]):
            if f.kind in extract.ID_KINDS:
                if named(f.value):
                    continue
                out["objects"].append({"kind": f.kind, "id": f.value, "label": ""})
            elif extract.occurs(f.value, hay):
                continue
            elif t["role"] != TurnRole.VISITOR:
                continue  # values named by the assistant are not the visitor's constraints
            elif any(_what_is(c["what"], f.kind) for c in out["constraints"]):
                repairs["superseded_not_restored"] += 1
                continue
            else:
                out["constraints"].append({"what": f.kind, "value": f.value, "turn": t["turn"]})
            repairs["restored"] += 1
            hay = _core_haystack(out)
    for o in prev["objects"]:
        if o["id"] and not named(o["id"]):
            out["objects"].append(o)
            repairs["restored"] += 1
            hay = _core_haystack(out)
    # constraints of the previous core survive too, unless this step settled a request (its
    # constraints go with it) or a newer value of the same kind replaced them
    prev_settled = {extract.normalise(v) for v in prev["settled"]}
    if not any(extract.normalise(v) not in prev_settled for v in out["settled"]):
        for c in prev["constraints"]:
            if c["value"] and not extract.occurs(c["value"], hay) and not any(
                    extract.normalise(n["what"]) == extract.normalise(c["what"])
                    for n in out["constraints"]):
                out["constraints"].append(c)
                repairs["restored"] += 1
                hay = _core_haystack(out)
    for key, limit in _LIMITS.items():
        if len(out[key]) > limit:
            repairs[f"{key}_capped"] += len(out[key]) - limit
            out[key] = out[key][-limit:]
    return out, dict(repairs)


# --------------------------------------------------------------------------------------
# The extractive condenser (deterministic, no model)
# --------------------------------------------------------------------------------------

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-ZÄÖÜ\"„“])|\n+")
_GREETING = re.compile(
    r"^(?:hi|hello|hey|hallo|moin|servus|good (?:morning|afternoon|evening)|guten (?:tag|morgen|"
    r"abend))(?:\s+there)?[\s,!.:-]+", re.IGNORECASE)
_SETTLE = re.compile(
    r"\b(?:that'?s (?:all|settled|solved|sorted|done)|that (?:solved|settles|answers) it|"
    r"problem solved|all (?:good|sorted|set)(?!\?)|hat sich erledigt|(?:das|damit) ist erledigt|"
    r"passt,? danke|das war'?s|"
    r"alles klar,? danke)\b", re.IGNORECASE)
_SUBJECT = re.compile(
    r"\b(?:new question|another question|different question|something else|one more thing|"
    r"neue frage|andere frage|noch eine frage|etwas anderes|was anderes)\b[\s:,.!-]*",
    re.IGNORECASE)
_DONE = re.compile(
    r"\b(?:has been|have been|was|were|is now|are now)\s(?:\w+\s)?(?:sent|issued|refunded|"
    r"cancelled|canceled|shipped|booked|processed|changed|updated|created|arranged|resolved)\b"
    r"|\bwurden?\s(?:\w+\s){0,3}(?:versendet|verschickt|storniert|erstattet|gebucht|geändert|"
    r"angelegt|bearbeitet|erledigt)\b", re.IGNORECASE)
_PROMISE = re.compile(
    r"\b(?:I|we)(?:'ll|\swill|\sshall)\b|\bwe(?:'re|\sare) going to\b|\b(?:ich|wir)\s"
    r"(?:werde|werden|melden)\b|\bcall you back\b|\bzurückrufen\b|\brufen\s(?:Sie|dich)\s"
    r"(?:\w+\s){0,4}zurück\b|\bmelden uns\b", re.IGNORECASE)
_CORRECTIONS = (
    re.compile(r"\bnot (?P<was>[^,.;!?]{2,40}?),? but (?P<now>[^,.;!?]{2,40})", re.IGNORECASE),
    re.compile(r"\bnicht (?P<was>[^,.;!?]{2,40}?),? sondern (?P<now>[^,.;!?]{2,40})",
               re.IGNORECASE),
    re.compile(r"\b(?:actually|correction|i mean|i meant|rather|eigentlich|korrektur|besser)\b"
               r"[,:]?\s(?:it'?s\s|it is\s|it should be\s|make (?:it|that)\s|ist es\s|es ist\s"
               r"|doch\s)?(?P<now>[^,.;!?]{2,60}?)(?:,?\s(?:and\s)?(?:not|nicht) "
               r"(?P<was>[^,.;!?]{2,40}))?(?=[,.;!?]|$)", re.IGNORECASE),
    re.compile(r"\b(?P<now>[^,.;!?]{2,40}?) (?:instead of|statt|anstatt|anstelle von) "
               r"(?P<was>[^,.;!?]{2,40})", re.IGNORECASE),
    re.compile(r"\bdoch nicht (?P<was>[^,.;!?]{2,40}?)(?:,? sondern (?P<now>[^,.;!?]{2,40}))?"
               r"(?=[,.;!?]|$)", re.IGNORECASE),
)
_CUE = re.compile(r"\b(?:actually|correction|not|but|rather|instead|change|i mean|i meant|"
                  r"eigentlich|nicht|sondern|statt|doch|ändern|lieber)\b", re.IGNORECASE)
_PREPOSITION = re.compile(r"^(for|in|to|at|by|on|with|für|nach|bis|am|im|mit)\s", re.IGNORECASE)
_LABEL_STOP = frozenset("the a an of for in to and or my your our this that is it with "
                        "no nr number nummer article art order item der die das ein eine "
                        "und oder mein meine ihr ihre von für mit i we you need want like "
                        "would have take buy looking about ich wir brauche möchte suche "
                        "habe nehme kaufe".split())


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if s and s.strip()]


def _usable(sentence: str) -> bool:
    return not (_PLACEHOLDER.search(sentence) or _PLEASANTRY.match(sentence)
                or HEALTH_OMITTED in sentence or CONTACT_OMITTED in sentence)


def _first_request(text: str) -> str:
    for sentence in _sentences(_GREETING.sub("", text.strip())):
        sentence = _GREETING.sub("", sentence)
        if _usable(sentence) and len(sentence.split()) >= 2:
            return _s(sentence)[:200]
    return ""


def _label_before(text: str, start: int) -> str:
    head = re.split(r"[.!?\n:;(]", text[:start])[-1]
    head = re.split(r"\b\d+\.\s|,", head)[-1]
    words = re.findall(r"[A-Za-zÄÖÜäöüß-]+", head)[-4:]
    while words and words[0].lower() in _LABEL_STOP:
        words.pop(0)
    while words and words[-1].lower() in _LABEL_STOP:
        words.pop()
    return " ".join(words)[:60]


def _clean_phrase(value: str | None) -> str:
    return _s((value or "").strip(" ,.-–"))


def core_extract(*, previous: dict | None, turns: list[dict]) -> dict:
    """Deterministic condensation: previous core + turns -> core. Pure function of plain data
    (`turns`: `{"turn", "role", "text"}` with contact and health details already replaced)."""
    core = core_coerce(copy.deepcopy(previous)) if previous else core_empty()
    pending_questions: list[str] = []
    saw_visitor = False
    for t in turns:
        seq, role, text = t["turn"], t["role"], t["text"]
        if role == TurnRole.SYSTEM:
            continue
        found = extract.identifiers_extract(text)
        if role == TurnRole.VISITOR:
            saw_visitor = True
            pending_questions = []
            _extract_visitor(core, seq=seq, text=text, found=found)
        else:  # assistant or staff
            for sentence in _sentences(text):
                if not _usable(sentence):
                    continue
                if sentence.endswith("?"):
                    pending_questions.append(_s(sentence)[:160])
                elif _DONE.search(sentence):
                    core["settled"].append(f"{_s(sentence)[:180]} (turn {seq})")
                elif _PROMISE.search(sentence):
                    core["promises"].append(_s(sentence)[:180])
        for f in found:
            if f.kind in extract.ID_KINDS and not any(
                    extract.normalise(o["id"]) == extract.normalise(f.value)
                    for o in core["objects"]):
                core["objects"].append({"kind": f.kind, "id": f.value,
                                        "label": _label_before(text, f.start)})
    if saw_visitor:
        core["open_points"] = []
    core["open_points"] = (core["open_points"] + pending_questions)[-_LIMITS["open_points"]:]
    return core


def _extract_visitor(core: dict, *, seq: int, text: str, found: list) -> None:
    subject = _SUBJECT.search(text)
    settle = _SETTLE.search(text)
    if subject or settle:
        if core["request"]:
            ids = [o["id"] for o in core["objects"]
                   if not extract.occurs(o["id"], extract.normalise(core["request"]))]
            extra = f" [{', '.join(ids)}]" if ids else ""
            core["settled"].append(f"{core['request']}{extra} (settled, turn {seq})")
        core["request"] = ""
        for key in ("objects", "constraints", "open_points", "corrections"):
            core[key] = []
        rest = text[subject.end():] if subject else ""
        core["request"] = _first_request(rest)
        if subject:
            found = [f for f in found if f.start >= subject.end()]
        else:
            return
    elif not core["request"]:
        core["request"] = _first_request(text)
    cue = _CUE.search(text) is not None
    # corrections named by the visitor
    for pattern in _CORRECTIONS:
        for m in pattern.finditer(text):
            now = _clean_phrase(m.groupdict().get("now"))
            was = _clean_phrase(m.groupdict().get("was"))
            if not now and not was:
                continue
            if not was:
                prep = _PREPOSITION.match(now)
                hit = re.search(rf"\b{prep.group(1)}\s[^,.;!?]{{1,30}}", core["request"],
                                re.IGNORECASE) if prep else None
                was = _clean_phrase(hit.group(0)) if hit else ""
            if not was or extract.normalise(was) == extract.normalise(now):
                continue
            core["corrections"].append({"was": was, "now": now or "", "turn": seq})
            if now and extract.normalise(was) in extract.normalise(core["request"]):
                core["request"] = re.sub(re.escape(was), now, core["request"],
                                         flags=re.IGNORECASE)
    # constraints: the newest value of a kind replaces the older one
    for f in found:
        if f.kind not in extract.VALUE_KINDS:
            continue
        existing = next((c for c in core["constraints"] if c["what"] == f.kind), None)
        if existing is None:
            core["constraints"].append({"what": f.kind, "value": f.value, "turn": seq})
        elif extract.normalise(existing["value"]) != extract.normalise(f.value):
            if cue:
                core["corrections"].append({"was": existing["value"], "now": f.value,
                                            "turn": seq})
            existing["value"], existing["turn"] = f.value, seq


# --------------------------------------------------------------------------------------
# Rendering (what the model is sent; counted once when the core is stored)
# --------------------------------------------------------------------------------------


# The core's sections as staff read them (admin conversation and case pages), in form order.
CORE_LABELS = (
    ("request", gettext_lazy("Request")),
    ("objects", gettext_lazy("Objects")),
    ("constraints", gettext_lazy("Constraints")),
    ("open_points", gettext_lazy("Open points")),
    ("promises", gettext_lazy("Promises")),
    ("corrections", gettext_lazy("Corrections")),
    ("settled", gettext_lazy("Settled")),
)


def core_render(*, data: dict, covers_through: int) -> str:
    lines = [
        f"Current state of this conversation (condensed from turns 1–{covers_through}; this is "
        "the current state, newer turns below override it):"
    ]
    if data.get("request"):
        lines.append(f"Request: {data['request']}")
    if data.get("objects"):
        lines.append("Objects: " + "; ".join(
            f"{o['kind']} {o['id']}" + (f" ({o['label']})" if o.get("label") else "")
            for o in data["objects"]))
    if data.get("constraints"):
        lines.append("Constraints: " + "; ".join(
            f"{c['what']}: {c['value']}" + (f" (turn {c['turn']})" if c.get("turn") else "")
            for c in data["constraints"]))
    if data.get("open_points"):
        lines.append("Open points: " + "; ".join(data["open_points"]))
    if data.get("promises"):
        lines.append("Promises: " + "; ".join(data["promises"]))
    if data.get("corrections"):
        lines.append("Corrections: " + "; ".join(
            (f"was '{c['was']}', now '{c['now']}'" if c.get("was") else f"now '{c['now']}'")
            + (f" (turn {c['turn']})" if c.get("turn") else "")
            for c in data["corrections"]))
    if data.get("settled"):
        lines.append("Settled: " + "; ".join(data["settled"]))
    if len(lines) == 1:
        lines.append("(nothing to carry over)")
    return "\n".join(lines)


def core_render_within(*, data: dict, covers_through: int, max_tokens: int,
                       model: str) -> tuple[str, int, int]:
    """Render, dropping the least current items (oldest settled, corrections, open points,
    promises, constraints, objects) until it fits. Returns (text, tokens, items dropped)."""
    data = copy.deepcopy(data)
    dropped = 0
    while True:
        text = core_render(data=data, covers_through=covers_through)
        tokens = count_tokens(text, model=model)
        if tokens <= max_tokens:
            return text, tokens, dropped
        for key in ("settled", "corrections", "open_points", "promises", "constraints",
                    "objects"):
            if data[key]:
                data[key].pop(0)
                dropped += 1
                break
        else:
            if data["request"]:
                data["request"] = ""
                dropped += 1
                continue
            return text, tokens, dropped


# --------------------------------------------------------------------------------------
# The model call, from sync code
# --------------------------------------------------------------------------------------

_loop_guard = threading.Lock()
_loop_state: dict = {}


def _background_loop() -> asyncio.AbstractEventLoop:
    """One event loop per process for model calls from code that has none (the Celery
    worker, management commands). The cached AsyncOpenAI client keeps connections bound to
    the loop that opened them, so every call of a process must use the same loop."""
    with _loop_guard:
        loop = _loop_state.get("loop")
        if loop is None or loop.is_closed() or _loop_state.get("pid") != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, daemon=True,
                             name="condense-model-loop").start()
            _loop_state.update(loop=loop, pid=os.getpid())
        return loop


def _model_complete(*, messages: list[dict], model: str) -> tuple[dict, dict]:
    from asgiref.sync import SyncToAsync, async_to_sync

    local = SyncToAsync.threadlocal
    main = getattr(local, "main_event_loop", None)
    if main is not None and main.is_running() and \
            getattr(local, "main_event_loop_pid", None) == os.getpid():
        # Called from the server through database_sync_to_async: run on the server's loop,
        # where the streaming client lives too.
        return async_to_sync(llm.complete_json)(messages=messages, model=model,
                                                schema=CORE_SCHEMA)
    future = asyncio.run_coroutine_threadsafe(
        llm.complete_json(messages=messages, model=model, schema=CORE_SCHEMA),
        _background_loop(),
    )
    try:
        return future.result(timeout=settings.MEMORY_CONDENSE_MODEL_TIMEOUT_SECONDS)
    except TimeoutError:
        future.cancel()
        raise llm.ModelUnavailable("condensation timed out") from None


# --------------------------------------------------------------------------------------
# Services
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    data: dict
    covers_through: int
    source: str
    prompt_tokens: int
    completion_tokens: int
    repairs: dict
    base_version: int = 0  # the core version this step was built on


def _site_model(site) -> str:
    return site.model_name or settings.CHAT_MODEL


@contextmanager
def _condense_lock(conversation_id: int, *, required: bool) -> Iterator[bool]:
    key = LOCK_KEY.format(conversation_id)
    token = secrets.token_hex(8)
    held = bool(cache.add(key, token, timeout=settings.MEMORY_CONDENSE_LOCK_SECONDS))
    if not held and required:
        raise CondenseBusy(conversation_id)
    try:
        yield held
    finally:
        if held and cache.get(key) == token:
            cache.delete(key)


def verbatim_window(site) -> int:  # noqa: ANN001
    """Turns kept word for word: the site's window, and never fewer than the guaranteed
    minimum exchanges plus the request."""
    return max(site.verbatim_window_turns, 2 * site.verbatim_min_exchanges + 1)


def condense_target(*, conversation_id: int, window_turns: int) -> int:
    """The seq through which the core should cover: every turn older than the newest
    `window_turns` turns (0: nothing has left the window)."""
    row = (Turn.objects.filter(conversation_id=conversation_id).order_by("-seq")
           .values_list("seq", flat=True)[window_turns:window_turns + 1])
    row = list(row)
    return row[0] if row else 0


def _condense_step(*, conversation, site, previous: Core | None, turns: list[Turn],
                   use_model: bool, fallback: bool, inline: bool) -> _Step:
    inputs = _turn_inputs(turns)
    prev_data = previous.data if previous else None
    through = turns[-1].seq
    reference = core_extract(previous=prev_data, turns=inputs)
    usage = {"prompt": 0, "completion": 0}
    notes: Counter = Counter()
    source = Core.Source.INLINE if inline else Core.Source.EXTRACTIVE
    proposal = reference
    if use_model:
        try:
            proposal, usage = _model_complete(
                messages=condense_messages_build(previous=prev_data, turns=inputs),
                model=_site_model(site),
            )
            if not inline:
                source = Core.Source.MODEL
        except llm.ModelUnavailable:
            if not fallback:
                raise
            notes["model_unavailable_extractive_fallback"] += 1
            log.warning("condensation model unavailable; extractive fallback",
                        extra={"conversation": conversation.pk})
    data, repairs = core_verify(data=proposal, previous=prev_data, turns=inputs,
                                through_seq=through, reference=reference)
    repairs = dict(Counter(repairs) + notes)
    return _Step(data=data, covers_through=through, source=source,
                 prompt_tokens=int(usage.get("prompt", 0)),
                 completion_tokens=int(usage.get("completion", 0)), repairs=repairs,
                 base_version=previous.version if previous else 0)


def _core_store(*, conversation_id: int, step: _Step, model: str) -> Core | None:
    data = step.data
    rendered = core_render(data=data, covers_through=step.covers_through)
    tokens = count_tokens(rendered, model=model)
    with transaction.atomic():
        conv = (Conversation.objects.select_for_update()
                .only("condensed_through_seq", "core_version").filter(pk=conversation_id).first())
        if conv is None or conv.condensed_through_seq >= step.covers_through:
            return None  # erased, or another run already got this far
        if conv.core_version > step.base_version:
            # A version was added while this step ran (a call-back promise at handover):
            # carry its promises forward instead of silently dropping them.
            data = _promises_merged(data=data, conversation_id=conversation_id)
            rendered = core_render(data=data, covers_through=step.covers_through)
            tokens = count_tokens(rendered, model=model)
        version = conv.core_version + 1
        core = Core.objects.create(
            conversation_id=conversation_id, version=version, data=data,
            covers_through_seq=step.covers_through, token_count=tokens, source=step.source,
            condense_prompt_tokens=step.prompt_tokens,
            condense_completion_tokens=step.completion_tokens, repairs=step.repairs,
        )
        Conversation.objects.filter(pk=conversation_id).update(
            core_version=version, condensed_through_seq=step.covers_through)
        from memory.profiles import profile_update_from_core  # recognition: light facts

        transaction.on_commit(lambda: profile_update_from_core(conversation_id=conversation_id),
                              robust=True)
    log.info("core stored", extra={"conversation": conversation_id, "version": version,
                                   "covers_through": step.covers_through, "tokens": tokens,
                                   "source": step.source, "repairs": step.repairs})
    return core


def _promises_merged(*, data: dict, conversation_id: int) -> dict:
    latest = core_latest(conversation_id=conversation_id)
    if latest is None:
        return data
    merged = dict(data)
    promises = list(merged.get("promises") or [])
    settled = set(merged.get("settled") or [])
    for promise in latest.data.get("promises") or []:
        if promise not in promises and promise not in settled:
            promises.append(promise)
    merged["promises"] = promises
    return merged


def core_latest(*, conversation_id: int) -> Core | None:
    return Core.objects.filter(conversation_id=conversation_id).order_by("-version").first()


def core_condense(*, conversation_id: int, through_seq: int | None = None,
                  fallback: bool = False, inline: bool = False) -> Core | None:
    """Bring the core up to `through_seq` (default: every turn older than the verbatim
    window). Incremental, chunked by tokens, verified, stored per chunk.

    Idempotent: when the core already covers the target, nothing happens (returns None).
    Raises `CondenseBusy` when another run holds the lock (not for `inline`), and
    `ModelUnavailable` when the model fails and `fallback` is false: the caller retries;
    every turn and the stored core stay as they are."""
    cache.delete(QUEUED_KEY.format(conversation_id))
    conv = (Conversation.objects.select_related("site")
            .only("condensed_through_seq", "core_version", "site").filter(pk=conversation_id)
            .first())
    if conv is None:
        return None
    site = conv.site
    target = through_seq if through_seq is not None else condense_target(
        conversation_id=conversation_id, window_turns=verbatim_window(site))
    if target <= conv.condensed_through_seq:
        return None
    use_model = not settings.DEMO_MODE
    model = _site_model(site)
    stored: Core | None = None
    with _condense_lock(conversation_id, required=not inline):
        previous = core_latest(conversation_id=conversation_id)
        cursor = previous.covers_through_seq if previous else 0
        while cursor < target:
            chunk = _chunk(conversation_id=conversation_id, after=cursor, through=target)
            if not chunk:
                break
            step = _condense_step(conversation=conv, site=site, previous=previous, turns=chunk,
                                  use_model=use_model, fallback=fallback or inline,
                                  inline=inline)
            core = _core_store(conversation_id=conversation_id, step=step, model=model)
            if core is None:
                return core_latest(conversation_id=conversation_id) if inline else stored
            stored = previous = core
            cursor = core.covers_through_seq
    return stored


def _chunk(*, conversation_id: int, after: int, through: int) -> list[Turn]:
    rows = list(Turn.objects.filter(conversation_id=conversation_id, seq__gt=after,
                                    seq__lte=through)
                .order_by("seq")
                .only("seq", "role", "text", "spans", "health", "token_count")
                [:settings.MEMORY_CONDENSE_CHUNK_TURNS])
    chunk, tokens = [], 0
    for turn in rows:
        if chunk and tokens + turn.token_count > settings.MEMORY_CONDENSE_CHUNK_TOKENS:
            break
        chunk.append(turn)
        tokens += turn.token_count
    return chunk


def core_refresh_inline(*, conversation_id: int, through_seq: int | None = None) -> Core | None:
    """Condense now, in the caller's process, before a model call or at handover.

    Default target: every turn of the conversation. Uses the model when one is configured
    and falls back to the extractive condenser if it fails, so it always yields a core.
    Returns the current core (new or already covering the target), or None if there are no
    turns to cover."""
    if through_seq is None:
        through_seq = (Turn.objects.filter(conversation_id=conversation_id)
                       .order_by("-seq").values_list("seq", flat=True).first() or 0)
    core = core_condense(conversation_id=conversation_id, through_seq=through_seq,
                         fallback=True, inline=True)
    return core or core_latest(conversation_id=conversation_id)


def condense_schedule_if_due(*, conversation_id: int) -> bool:
    """After a committed turn: enqueue a condensation when at least `condense_after_turns`
    uncovered turns lie outside the verbatim window. Two bounded queries; never raises
    (a failed enqueue is caught up by `condense_lagging` or inline before a call)."""
    row = (Conversation.objects.filter(pk=conversation_id)
           .values_list("condensed_through_seq", "site__verbatim_window_turns",
                        "site__verbatim_min_exchanges", "site__condense_after_turns").first())
    if row is None:
        return False
    covered, window, min_exchanges, after = row
    window = max(window, 2 * min_exchanges + 1)
    nth = (Turn.objects.filter(conversation_id=conversation_id, seq__gt=covered)
           .order_by("-seq").values_list("seq", flat=True)[window + after - 1:window + after])
    if not list(nth):
        return False
    if not cache.add(QUEUED_KEY.format(conversation_id), 1,
                     timeout=settings.MEMORY_CONDENSE_QUEUED_SECONDS):
        return False  # one is queued already
    transaction.on_commit(lambda: _enqueue(conversation_id))
    return True


def _enqueue(conversation_id: int) -> None:
    from chatwidget.celery import app

    name = "memory.tasks.condense_conversation"
    policy = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
    try:
        task = app.tasks.get(name) if name in app.tasks else None
        if task is not None:
            task.apply_async(args=[conversation_id], retry_policy=policy)
        else:  # services do not import tasks: send by name
            app.send_task(name, args=[conversation_id], retry_policy=policy)
    except Exception as exc:  # the broker is down: the turn is committed, catch up later
        cache.delete(QUEUED_KEY.format(conversation_id))
        log.warning("condensation not enqueued", extra={"conversation": conversation_id,
                                                         "error": type(exc).__name__})


def conversation_ids_lagging(*, limit: int = 500) -> list[int]:
    """Recently active conversations with more uncovered turns than window + threshold
    (approximate: seqs may have gaps; the task itself computes exactly)."""
    since = timezone.now() - timedelta(hours=settings.MEMORY_CONDENSE_LAGGING_HOURS)
    return list(
        Conversation.objects.filter(last_activity_at__gte=since)
        .filter(next_seq__gt=F("condensed_through_seq") + F("site__verbatim_window_turns")
                + F("site__condense_after_turns") + 1)
        .order_by("last_activity_at").values_list("pk", flat=True)[:limit]
    )


def condense_lagging_enqueue() -> int:
    """The periodic catch-up: enqueue a condensation for every lagging conversation."""
    count = 0
    for conversation_id in conversation_ids_lagging():
        if cache.add(QUEUED_KEY.format(conversation_id), 1,
                     timeout=settings.MEMORY_CONDENSE_QUEUED_SECONDS):
            transaction.on_commit(lambda cid=conversation_id: _enqueue(cid))
            count += 1
    if count:
        log.info("lagging conversations enqueued", extra={"count": count})
    return count
