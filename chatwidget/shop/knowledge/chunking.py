"""Cutting a document into chunks of about 200-400 tokens at headings and paragraphs.

Pure functions. Sections start at Markdown headings (HTML headings are turned into them on
import); within a section whole paragraphs are packed up to the maximum, a section shorter
than the minimum is joined with the next one when both fit, and only a paragraph longer
than the maximum is cut, at sentence ends and, for a run-on sentence, at token counts.
Each chunk keeps the heading it sits under, so an excerpt still says what it is about.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

MIN_TOKENS = 200
MAX_TOKENS = 400

_HEADING = re.compile(r"^#{1,6}\s+\S")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass
class Piece:
    text: str
    tokens: int


def _blocks(text: str) -> list[tuple[bool, str]]:
    """(is_heading, text) per heading line or paragraph, in order."""
    blocks: list[tuple[bool, str]] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            blocks.append((False, "\n".join(para).strip()))
            para.clear()

    for line in text.replace("\r\n", "\n").split("\n"):
        if _HEADING.match(line):
            flush()
            blocks.append((True, line.strip()))
        elif not line.strip():
            flush()
        else:
            para.append(line.rstrip())
    flush()
    return [b for b in blocks if b[1]]


def _split_long(
    text: str,
    *,
    count: Callable[[str], int],
    encode_cut: Callable[[str, int], list[str]],
    max_tokens: int,
) -> list[str]:
    """A paragraph over the maximum: sentences packed up to it; a sentence over it, cut."""
    out: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(text):
        if count(sentence) > max_tokens:
            if current:
                out.append(current)
                current = ""
            out.extend(encode_cut(sentence, max_tokens))
            continue
        joined = f"{current} {sentence}".strip()
        if current and count(joined) > max_tokens:
            out.append(current)
            current = sentence
        else:
            current = joined
    if current:
        out.append(current)
    return out


def chunk_text(
    text: str,
    *,
    count: Callable[[str], int],
    encode_cut: Callable[[str, int], list[str]],
    min_tokens: int = MIN_TOKENS,
    max_tokens: int = MAX_TOKENS,
) -> list[str]:
    """The chunks of `text`. `count` gives a text's tokens; `encode_cut(text, n)` cuts a text
    into pieces of at most n tokens (both tiktoken-backed in production, injected so this
    stays pure)."""
    if count(text) <= max_tokens:  # a product, a short page: one chunk, whatever its shape
        return [text.strip()] if text.strip() else []
    sections: list[list[str]] = []  # each: [heading?, paragraphs...]
    heading = ""
    for is_heading, block in _blocks(text):
        if is_heading:
            heading = block
            sections.append([block])
        else:
            if not sections:
                sections.append([])
            sections[-1].append(block)

    chunks: list[str] = []
    for section in sections:
        heading = section[0] if section and _HEADING.match(section[0]) else ""
        paragraphs = section[1:] if heading else section
        current = heading
        for para in paragraphs:
            parts = (
                [para]
                if count(para) <= max_tokens - count(heading)
                else _split_long(
                    para, count=count, encode_cut=encode_cut, max_tokens=max_tokens - count(heading)
                )
            )
            for part in parts:
                joined = f"{current}\n\n{part}".strip()
                if current and current != heading and count(joined) > max_tokens:
                    chunks.append(current)
                    current = f"{heading}\n\n{part}".strip()
                else:
                    current = joined
        if current:
            chunks.append(current)

    merged: list[str] = []  # a short chunk joins its predecessor when both fit
    for chunk in chunks:
        if (
            merged
            and (count(merged[-1]) < min_tokens or count(chunk) < min_tokens)
            and count(f"{merged[-1]}\n\n{chunk}") <= max_tokens
        ):
            merged[-1] = f"{merged[-1]}\n\n{chunk}"
        else:
            merged.append(chunk)
    return merged
