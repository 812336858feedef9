"""Demo mode (no API key): an answer put together from what the real pipeline found, never
pretending to be a language model.

The reply leads with what answers the visitor, in their language: the shop lookup's result,
or the first-ranked knowledge excerpt (the paragraphs that share most words with the
message), or, when the visitor asks for a person in words, the handover. One closing line
says it is the demo and folds the accounting: what is remembered, and how many tokens the
model would be sent (the full trace is on the conversation's admin page).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils import translation
from django.utils.translation import gettext as _

QUOTE_CHARS = 600  # the excerpt quoted, at most (whole paragraphs)

# "I'd like to talk to a real person", "Kann ich mit einem Menschen sprechen?"
PERSON_ASKED = re.compile(
    r"\b(?:(?:talk|speak|chat)\s(?:to|with)\s(?:a|an|the|your|some)?\s*(?:real\s|actual\s|"
    r"human\s|live\s)?(?:person|human|agent|someone|somebody|people|team|staff|"
    r"representative)|(?:real|actual)\s(?:person|human)|human\s(?:agent|being)|"
    r"customer\s(?:service|support)\sagent|"
    r"(?:mit|einen?|einem|einer)\s(?:echten\s|richtigen\s)?(?:menschen?|mitarbeiter(?:in)?|"
    r"person|berater(?:in)?|kundenservice)|menschlichen?\s(?:mitarbeiter|ansprechpartner))\b",
    re.IGNORECASE,
)

_WORD = re.compile(r"\w{3,}")


@dataclass
class DemoFound:
    """What the pipeline found for one message, as the demo answer uses it."""

    lookup: list[str] = field(default_factory=list)  # the lookup's answer, lines
    title: str = ""  # the first-ranked excerpt
    url: str = ""
    text: str = ""
    searched: bool = False  # the site has knowledge and a search ran
    active: list[str] = field(default_factory=list)  # remembered objects (the core)


def person_asked(text: str) -> bool:
    return PERSON_ASKED.search(text) is not None


def excerpt_quote(text: str, *, message: str, limit: int = QUOTE_CHARS) -> str:
    """The excerpt's paragraphs that share most words with the message, in their order,
    within ``limit`` characters (the first paragraph when none shares a word)."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    if sum(len(p) for p in paragraphs) <= limit:
        return "\n\n".join(paragraphs)
    asked = {w.casefold() for w in _WORD.findall(message)}
    ranked = sorted(
        range(len(paragraphs)),
        key=lambda i: (-len(asked & {w.casefold() for w in _WORD.findall(paragraphs[i])}), i),
    )
    chosen: list[int] = []
    used = 0
    for i in ranked:
        if used + len(paragraphs[i]) > limit and chosen:
            continue
        chosen.append(i)
        used += len(paragraphs[i])
    return "\n\n".join(paragraphs[i][:limit] for i in sorted(chosen))


def _untitled(text: str, title: str) -> str:
    """The excerpt without a first heading that only repeats its title."""
    first, _sep, rest = text.lstrip().partition("\n")
    if first.lstrip("#").strip().casefold() == title.strip().casefold():
        return rest
    return text


def demo_answer(
    *,
    message: str,
    found: DemoFound,
    handover: bool,
    total: int,
    budget: int,
    language: str = "en",
) -> str:
    """The demo's reply: the answer first, then one line that says it is the demo."""
    with translation.override(language):
        parts: list[str] = []
        if handover:
            parts.append(_("Of course: I am passing you to a member of the team."))
        if found.lookup:
            parts.append("\n".join(found.lookup))
        if found.text and not handover and not found.lookup:  # a lookup answers alone
            source = f"[{found.title}]({found.url})" if found.url else f"“{found.title}”"
            parts.append(
                _("From %(source)s:") % {"source": source}
                + "\n\n"
                + excerpt_quote(_untitled(found.text, found.title), message=message)
            )
        if not parts:
            parts.append(
                _("I could not find this in the shop's pages. Ask for a person to reach the team.")
                if found.searched
                else _("This shop has no knowledge imported yet, so there is nothing to quote.")
            )
        parts.append("*" + _demo_line(found=found, total=total, budget=budget) + "*")
        return "\n\n".join(parts)


def _demo_line(*, found: DemoFound, total: int, budget: int) -> str:
    line = _(
        "Demo mode: no language model is connected, so this reply quotes what the shop's "
        "knowledge and systems returned."
    )
    if found.active:
        line += " " + _("Remembered: %(objects)s.") % {"objects": "; ".join(found.active[:3])}
    return (
        line
        + " "
        + _(
            "The model would be sent %(total)s of %(budget)s tokens; the conversation's page "
            "in admin shows the full trace."
        )
        % {"total": total, "budget": budget}
    )
