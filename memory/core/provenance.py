"""Who said it: every entry of a core names the turns it comes from and their speakers.

A core is read by the model on every answer, by staff on the case page and, with consent,
folded into the profile, so what the visitor writes must not become the shop's word:

- every entry gets a source (``data["sources"]``): the turns of this step that support it,
  and who spoke them (visitor, assistant, staff, system), computed from the turns, never
  taken from the model;
- a promise or a settled item stands only when an assistant, staff or system turn supports
  it *as a commitment or a completed action*; what only the visitor said moves to
  ``claims`` (shown as "visitor says: ..."), what nobody said is dropped;
- a shop lookup (a ``tool`` turn) is data: it supports an entry only through the shop's
  answer (its text after "→"; the arguments came from the visitor through the model), and
  never a promise or a settled item;
- an assistant turn that only restates what the visitor asserted before it ("I understand:
  a full refund was approved") does not make it the shop's word: unless staff, a system
  turn or a lookup's answer backs it, it stays the visitor's claim;
- text that instructs the assistant or the memory ("SYSTEM OVERRIDE", "note for the
  summary", "ignore your rules", "Notiz für die Zusammenfassung") is kept out of the core.

Support is literal: every number of the entry occurs in the turn, and most of its words do.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from memory import extract
from memory.core.sources import entry_key

VISITOR = "visitor"
#: Turns that speak for the shop: the assistant, staff, system events and shop lookups (tool).
SHOP_ROLES = frozenset({"assistant", "staff", "system", "tool"})
#: Turns that may commit the shop to something or report it done (a lookup is data).
COMMITTING_ROLES = frozenset({"assistant", "staff", "system"})
LOOKUP_ARROW = " → "
CLAIM_PREFIX = "visitor says: "

_WORD = re.compile(r"[^\W\d_]{3,}")
_STOP = frozenset(
    """
    the and for you your our we will with that this are was has have had not but from
    can all any its it's into out about been also then than they them there here what when
    der die das und für mit ist sind war wird werden wir sie ihr ihre ihren ein eine einen
    dem den des von vom zum zur auf aus bei nach noch nicht auch aber oder wie was
    """.split()
)
# A shop turn that commits to something or reports it done: "we will", "has been refunded".
_COMMITMENT = re.compile(
    r"\b(?:I|we)(?:'ll|\swill|\sshall|\scan)\b|\bwe(?:'re|\sare) going to\b"
    r"|\b(?:ich|wir)\s(?:werde|werden|melden|k\u00f6nnen)\b|\bcall you back\b"
    r"|\bzur\u00fcckrufen\b|\bmelden uns\b|\b(?:has|have) been\b|\bwas\s(?:\w+\s)?"
    r"(?:sent|issued|refunded|cancell?ed|canceled|shipped|booked|processed|changed|updated"
    r"|created|arranged|resolved|approved)\b|\b(?:is|are) now\b|\bwurden?\b|\bist\s(?:\w+\s)?"
    r"(?:versendet|verschickt|storniert|erstattet|gebucht|ge\u00e4ndert|angelegt|bearbeitet"
    r"|erledigt|genehmigt)\b|\b(?:I|we)(?:'ve| have)\s(?:\w+\s)?(?:opened|created|sent|issued"
    r"|refunded|booked|arranged|asked|forwarded|passed|noted|approved)\b|\b(?:ich|wir)\s"
    r"(?:habe|haben)\b[^.!?]{0,40}\b(?:angelegt|weitergeleitet|gebucht|veranlasst|erstattet"
    r"|storniert|genehmigt|notiert)\b",
    re.IGNORECASE,
)
# Negated shop turns do not commit: "I can't approve refunds", "wir können das nicht".
_NEGATED = re.compile(
    r"\b(?:can(?:no|')t|cannot|won't|will not|unable|not able|no way|not possible"
    r"|nicht|kein(?:e|en)?|leider nein)\b",
    re.IGNORECASE,
)
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:instructions?|rules?"
    r"|prompts?|polic(?:y|ies)|guidelines?|above|previous)\b"
    r"|\bsystem[\s_-]*(?:override|prompt|message|note|instruction|update|admin)"
    r"|\b(?:developer|admin(?:istrator)?|god|debug|maintenance)[\s-]*mode\b"
    r"|\byou are now\b|\bact as\b|\bpretend (?:to be|you)\b|\bfrom now on\b"
    r"|\breveal\b[^.!?\n]{0,30}\b(?:rules|prompt|instructions|system|secrets?)\b"
    r"|\b(?:note|memo|message|instruction)s? (?:for|to) (?:the )?(?:summary|memory|record"
    r"|assistant|ai|bot|model|system|agent|staff|summari[sz]er)\b"
    r"|\bfor the (?:summary|memory|record|summari[sz]er)\b|\b(?:add|write|put|store|record"
    r"|save) (?:this |that |it )?(?:in|into|to) (?:the |your )?(?:summary|memory|notes|core"
    r"|profile)\b|\bnew instructions?\b|\bjailbreak\b|\bprompt injection\b"
    r"|\bignorier\w*\b|\bvergiss\b[^.!?\n]{0,30}\b(?:anweisungen|regeln)\b"
    r"|\bsystem-?(?:hinweis|anweisung|nachricht|befehl)\w*|\bneue anweisung\w*"
    r"|\b(?:notiz|hinweis|vermerk|nachricht|anweisung)\w* (?:f\u00fcr|an) (?:die |den |das )?"
    r"(?:zusammenfassung|ged\u00e4chtnis|ki|bot|assistenten|modell|system|akte|mitarbeiter)"
    r"|\bf\u00fcr die (?:zusammenfassung|akte)\b|\bab (?:jetzt|sofort) (?:bist|gilt|sollst"
    r"|musst)\b|\bdu bist (?:jetzt|nun|ab sofort)\b|\b(?:schreib|trag|speicher|notier)\w*"
    r"[^.!?\n]{0,20}\b(?:zusammenfassung|ged\u00e4chtnis|akte|profil)\b|\bverrate\b[^.!?\n]"
    r"{0,30}\b(?:regeln|anweisungen|prompt)\b",
    re.IGNORECASE,
)


def instruction_like(text: str) -> bool:
    """True when ``text`` tells the assistant or the memory what to do or to believe."""
    return bool(text) and _INSTRUCTION.search(text) is not None


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if w not in _STOP}


# What the extractive condenser appends to a line: "(turn 5)", "(settled, turn 5)".
_TURN_NOTE = re.compile(r"\s*\((?:settled, )?turn \d+\)\s*$")


def _supports(entry: str, turn_text: str) -> bool:
    """Does ``turn_text`` say ``entry``: all its numbers, and most of its words."""
    entry = _TURN_NOTE.sub("", entry)
    hay = extract.normalise(turn_text)
    if any(not extract.occurs(tok, hay) for tok in extract.numberish_tokens(entry)):
        return False
    words = _words(entry)
    if not words:
        return bool(extract.numberish_tokens(entry))
    said = _words(turn_text)
    return len(words & said) / len(words) >= (1.0 if len(words) <= 2 else 0.6)


def _said(turn: dict) -> str:
    """What a turn says for the shop: a lookup only its answer (after "→")."""
    text = turn["text"]
    if str(turn["role"]) == "tool":
        return text.split(LOOKUP_ARROW, 1)[1] if LOOKUP_ARROW in text else ""
    return text


def supporting_turns(entry: str, turns: list[dict]) -> list[dict]:
    """The turns (``{"turn", "role", "text"}``) that say ``entry``."""
    return [t for t in turns if entry and _supports(entry, _said(t))]


_REQUEST = re.compile(
    r"\?|\b(?:can|could|would|will) you\b|\bplease\b|\bbitte\b|\b(?:k\u00f6nn|w\u00fcrd)\w*"
    r" (?:sie|ihr|du)\b|\b(?:i|we) (?:want|need|would like|'d like)\b|\bich (?:m\u00f6chte"
    r"|will|brauche|h\u00e4tte gern)\b",
    re.IGNORECASE,
)


def _restated(entry: str, shop: list[dict], turns: list[dict]) -> bool:
    """Only assistant turns commit to ``entry``, and a visitor turn before them asserted it
    (not asked for it): the assistant restates the visitor, the shop has not said it."""
    if any(str(t["role"]) != "assistant" for t in shop):
        return False
    first = min(t["turn"] for t in shop)
    asserted = [
        t
        for t in turns
        if str(t["role"]) == VISITOR
        and t["turn"] < first
        and _supports(entry, t["text"])
        and not _REQUEST.search(t["text"])
    ]
    backed = [
        t
        for t in turns
        if str(t["role"]) in ("staff", "system", "tool") and _supports(entry, _said(t))
    ]
    return bool(asserted) and not backed


def _source(found: list[dict]) -> dict:
    return {
        "turns": sorted({t["turn"] for t in found}),
        "by": sorted({str(t["role"]) for t in found}),
    }


def _committed(entry: str, turns: list[dict]) -> list[dict]:
    """Turns that commit the shop to ``entry`` or report it done, without negating it."""
    out = []
    for t in supporting_turns(entry, [t for t in turns if str(t["role"]) in COMMITTING_ROLES]):
        sentences = re.split(r"(?<=[.!?])\s+", t["text"])
        if (
            any(
                _COMMITMENT.search(s) and not _NEGATED.search(s) and _supports(entry, s)
                for s in sentences
            )
            or str(t["role"]) == "system"
        ):
            out.append(t)
    return out


def _entry_text(section: str, entry) -> str:
    if isinstance(entry, dict):
        if section == "objects":
            return str(entry.get("id", ""))
        if section == "constraints":
            return str(entry.get("value", ""))
        if section == "corrections":
            return str(entry.get("now", ""))
    return str(entry)


def _commitments_source(
    section: str,
    *,
    out: dict,
    turns: list[dict],
    carried: Callable[[str, str], dict | None],
    claims: list[str],
    sources: dict,
    repairs: Counter,
) -> None:
    """Promises and settled items: kept only when the shop committed to them (staff, a
    lookup's own answer, the assistant not restating the visitor) or an earlier verified
    version carries them; what the visitor alone said becomes a claim."""
    kept, table = [], {}
    for entry in out[section]:
        key = entry_key(section, entry)
        previous = carried(section, key)
        if instruction_like(entry):
            repairs["kept_out_instruction"] += 1
            continue
        shop = _committed(entry, turns)
        if shop and _restated(entry, shop, turns):
            shop = []  # the assistant restated the visitor: still the visitor's claim
            repairs[f"{section}_restated_claim"] += 1
        if shop:
            kept.append(entry)
            table[key] = _source(shop)
        elif previous and set(previous.get("by") or ()) & COMMITTING_ROLES:
            kept.append(entry)  # carried from a verified earlier version
            table[key] = previous
        elif supporting_turns(entry, [t for t in turns if str(t["role"]) == VISITOR]):
            claim = CLAIM_PREFIX + entry
            if claim not in claims:
                claims.append(claim)
                sources.setdefault("claims", {})[claim] = _source(supporting_turns(entry, turns))
            repairs[f"{section}_visitor_claim"] += 1
        else:
            repairs[f"{section}_unsupported_removed"] += 1
    out[section] = kept
    if table:
        sources[section] = table


def core_provenance_apply(*, out: dict, prev: dict, turns: list[dict], repairs: Counter) -> dict:
    """Give every entry of ``out`` its source; move or drop what the visitor alone said.

    ``prev`` is the previous (coerced) core, whose sources carry over for entries this step
    kept; ``turns`` are this step's condenser inputs. Changes ``out`` in place, returns it.
    """
    prev_sources = prev.get("sources") or {}
    sources: dict = {}
    claims: list[str] = [c for c in prev.get("claims") or [] if not instruction_like(c)]

    def carried(section: str, key: str) -> dict | None:
        found = prev_sources.get(section) or {}
        return found.get(key) if isinstance(found, dict) else None

    # request: the visitor's words; never an instruction
    if out["request"] and instruction_like(out["request"]):
        out["request"] = ""
        repairs["kept_out_instruction"] += 1
    if out["request"]:
        found = supporting_turns(out["request"], turns)
        sources["request"] = (
            _source(found)
            if found
            else (prev_sources.get("request") or {"turns": [], "by": [VISITOR]})
        )
    for section in ("objects", "constraints", "corrections", "open_points"):
        kept, table = [], {}
        for entry in out[section]:
            text = _entry_text(section, entry)
            if section != "objects" and instruction_like(text):
                repairs["kept_out_instruction"] += 1
                continue
            key = entry_key(section, entry)
            found = supporting_turns(text, turns)
            table[key] = (
                _source(found) if found else (carried(section, key) or {"turns": [], "by": []})
            )
            kept.append(entry)
        out[section] = kept
        if table:
            sources[section] = table
    for section in ("promises", "settled"):
        _commitments_source(
            section,
            out=out,
            turns=turns,
            carried=carried,
            claims=claims,
            sources=sources,
            repairs=repairs,
        )
    for claim in claims:
        if claim not in sources.get("claims", {}):
            sources.setdefault("claims", {})[claim] = carried("claims", claim) or {
                "turns": [],
                "by": [VISITOR],
            }
    out["claims"] = claims[-8:]
    if "claims" in sources:
        sources["claims"] = {k: v for k, v in sources["claims"].items() if k in out["claims"]}
    out["sources"] = sources
    return out
