"""What a reader yields: a `Doc` per document, a `Problem` per input it could not use, an
`Unchanged` per page the server says has not changed (HTTP 304 to a conditional GET), and
`SourceError` when the source as a whole cannot be read (then nothing of it changes).

A problem says what it does to the removal of documents the source no longer holds
(`Problem.effect`): INCOMPLETE (a feed line that could not be read, a sitemap that failed,
a crawl over its limits: the read is not complete, so nothing is removed), KEEP (one page
failed for now, a 5xx or a timeout: its document stays, the others may go) or GONE (the page
answered 404 or 410, or robots.txt now disallows it: its document goes)."""

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
    etag: str = ""  # the page's validators, sent back on the next import (conditional GET)
    last_modified: str = ""


INCOMPLETE, KEEP, GONE = "incomplete", "keep", "gone"


@dataclass
class Problem:
    where: str  # "line 7", a URL, a file name
    message: str
    effect: str = INCOMPLETE  # on removing what the source no longer holds (module doc)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Unchanged:
    """A page whose server answered 304 Not Modified: its document, chunks and vectors stay
    as they are, and it is not parsed again."""

    external_id: str


Item = Doc | Problem | Unchanged


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
