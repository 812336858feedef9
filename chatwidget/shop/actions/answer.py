"""Reading a shop's answer: JSON of bounded depth, or malformed.

`json.loads` recurses once per nesting level: an answer of 100,000 brackets raises
`RecursionError` (not `ValueError`), which no caller expects, and a deep answer that does
parse still breaks every later step that walks it (cutting, rendering, the trace). A shop's
order status is a few levels deep; anything deeper than `MAX_DEPTH` is refused as malformed
before it is parsed, by counting brackets outside strings (no recursion, linear time).
"""

from __future__ import annotations

import json
import re

MAX_DEPTH = 32

# a JSON string, or an unclosed one up to the end of the text
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


class AnswerMalformed(ValueError):
    """Not JSON, not UTF-8, or nested deeper than MAX_DEPTH."""


def answer_too_deep(raw: bytes, *, max_depth: int = MAX_DEPTH) -> bool:
    """True when brackets outside JSON strings nest deeper than `max_depth`. Stops at the
    first level too deep; an answer with few brackets is not scanned at all."""
    if raw.count(b"[") + raw.count(b"{") <= max_depth:
        return False
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub(b"", raw)):
        if match.group() in (b"[", b"{"):
            depth += 1
            if depth > max_depth:
                return True
        else:
            depth -= 1
    return False


def answer_parse(raw: bytes, *, max_depth: int = MAX_DEPTH) -> object:
    """The shop's answer as JSON; `AnswerMalformed` for anything else."""
    if answer_too_deep(raw, max_depth=max_depth):
        raise AnswerMalformed(f"nested deeper than {max_depth}")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise AnswerMalformed(type(exc).__name__) from None
