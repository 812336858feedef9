"""The extractive condenser: deterministic, no model. Used in demo mode, as the reference the
verification falls back on, and as the last fallback when the model fails."""

from __future__ import annotations

import copy
import re

from memory import extract
from memory.core import CORE_LIMITS, core_coerce, core_empty, text_clean
from memory.core.inputs import CONTACT_OMITTED, HEALTH_OMITTED
from memory.core.lookups import lookup_objects
from memory.core.rules import PLACEHOLDER, PLEASANTRY
from memory.core.sources import text_replace
from memory.models import TurnRole

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-ZÄÖÜ\"„“])|\n+")
_GREETING = re.compile(
    r"^(?:hi|hello|hey|hallo|moin|servus|good (?:morning|afternoon|evening)|guten (?:tag|morgen|"
    r"abend))(?:\s+there)?[\s,!.:-]+",
    re.IGNORECASE,
)
_SETTLE = re.compile(
    r"\b(?:that'?s (?:all|settled|solved|sorted|done)|that (?:solved|settles|answers) it|"
    r"problem solved|all (?:good|sorted|set)(?!\?)|hat sich erledigt|(?:das|damit) ist erledigt|"
    r"passt,? danke|das war'?s|"
    r"alles klar,? danke)\b",
    re.IGNORECASE,
)
_SUBJECT = re.compile(
    r"\b(?:new question|another question|different question|something else|one more thing|"
    r"neue frage|andere frage|noch eine frage|etwas anderes|was anderes)\b[\s:,.!-]*",
    re.IGNORECASE,
)
_DONE = re.compile(
    r"\b(?:has been|have been|was|were|is now|are now)\s(?:\w+\s)?(?:sent|issued|refunded|"
    r"cancelled|canceled|shipped|booked|processed|changed|updated|created|arranged|resolved)\b"
    r"|\bwurden?\s(?:\w+\s){0,3}(?:versendet|verschickt|storniert|erstattet|gebucht|geändert|"
    r"angelegt|bearbeitet|erledigt)\b",
    re.IGNORECASE,
)
_PROMISE = re.compile(
    r"\b(?:I|we)(?:'ll|\swill|\sshall)\b|\bwe(?:'re|\sare) going to\b|\b(?:ich|wir)\s"
    r"(?:werde|werden|melden)\b|\bcall you back\b|\bzurückrufen\b|\brufen\s(?:Sie|dich)\s"
    r"(?:\w+\s){0,4}zurück\b|\bmelden uns\b",
    re.IGNORECASE,
)
_CORRECTIONS = (
    re.compile(r"\bnot (?P<was>[^,.;!?]{2,40}?),? but (?P<now>[^,.;!?]{2,40})", re.IGNORECASE),
    re.compile(
        r"\bnicht (?P<was>[^,.;!?]{2,40}?),? sondern (?P<now>[^,.;!?]{2,40})", re.IGNORECASE
    ),
    re.compile(
        r"\b(?:actually|correction|i mean|i meant|rather|eigentlich|korrektur|besser)\b"
        r"[,:]?\s(?:it'?s\s|it is\s|it should be\s|make (?:it|that)\s|ist es\s|es ist\s"
        r"|doch\s)?(?P<now>[^,.;!?]{2,60}?)(?:,?\s(?:and\s)?(?:not|nicht) "
        r"(?P<was>[^,.;!?]{2,40}))?(?=[,.;!?]|$)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?P<now>[^,.;!?]{2,40}?) (?:instead of|statt|anstatt|anstelle von) "
        r"(?P<was>[^,.;!?]{2,40})",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bdoch nicht (?P<was>[^,.;!?]{2,40}?)(?:,? sondern (?P<now>[^,.;!?]{2,40}))?"
        r"(?=[,.;!?]|$)",
        re.IGNORECASE,
    ),
)
_CUE = re.compile(
    r"\b(?:actually|correction|not|but|rather|instead|change|i mean|i meant|"
    r"eigentlich|nicht|sondern|statt|doch|ändern|lieber)\b",
    re.IGNORECASE,
)
_MONTH_EN = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_MONTH_DE = (
    r"(?:januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember)"
)
_DAY_EN = (
    r"(?:next\s|this\s)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|"
    r"tonight|the weekend|christmas|the end of (?:the\s)?(?:week|month)|"
    rf"the\s\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s(?:of\s)?{_MONTH_EN}|"
    rf"{_MONTH_EN}\s\d{{1,2}}(?:st|nd|rd|th)?|"
    r"\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?)"
)
_DAY_DE = (
    r"(?:nächsten\s|kommenden\s|diesen\s)?(?:montag|dienstag|mittwoch|donnerstag|freitag|"
    r"samstag|sonntag|morgen|übermorgen|(?:zum\s)?wochenende|weihnachten|ende\sder\s(?:woche|"
    rf"monats)|\d{{1,2}}\.(?:\s?\d{{1,2}}\.|\s{_MONTH_DE})?(?:\d{{2,4}})?)"
)
# "I need it by Friday", "bis spätestens Freitag": a deadline, kept as a constraint
_DEADLINE = re.compile(
    rf"\b(?:by|until|till|before|no later than|latest by)\s(?P<en>{_DAY_EN})(?![\w-])"
    rf"|\b(?:bis|spätestens)\s(?:spätestens\s)?(?:zum\s|zur\s|am\s)?(?P<de>{_DAY_DE})(?![\w-])",
    re.IGNORECASE,
)
DEADLINE = "deadline"
# an earlier request the visitor moved on from (a new identifier), kept as an open point
ALSO_ASKED = "Also asked: "
_PREPOSITION = re.compile(r"^(for|in|to|at|by|on|with|für|nach|bis|am|im|mit)\s", re.IGNORECASE)
_LABEL_STOP = frozenset(
    "the a an of for in to and or my your our this that is it with "
    "no nr number nummer article art order item der die das ein eine "
    "und oder mein meine ihr ihre von für mit i we you need want like "
    "would have take buy looking about ich wir brauche möchte suche "
    "habe nehme kaufe".split()
)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if s and s.strip()]


def _usable(sentence: str) -> bool:
    return not (
        PLACEHOLDER.search(sentence)
        or PLEASANTRY.match(sentence)
        or HEALTH_OMITTED in sentence
        or CONTACT_OMITTED in sentence
    )


def _first_request(text: str) -> str:
    for sentence in _sentences(_GREETING.sub("", text.strip())):
        sentence = _GREETING.sub("", sentence)
        if _usable(sentence) and len(sentence.split()) >= 2:
            return text_clean(sentence)[:200]
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
    return text_clean((value or "").strip(" ,.-–"))


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
        if role == TurnRole.TOOL:  # a shop lookup: an order's state (memory.core.lookups)
            _lookup_merge(core, text)
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
                    pending_questions.append(text_clean(sentence)[:160])
                elif _DONE.search(sentence):
                    core["settled"].append(f"{text_clean(sentence)[:180]} (turn {seq})")
                elif _PROMISE.search(sentence):
                    core["promises"].append(text_clean(sentence)[:180])
        for f in found:
            if f.kind in extract.ID_KINDS and not any(
                extract.normalise(o["id"]) == extract.normalise(f.value) for o in core["objects"]
            ):
                core["objects"].append(
                    {"kind": f.kind, "id": f.value, "label": _label_before(text, f.start)}
                )
    if saw_visitor:  # the visitor answered the assistant's questions; earlier requests stay
        core["open_points"] = [p for p in core["open_points"] if p.startswith(ALSO_ASKED)]
    core["open_points"] = (core["open_points"] + pending_questions)[-CORE_LIMITS["open_points"] :]
    return core


def _lookup_merge(core: dict, text: str) -> None:
    for obj in lookup_objects(text):
        same = next(
            (
                o
                for o in core["objects"]
                if extract.normalise(o["id"]) == extract.normalise(obj["id"])
            ),
            None,
        )
        if same is None:
            core["objects"].append(obj)
        else:  # the newest lookup's state wins
            same["kind"], same["label"] = obj["kind"], obj["label"]


def _extract_visitor(core: dict, *, seq: int, text: str, found: list) -> None:
    subject = _SUBJECT.search(text)
    settle = _SETTLE.search(text)
    if subject or settle:
        if core["request"]:
            ids = [
                o["id"]
                for o in core["objects"]
                if not extract.occurs(o["id"], extract.normalise(core["request"]))
            ]
            extra = f" [{', '.join(ids)}]" if ids else ""
            core["settled"].append(f"{core['request']}{extra} (settled, turn {seq})")
        core["request"] = ""
        for key in ("objects", "constraints", "open_points", "corrections"):
            core[key] = []
        rest = text[subject.end() :] if subject else ""
        core["request"] = _first_request(rest)
        if subject:
            found = [f for f in found if f.start >= subject.end()]
        else:
            return
    elif not core["request"]:
        core["request"] = _first_request(text)
    elif _new_subject(core, text, found):
        core["open_points"].append(ALSO_ASKED + core["request"])
        core["request"] = _first_request(text)
    _deadline_keep(core, seq=seq, text=text)
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
                hit = (
                    re.search(
                        rf"\b{prep.group(1)}\s[^,.;!?]{{1,30}}", core["request"], re.IGNORECASE
                    )
                    if prep
                    else None
                )
                was = _clean_phrase(hit.group(0)) if hit else ""
            if not was or extract.normalise(was) == extract.normalise(now):
                continue
            core["corrections"].append({"was": was, "now": now or "", "turn": seq})
            if now and extract.normalise(was) in extract.normalise(core["request"]):
                core["request"] = text_replace(core["request"], was=was, now=now)
    # constraints: the newest value of a kind replaces the older one
    for f in found:
        if f.kind not in extract.VALUE_KINDS:
            continue
        existing = next((c for c in core["constraints"] if c["what"] == f.kind), None)
        if existing is None:
            core["constraints"].append({"what": f.kind, "value": f.value, "turn": seq})
        elif extract.normalise(existing["value"]) != extract.normalise(f.value):
            if cue:
                core["corrections"].append({"was": existing["value"], "now": f.value, "turn": seq})
                core["request"] = text_replace(core["request"], was=existing["value"], now=f.value)
            existing["value"], existing["turn"] = f.value, seq


def _new_subject(core: dict, text: str, found: list) -> bool:
    """A message that names an identifier of a kind the core holds no object of ("my order
    10452 hasn't arrived" after a product talk) and makes a request of its own (four words
    or more): the latest request, the earlier one kept as an open point."""
    kinds = {o["kind"] for o in core["objects"]}
    new_kind = any(f.kind in extract.ID_KINDS and f.kind not in kinds for f in found)
    request = _first_request(text)
    return new_kind and len(request.split()) >= 4 and request != core["request"]


def _deadline_keep(core: dict, *, seq: int, text: str) -> None:
    """A deadline the visitor names is a constraint (the newest one counts)."""
    match = _DEADLINE.search(text)
    if match is None:
        return
    when = text_clean(match.group("en") or match.group("de"))
    core["constraints"] = [c for c in core["constraints"] if c["what"] != DEADLINE]
    core["constraints"].append({"what": DEADLINE, "value": when, "turn": seq})
