"""HTML reduced to text for the knowledge index: headings become Markdown headings (so the
chunker cuts there), paragraphs and list items become paragraphs, and scripts, styles,
navigation, headers, footers, forms and asides are dropped with everything inside them.

Stdlib `html.parser`: tolerant of broken markup, and nothing is executed or fetched.
The text is plain text from here on; it is never rendered as HTML (excerpts are sent to
the model and shown in admin escaped).
"""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

SKIP = {
    "script",
    "style",
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "noscript",
    "template",
    "svg",
    "iframe",
    "button",
    "select",
    "dialog",
}
BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "li",
    "ul",
    "ol",
    "table",
    "tr",
    "br",
    "dl",
    "dt",
    "dd",
    "blockquote",
    "pre",
    "figure",
    "figcaption",
    "hr",
}
HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
VOID = {
    "br",
    "hr",
    "img",
    "input",
    "meta",
    "link",
    "area",
    "base",
    "col",
    "embed",
    "source",
    "track",
    "wbr",
}


@dataclass
class Page:
    title: str
    text: str
    links: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self, base_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base_url = base_url
        self.skip_depth = 0
        self.skip_stack: list[str] = []
        self.in_title = False
        self.title = ""
        self.h1 = ""
        self.heading: int = 0
        self.parts: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in VOID:
            if tag == "br" and not self.skip_depth:
                self.parts.append("\n")
            return
        if self.skip_depth or tag in SKIP or dict(attrs).get("aria-hidden") == "true":
            self.skip_depth += 1
            self.skip_stack.append(tag)
            return
        if tag == "title":
            self.in_title = True
        elif tag in HEADINGS:
            self.heading = HEADINGS[tag]
            self.parts.append("\n\n" + "#" * self.heading + " ")
        elif tag in BLOCK:
            self.parts.append("\n\n")
        elif tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(urljoin(self.base_url, href))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.skip_depth:
            if tag in self.skip_stack:  # tolerate unclosed children of a skipped element
                while self.skip_stack:
                    self.skip_depth -= 1
                    if self.skip_stack.pop() == tag:
                        break
            return
        if tag == "title":
            self.in_title = False
        elif tag in HEADINGS:
            self.heading = 0
            self.parts.append("\n\n")
        elif tag in BLOCK:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.in_title:
            self.title += data
            return
        text = re.sub(r"\s+", " ", data)
        if self.heading:
            text = text.replace("\n", " ")
            if self.heading == 1:
                self.h1 += text
        self.parts.append(text)


def html_to_page(html: str, *, base_url: str = "") -> Page:
    reader = _Reader(base_url)
    reader.feed(html)
    reader.close()
    raw = "".join(reader.parts)
    paragraphs = [re.sub(r"[ \t]+", " ", p).strip() for p in re.split(r"\n\s*\n", raw)]
    text = "\n\n".join(p for p in paragraphs if p and p.strip("# "))
    title = (reader.h1 or reader.title).strip()
    title = re.sub(r"\s+", " ", title) or (reader.title.strip())
    return Page(title=title, text=text, links=reader.links)
