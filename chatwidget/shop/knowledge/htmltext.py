"""HTML reduced to text for the knowledge index: headings become Markdown headings (so the
chunker cuts there), paragraphs and list items become paragraphs, tables become Markdown
tables (a size chart keeps "| M | 96 |", not "M96"), a product's JSON-LD (price, SKU, GTIN,
availability) becomes a line of facts and its identifiers, and scripts, styles, navigation,
headers, footers, forms and asides are dropped with everything inside them.

Stdlib `html.parser`: tolerant of broken markup, and nothing is executed or fetched.
The text is plain text from here on; it is never rendered as HTML (excerpts are sent to
the model and shown in admin escaped).
"""

import re
from html.parser import HTMLParser
from urllib.parse import urljoin

from chatwidget.shop.knowledge.documents import Page
from chatwidget.shop.knowledge.jsonld import product_facts

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


MAX_TABLE_CELLS = 2000  # a layout table bigger than this is read as text
MAX_JSONLD_BYTES = 200_000


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "/")


def table_markdown(rows: list[list[str]], header: bool) -> str:
    """Rows of cells as a Markdown table; the first row is the header (an empty one when
    the table has no header cells)."""
    width = max(len(r) for r in rows)
    rows = [[_cell(c) for c in r] + [""] * (width - len(r)) for r in rows]
    head, body = (rows[0], rows[1:]) if header else ([""] * width, rows)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


class _Table:
    def __init__(self) -> None:
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.header = False  # the first row has th cells
        self.cells = 0


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
        self.tables: list[_Table] = []
        self.jsonld: list[str] | None = None  # the JSON-LD block being read
        self.jsonld_blocks: list[str] = []

    def _out(self, text: str) -> None:
        """Text goes into the open table cell, else into the page."""
        table = self.tables[-1] if self.tables else None
        if table is not None and table.cell is not None:
            table.cell.append(text)
        elif table is None:
            self.parts.append(text)

    def _table_tag(self, tag: str, start: bool) -> bool:
        """Table structure; True when the tag was one."""
        if tag == "table":
            if start:
                self.tables.append(_Table())
            elif self.tables:
                self._table_end(self.tables.pop())
            return True
        if not self.tables or tag not in ("tr", "td", "th"):
            return False
        table = self.tables[-1]
        if tag == "tr" and start:
            table.rows.append([])
            table.cell = None
        elif tag in ("td", "th") and start:
            if not table.rows:
                table.rows.append([])
            table.header = table.header or (tag == "th" and len(table.rows) == 1)
            table.cell = []
        elif tag in ("td", "th") and table.cell is not None:
            table.rows[-1].append("".join(table.cell))
            table.cell, table.cells = None, table.cells + 1
        return True

    def _table_end(self, table: _Table) -> None:
        rows = [r for r in table.rows if any(c.strip() for c in r)]
        if not rows:
            return
        if table.cells > MAX_TABLE_CELLS or max(len(r) for r in rows) == 1:
            text = "\n\n".join(" ".join(c for c in r if c.strip()) for r in rows)
        else:
            text = table_markdown(rows, table.header)
        self._out("\n\n" + text + "\n\n" if not self.tables else " " + text + " ")

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in VOID:
            if tag == "br" and not self.skip_depth:
                self.parts.append("\n")
            return
        if (
            tag == "script"
            and not self.skip_depth
            and (dict(attrs).get("type") or "").lower() == "application/ld+json"
        ):
            self.jsonld = []
        if self.skip_depth or tag in SKIP or dict(attrs).get("aria-hidden") == "true":
            self.skip_depth += 1
            self.skip_stack.append(tag)
            return
        if self._table_tag(tag, start=True):
            return
        if tag == "title":
            self.in_title = True
        elif tag in HEADINGS:
            self.heading = HEADINGS[tag]
            self._out("\n\n" + "#" * self.heading + " " if not self.tables else " ")
        elif tag in BLOCK:
            self._out("\n\n" if not self.tables else " ")
        elif tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(urljoin(self.base_url, href))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if tag == "script" and self.jsonld is not None:
            self.jsonld_blocks.append("".join(self.jsonld)[:MAX_JSONLD_BYTES])
            self.jsonld = None
        if self.skip_depth:
            if tag in self.skip_stack:  # tolerate unclosed children of a skipped element
                while self.skip_stack:
                    self.skip_depth -= 1
                    if self.skip_stack.pop() == tag:
                        break
            return
        if self._table_tag(tag, start=False):
            return
        if tag == "title":
            self.in_title = False
        elif tag in HEADINGS:
            self.heading = 0
            self._out("\n\n" if not self.tables else " ")
        elif tag in BLOCK:
            self._out("\n\n" if not self.tables else " ")

    def handle_data(self, data: str) -> None:
        if self.jsonld is not None:
            if sum(map(len, self.jsonld)) < MAX_JSONLD_BYTES:
                self.jsonld.append(data)
            return
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
        self._out(text)


def html_to_page(html: str, *, base_url: str = "") -> Page:
    reader = _Reader(base_url)
    reader.feed(html)
    reader.close()
    while reader.tables:  # a table never closed
        reader._table_end(reader.tables.pop())
    facts = product_facts(reader.jsonld_blocks)
    raw = "".join(reader.parts) + "".join(f"\n\n{line}" for line in facts.lines)
    paragraphs = [re.sub(r"[ \t]+", " ", p).strip() for p in re.split(r"\n\s*\n", raw)]
    text = "\n\n".join(p for p in paragraphs if p and p.strip("# "))
    title = (reader.h1 or reader.title).strip()
    title = re.sub(r"\s+", " ", title) or (reader.title.strip())
    return Page(title=title, text=text, links=reader.links, identifiers=facts.identifiers)
