"""What a reader yields: a `Doc` per document, a `Problem` per input it could not use, and
`SourceError` when the source as a whole cannot be read (then nothing of it changes)."""

import re
from dataclasses import dataclass, field


class SourceError(Exception):
    """The source as a whole could not be read; the message says why, for a person."""


@dataclass
class Doc:
    external_id: str
    title: str
    text: str
    url: str = ""
    identifiers: list[str] = field(default_factory=list)


@dataclass
class Problem:
    where: str  # "line 7", a URL, a file name
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


Item = Doc | Problem


@dataclass
class Page:
    """One page read from HTML or PDF: its title, its text (Markdown headings and tables),
    its links, and the identifiers its structured data names (SKU, GTIN)."""

    title: str
    text: str
    links: list[str] = field(default_factory=list)
    identifiers: list[str] = field(default_factory=list)


def markdown_title(text: str, fallback: str) -> str:
    """The first level-one heading of a Markdown text, else the fallback."""
    for line in text.splitlines():
        m = re.match(r"^#\s+(.+)", line)
        if m:
            return m.group(1).strip()
    return fallback
