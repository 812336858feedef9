"""Reading sources into documents, one at a time (streamed: memory stays bounded whatever
the size of a feed).

A reader yields `Doc` for every document and `Problem` for every input it could not use
(a malformed feed line with its number, a page that failed), and raises `SourceError` when
the source as a whole cannot be read (missing file, a URL that fails), in which case
nothing of that source is changed.

URLs are fetched through the egress guard (chatwidget/platform/egress.py): a sitemap entry
or a redirect that leads to this server, its private network or a metadata address is a
Problem, never a document every visitor could search. A crawl is bounded (`Crawl`, from the
KNOWLEDGE_* settings): pages, bytes per page and in all, nesting of sitemap indexes, total
time, and a deadline per fetch that a page sending a byte at a time cannot stretch; a
sitemap listed again (an index that lists itself) is not read again.
"""

import json
import re
import time
import xml.etree.ElementTree as ET  # sitemaps only; no DTDs/entities expanded by ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urldefrag

from django.conf import settings
from django.core.files import File
from django.utils.translation import gettext as _

from chatwidget.platform.egress import EgressRefused, egress_client, httpx
from chatwidget.shop.knowledge.htmltext import html_to_page

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
    return _page(raw, name=str(path), external_id=external_id)


def _page(raw: str, *, name: str, external_id: str) -> Item:
    """One page (.md or .html) from its text; `name` is its file name (suffix, stem, problems)."""
    meta, raw = _front_matter(raw)
    stem = Path(name).stem
    if Path(name).suffix.lower() in (".html", ".htm"):
        page = html_to_page(raw)
        title, text = page.title or stem, page.text
    else:
        title, text = _markdown_title(raw, stem.replace("-", " ")), raw
    if not text.strip():
        return Problem(name, _("no text"))
    identifiers = [i.strip() for i in meta.get("identifiers", "").split(",") if i.strip()]
    return Doc(
        external_id=meta.get("id") or external_id,
        title=meta.get("title") or title,
        text=text,
        url=meta.get("url", ""),
        identifiers=identifiers,
    )


def read_stored(file: File) -> Iterator[Item]:
    """An uploaded file, read through Django's storage API (`FieldFile`): a local folder or
    object storage alike, so the worker needs no path the web process wrote (issue 31)."""
    name = Path(file.name or "").name
    suffix = Path(name).suffix.lower()
    if suffix != ".jsonl" and suffix not in PAGE_SUFFIXES:
        raise SourceError(_("%(path)s is not a .jsonl, .md or .html file") % {"path": name})
    try:
        file.open("rb")
    except OSError as exc:  # FileNotFoundError, or the object store's error (an OSError too)
        raise SourceError(
            _("%(path)s could not be read (%(e)s)") % {"path": name, "e": type(exc).__name__}
        ) from exc
    try:
        if suffix == ".jsonl":  # File iterates by lines, whatever the chunks the backend reads
            yield from _jsonl(line.decode("utf-8", errors="replace") for line in file)
        else:
            yield _page(file.read().decode("utf-8", errors="replace"), name=name, external_id=name)
    finally:
        file.close()


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


@dataclass
class Crawl:
    """What one URL import may still fetch."""

    pages: int
    depth: int
    page_bytes: int
    total_bytes: int
    fetch_seconds: float
    ends_at: float  # time.monotonic()
    seen: set[str] = field(default_factory=set)

    @classmethod
    def from_settings(cls) -> "Crawl":
        return cls(
            pages=settings.KNOWLEDGE_CRAWL_MAX_PAGES,
            depth=settings.KNOWLEDGE_CRAWL_MAX_DEPTH,
            page_bytes=settings.KNOWLEDGE_FETCH_MAX_BYTES,
            total_bytes=settings.KNOWLEDGE_CRAWL_MAX_BYTES,
            fetch_seconds=settings.KNOWLEDGE_FETCH_TIMEOUT_SECONDS,
            ends_at=time.monotonic() + settings.KNOWLEDGE_CRAWL_MAX_SECONDS,
        )

    def stop_reason(self) -> str | None:
        """Why the crawl stops before the next fetch, or None."""
        if time.monotonic() >= self.ends_at:
            return _("the import took longer than %(n)d seconds; the rest was not read") % {
                "n": settings.KNOWLEDGE_CRAWL_MAX_SECONDS
            }
        if self.total_bytes <= 0:
            return _("more than %(n)d bytes in all; the rest was not read") % {
                "n": settings.KNOWLEDGE_CRAWL_MAX_BYTES
            }
        return None


def _fetch(url: str, crawl: Crawl) -> tuple[bytes, str]:
    if not url.startswith(("http://", "https://")):
        raise SourceError(_("%(url)s is not an http(s) URL") % {"url": url})
    deadline = min(crawl.fetch_seconds, max(crawl.ends_at - time.monotonic(), 0.0))
    limit = min(crawl.page_bytes, crawl.total_bytes)
    body = bytearray()
    try:
        with (
            egress_client(timeout=deadline, deadline_s=deadline, follow_redirects=True) as client,
            client.stream("GET", url, headers={"User-Agent": USER_AGENT}) as response,
        ):
            if response.status_code >= 400:
                raise SourceError(
                    _("%(url)s answered HTTP %(code)s") % {"url": url, "code": response.status_code}
                )
            ctype = response.headers.get("Content-Type", "")
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > limit:
                    break
    except EgressRefused as exc:
        raise SourceError(
            _("%(url)s was not fetched: %(reason)s") % {"url": url, "reason": exc}
        ) from None
    except httpx.TimeoutException:
        raise SourceError(
            _("%(url)s did not arrive within %(n)s seconds") % {"url": url, "n": f"{deadline:g}"}
        ) from None
    except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as exc:
        raise SourceError(
            _("%(url)s could not be fetched: %(reason)s") % {"url": url, "reason": exc}
        ) from None
    crawl.total_bytes -= len(body)
    if len(body) > limit:
        raise SourceError(_("%(url)s is larger than %(n)d bytes") % {"url": url, "n": limit})
    return bytes(body), ctype


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


def _key(url: str) -> str:
    return urldefrag(url.strip())[0]


def read_url(url: str, crawl: Crawl | None = None) -> Iterator[Item]:
    """A page, or every page of a sitemap (and of the sitemaps a sitemap index names, at
    most `depth` deep, each once). The first URL failing is a SourceError; a page of a
    sitemap failing is a Problem; a crawl over its bounds stops with a Problem."""
    crawl = crawl or Crawl.from_settings()
    crawl.seen.add(_key(url))
    body, ctype = _fetch(url, crawl)
    sitemap = _sitemap_locs(body)
    if sitemap is None:
        yield _page_doc(url, body, ctype)
        return
    pages = 0
    queue = [(*sitemap, url, 0)]
    while queue:
        tag, locs, parent, depth = queue.pop(0)
        for loc in locs:
            if _key(loc) in crawl.seen:
                yield Problem(
                    loc,
                    _("listed again (by %(parent)s): a cycle or a repeat; not read again")
                    % {"parent": parent},
                )
                continue
            if tag == "sitemapindex" and depth + 1 > crawl.depth:
                yield Problem(
                    loc, _("sitemaps nested more than %(n)d deep; not read") % {"n": crawl.depth}
                )
                continue
            if tag != "sitemapindex" and pages >= crawl.pages:
                yield Problem(
                    url, _("more than %(n)d pages; the rest was not read") % {"n": crawl.pages}
                )
                return
            stop = crawl.stop_reason()
            if stop:
                yield Problem(url, stop)
                return
            crawl.seen.add(_key(loc))
            try:
                body, ctype = _fetch(loc, crawl)
            except SourceError as exc:
                yield Problem(loc, str(exc))
                continue
            if tag == "sitemapindex":
                nested = _sitemap_locs(body)
                if nested:
                    queue.append((*nested, loc, depth + 1))
                continue
            pages += 1
            yield _page_doc(loc, body, ctype)


def read_source(location: str) -> Iterator[Item]:
    if location.startswith(("http://", "https://")):
        return read_url(location)
    return read_path(Path(location))
