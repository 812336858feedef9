"""Reading sources into documents, one at a time (streamed: memory stays bounded whatever
the size of a feed).

A reader yields `Doc` for every document and `Problem` for every input it could not use
(a malformed feed line with its number, a page that failed), and raises `SourceError` when
the source as a whole cannot be read (missing file, a URL that fails), in which case
nothing of that source is changed.
"""

import json
import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET  # sitemaps only; no DTDs/entities expanded by ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.utils.translation import gettext as _

from chatwidget.shop.knowledge.htmltext import html_to_page

FETCH_TIMEOUT = 15
FETCH_MAX_BYTES = 5_000_000
MAX_SITEMAP_PAGES = 50_000
PAGE_SUFFIXES = (".md", ".markdown", ".html", ".htm")
USER_AGENT = "chatwidget-knowledge-import/1"


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


def _jsonl(lines: Iterator[str]) -> Iterator[Item]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            yield Problem(_("line %(n)d") % {"n": number}, _("not JSON (%(e)s)") % {"e": exc})
            continue
        if not isinstance(data, dict):
            yield Problem(_("line %(n)d") % {"n": number}, _("not a JSON object"))
            continue
        missing = [
            k
            for k in ("id", "title", "text")
            if not isinstance(data.get(k), str | int) or not str(data.get(k)).strip()
        ]
        if missing:
            yield Problem(
                _("line %(n)d") % {"n": number},
                _("missing %(fields)s") % {"fields": ", ".join(missing)},
            )
            continue
        identifiers = data.get("identifiers") or []
        if not isinstance(identifiers, list):
            identifiers = [identifiers]
        yield Doc(
            external_id=str(data["id"]).strip(),
            title=str(data["title"]).strip(),
            text=str(data["text"]),
            url=str(data.get("url") or ""),
            identifiers=[str(i) for i in identifiers if str(i).strip()],
        )


def _markdown_title(text: str, fallback: str) -> str:
    for line in text.splitlines():
        m = re.match(r"^#\s+(.+)", line)
        if m:
            return m.group(1).strip()
    return fallback


_FRONT = re.compile(r"\A---\n(?P<head>(?:[A-Za-z_]+:[^\n]*\n){1,20})---\n")


def _front_matter(raw: str) -> tuple[dict[str, str], str]:
    """A page file may start with `---` / `key: value` lines / `---` (url, title, id,
    identifiers separated by commas), as static-site generators write them."""
    m = _FRONT.match(raw.replace("\r\n", "\n"))
    if not m:
        return {}, raw
    meta = {}
    for line in m.group("head").splitlines():
        key, _, value = line.partition(":")
        meta[key.strip().lower()] = value.strip()
    return meta, raw.replace("\r\n", "\n")[m.end() :]


def _page_file(path: Path, *, external_id: str) -> Item:
    try:
        raw = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return Problem(str(path), exc.strerror or str(exc))
    meta, raw = _front_matter(raw)
    if path.suffix.lower() in (".html", ".htm"):
        page = html_to_page(raw)
        title, text = page.title or path.stem, page.text
    else:
        title, text = _markdown_title(raw, path.stem.replace("-", " ")), raw
    if not text.strip():
        return Problem(str(path), _("no text"))
    identifiers = [i.strip() for i in meta.get("identifiers", "").split(",") if i.strip()]
    return Doc(
        external_id=meta.get("id") or external_id,
        title=meta.get("title") or title,
        text=text,
        url=meta.get("url", ""),
        identifiers=identifiers,
    )


def read_path(path: Path) -> Iterator[Item]:
    if not path.exists():
        raise SourceError(_("%(path)s does not exist") % {"path": path})
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file() and p.suffix.lower() in (*PAGE_SUFFIXES, ".jsonl")
        )
        if not files:
            raise SourceError(_("%(path)s holds no .jsonl, .md or .html files") % {"path": path})
        for file in files:
            if file.suffix.lower() == ".jsonl":
                with file.open(encoding="utf-8", errors="replace") as fh:
                    for item in _jsonl(fh):
                        if isinstance(item, Problem):
                            item.where = f"{file.name} {item.where}"
                        yield item
            else:
                yield _page_file(file, external_id=str(file.relative_to(path)))
        return
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        with path.open(encoding="utf-8", errors="replace") as fh:
            yield from _jsonl(fh)
    elif suffix in PAGE_SUFFIXES:
        yield _page_file(path, external_id=path.name)
    else:
        raise SourceError(_("%(path)s is not a .jsonl, .md or .html file") % {"path": path})


def _fetch(url: str) -> tuple[bytes, str]:
    if not url.startswith(("http://", "https://")):
        raise SourceError(_("%(url)s is not an http(s) URL") % {"url": url})
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as response:  # noqa: S310
            body = response.read(FETCH_MAX_BYTES + 1)
            ctype = response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        raise SourceError(
            _("%(url)s answered HTTP %(code)s") % {"url": url, "code": exc.code}
        ) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SourceError(
            _("%(url)s could not be fetched: %(reason)s") % {"url": url, "reason": reason}
        ) from None
    if len(body) > FETCH_MAX_BYTES:
        raise SourceError(
            _("%(url)s is larger than %(n)d bytes") % {"url": url, "n": FETCH_MAX_BYTES}
        )
    return body, ctype


def _sitemap_locs(body: bytes) -> tuple[str, list[str]] | None:
    """(root tag, <loc> URLs) when the body is a sitemap or sitemap index, else None."""
    head = body[:400].lstrip().lower()
    if b"<urlset" not in head and b"<sitemapindex" not in head:
        return None
    if b"<!doctype" in head or b"<!entity" in body.lower():
        raise SourceError(_("a sitemap must not declare a DTD or entities"))
    try:
        root = ET.fromstring(body)  # noqa: S314 - entities refused above
    except ET.ParseError as exc:
        raise SourceError(_("the sitemap is not valid XML (%(e)s)") % {"e": exc}) from None
    tag = root.tag.rsplit("}", 1)[-1]
    locs = [
        el.text.strip()
        for el in root.iter()
        if el.tag.rsplit("}", 1)[-1] == "loc" and el.text and el.text.strip()
    ]
    return tag, locs


def _page_doc(url: str, body: bytes, ctype: str) -> Item:
    charset = "utf-8"
    m = re.search(r"charset=([\w-]+)", ctype)
    if m:
        charset = m.group(1)
    text = body.decode(charset, errors="replace")
    if "html" in ctype or text.lstrip()[:1] == "<":
        page = html_to_page(text, base_url=url)
        title, content = page.title, page.text
    else:
        title, content = _markdown_title(text, url), text
    if not content.strip():
        return Problem(url, _("no text"))
    return Doc(external_id=url, title=title or url, text=content, url=url)


def read_url(url: str) -> Iterator[Item]:
    """A page, or every page of a sitemap (and of the sitemaps a sitemap index names). The
    first URL failing is a SourceError; a page of a sitemap failing is a Problem."""
    body, ctype = _fetch(url)
    sitemap = _sitemap_locs(body)
    if sitemap is None:
        yield _page_doc(url, body, ctype)
        return
    tag, locs = sitemap
    pages = 0
    queue = [(tag, locs)]
    while queue:
        tag, locs = queue.pop(0)
        for loc in locs:
            try:
                body, ctype = _fetch(loc)
            except SourceError as exc:
                yield Problem(loc, str(exc))
                continue
            if tag == "sitemapindex":
                nested = _sitemap_locs(body)
                if nested:
                    queue.append(nested)
                continue
            pages += 1
            if pages > MAX_SITEMAP_PAGES:
                yield Problem(
                    url,
                    _("more than %(n)d pages; the rest was not read") % {"n": MAX_SITEMAP_PAGES},
                )
                return
            yield _page_doc(loc, body, ctype)


def read_source(location: str) -> Iterator[Item]:
    if location.startswith(("http://", "https://")):
        return read_url(location)
    return read_path(Path(location))
