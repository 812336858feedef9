"""Where each entry of a condensed core comes from: the turns and who said them (issue 13).

`memory.core.provenance` computes sources from the turns when a core is verified; this
module holds their stored shape (``data["sources"]``), the keys entries are found under,
how staff read a source, and the literal text replacement corrections use.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_lazy

MAX_KEY = 280


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


#: Who said an entry (memory.core.provenance computes it from the turns).
SPEAKER_LABELS = {
    "visitor": gettext_lazy("visitor"),
    "assistant": gettext_lazy("assistant"),
    "staff": gettext_lazy("staff"),
    "system": gettext_lazy("system event"),
    "tool": gettext_lazy("shop lookup"),
}


def _source_coerce(value) -> dict | None:
    if not isinstance(value, dict):
        return None
    turns = [_int(t) for t in value.get("turns") or [] if _int(t) > 0]
    by = [str(b) for b in value.get("by") or [] if str(b) in SPEAKER_LABELS]
    return {"turns": sorted(set(turns)), "by": sorted(set(by))}


def sources_coerce(value) -> dict:
    """``{"request": source, section: {entry key: source}}``; anything else dropped."""
    if not isinstance(value, dict):
        return {}
    out: dict = {}
    request = _source_coerce(value.get("request"))
    if request is not None:
        out["request"] = request
    for section, table in value.items():
        if section == "request" or not isinstance(table, dict):
            continue
        cleaned = {
            str(k)[:MAX_KEY]: src
            for k, v in table.items()
            if (src := _source_coerce(v)) is not None
        }
        if cleaned:
            out[str(section)] = cleaned
    return out


def text_replace(text: str, *, was: str, now: str) -> str:
    """``text`` with ``was`` replaced by ``now`` where it stands as a value of its own: a
    whole word or phrase, never part of a word ("mum") or of an identifier ("KU-2291-M": a
    neighbouring hyphen, apostrophe or word character keeps it). Words in any case; a single
    letter (a size) only as written, so "a" or "s" in the text are not values. ``now`` is
    inserted literally, never read as a regular-expression template."""
    was = was.strip()
    if not was:
        return text
    flags = 0 if len(was) == 1 else re.IGNORECASE
    value = re.compile(rf"(?<![\w'’-]){re.escape(was)}(?![\w'’]|-\w)", flags)
    return value.sub(lambda _match: now, text)


def entry_key(section: str, entry) -> str:
    """The key of an entry in ``data["sources"][section]``."""
    if isinstance(entry, dict):
        if section == "objects":
            return str(entry.get("id", ""))
        if section == "constraints":
            return f"{entry.get('what', '')}={entry.get('value', '')}"
        if section == "corrections":
            return f"{entry.get('was', '')}->{entry.get('now', '')}"
    return str(entry)


def source_of(data: dict, section: str, key: str) -> dict | None:
    """The stored source of one entry (None: unknown, an older core)."""
    sources = data.get("sources") or {}
    if section == "request":
        return sources.get("request")
    table = sources.get(section)
    return table.get(key) if isinstance(table, dict) else None


def speaker_note(source: dict | None) -> str:
    """ "visitor, turn 3" in the active language; "" when the source is unknown."""
    if not source:
        return ""
    who = ", ".join(str(SPEAKER_LABELS.get(b, b)) for b in source.get("by") or [])
    turns = source.get("turns") or []
    if turns:
        label = gettext("turn") if len(turns) == 1 else gettext("turns")
        who = (
            f"{who}, {label} {', '.join(str(t) for t in turns)}"
            if who
            else f"{label} {', '.join(str(t) for t in turns)}"
        )
    return who
