"""One spelling for the many ways people type the same value, with a map back to the original.

Detection runs on the normalised text; replacements and spans apply to the original text,
so nothing the visitor wrote is rewritten except the removed value itself. The steps:

* Unicode NFKC per character (full-width digits and letters, full-width ``＠``, ligatures);
* format characters (zero-width space and joiners, soft hyphen, BOM) dropped;
* every Unicode decimal digit mapped to ASCII (Arabic-Indic, Devanagari, ...);
* every space separator (no-break, thin, ideographic) to a plain space, every dash
  (en-dash, em-dash, minus sign) to ``-``;
* digits spoken one by one ("four one one one", "vier eins eins eins"), in runs of at
  least four number words, to the digits they name.

Separators between digit groups stay in the normalised text: the finders allow them between
any two digits of a value, so that dates and prices keep their shape for the phone and
address finders.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_NUMBER_WORDS: dict[str, str] = {
    "zero": "0",
    "oh": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "null": "0",
    "eins": "1",
    "zwei": "2",
    "zwo": "2",
    "drei": "3",
    "vier": "4",
    "f\u00fcnf": "5",
    "fuenf": "5",
    "sechs": "6",
    "sieben": "7",
    "acht": "8",
    "neun": "9",
}
_WORD = r"(?:" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"
#: Three or more number words (or single digits) in a row: a value read out digit by digit.
_SPOKEN_RUN = re.compile(
    r"(?<![\w-])(?:" + _WORD + r"|\d)(?:[ ,\-]{1,3}(?:" + _WORD + r"|\d)){2,}(?![\w-])",
    re.IGNORECASE,
)
_SPOKEN_ITEM = re.compile(r"(?<![^\W\d_])(?:" + _WORD + r"|\d)(?![^\W\d_])", re.IGNORECASE)
_SPOKEN_GATE = re.compile(r"(?<![\w-])" + _WORD + r"[ ,\-]", re.IGNORECASE)


@dataclass(frozen=True)
class Normalised:
    """The normalised text and, for each of its characters, the original range it came from.

    ``starts``/``ends`` are None when the text needed no change (the common case: plain
    ASCII without spoken digits), so that the hot path allocates nothing.
    """

    text: str
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The original range that ``text[start:end]`` of the normalised text came from."""
        if self.starts is None or self.ends is None or start >= end:
            return start, end
        return self.starts[start], self.ends[end - 1]


@lru_cache(maxsize=1024)
def _char_map(ch: str) -> str:
    """What one character becomes (kept per process: a character says nothing of its text)."""
    if ch.isascii():
        return ch
    category = unicodedata.category(ch)
    if category == "Cf":
        return ""
    if category == "Zs":
        return " "
    if category == "Pd" or ch == "\u2212":
        return "-"
    if category == "Nd":
        return str(unicodedata.decimal(ch))
    folded = unicodedata.normalize("NFKC", ch)
    return "".join(
        str(unicodedata.decimal(c)) if unicodedata.category(c) == "Nd" else c for c in folded
    )


def normalise(text: str) -> Normalised:
    """Normalise ``text`` for detection; see the module docstring for the steps."""
    plain = text.isascii()
    spoken = _SPOKEN_GATE.search(text) is not None
    if plain and not spoken:
        return Normalised(text=text)
    if not plain and _maps_to_itself(text) and not _spoken_runs(text):
        # the usual German or French message: its umlauts and accents stay as they are
        # and it reads no digits out, so the walk would give back the same text
        return Normalised(text=text)
    return _walked(text, plain=plain)


def _walked(text: str, *, plain: bool) -> Normalised:
    """Each character mapped (`_char_map`), then spoken digits read, with the map back."""
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    if plain:
        chars = list(text)
        starts = list(range(len(text)))
        ends = [i + 1 for i in range(len(text))]
    else:
        for index, ch in enumerate(text):
            for out in _char_map(ch):
                chars.append(out)
                starts.append(index)
                ends.append(index + 1)
    folded, starts, ends = _spoken_digits("".join(chars), starts=starts, ends=ends)
    if folded == text:
        return Normalised(text=text)
    return Normalised(text=folded, starts=tuple(starts), ends=tuple(ends))


def _maps_to_itself(text: str) -> bool:
    """Whether no character of ``text`` changes under `_char_map` (ASCII never does)."""
    return all(_char_map(ch) == ch for ch in set(text) if not ch.isascii())


def _spoken_runs(text: str) -> list[re.Match[str]]:
    """The runs `_spoken_digits` reads as digits (a run of digits alone is left as it is)."""
    return [run for run in _SPOKEN_RUN.finditer(text) if not run.group().isdigit()]


def _spoken_digits(
    text: str, *, starts: list[int], ends: list[int]
) -> tuple[str, list[int], list[int]]:
    """Read a spoken run as digits separated by single spaces ("four, one, nine" -> "4 1 9");
    each digit maps to its whole word, each space to the separator it replaces."""
    runs = _spoken_runs(text)
    if not runs:
        return text, starts, ends
    out: list[str] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    cursor = 0
    for run in runs:
        out.append(text[cursor : run.start()])
        new_starts.extend(starts[cursor : run.start()])
        new_ends.extend(ends[cursor : run.start()])
        previous_end = None
        for item in _SPOKEN_ITEM.finditer(text, run.start(), run.end()):
            if previous_end is not None:
                out.append(" ")
                new_starts.append(starts[previous_end])
                new_ends.append(ends[item.start() - 1])
            word = item.group().lower()
            out.append(_NUMBER_WORDS.get(word, word))
            new_starts.append(starts[item.start()])
            new_ends.append(ends[item.end() - 1])
            previous_end = item.end()
        cursor = run.end()
    out.append(text[cursor:])
    new_starts.extend(starts[cursor:])
    new_ends.extend(ends[cursor:])
    return "".join(out), new_starts, new_ends
