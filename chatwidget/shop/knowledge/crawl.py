"""Reading URLs into documents: a page (HTML, Markdown or PDF), a sitemap (plain or
gzipped, `.xml.gz`), a sitemap index, or a site's robots.txt (its `Sitemap:` lines are
read, and its rules for this importer decide which pages are fetched; `urllib.robotparser`).

URLs are fetched through the egress guard (chatwidget/platform/egress.py): a sitemap entry
or a redirect that leads to this server, its private network or a metadata address is a
Problem, never a document every visitor could search. A crawl is bounded (`Crawl`, from the
KNOWLEDGE_* settings): pages, bytes per page and in all (a gzipped sitemap counts unpacked,
so a small bomb stops at the limit), nesting of sitemap indexes, total time, and a deadline
per fetch that a page sending a byte at a time cannot stretch; a sitemap listed again (an
index that lists itself) is not read again.

A page imported before is fetched conditionally (`Crawl.validators`: its ETag and
Last-Modified, as the import stored them on its document); a 304 yields `Unchanged`, and the
page is neither downloaded nor parsed again. A page that fails says what becomes of its
document (`FetchError.effect`, documents.Problem): 404 and 410 remove it, a 5xx, a timeout
or a broken connection keep it; a sitemap of an index that fails keeps every document.
"""

import re
import time
import xml.etree.ElementTree as ET  # sitemaps only; no DTDs/entities expanded by ET
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urlsplit
from urllib.robotparser import RobotFileParser

from django.conf import settings
from django.utils.translation import gettext as _

from chatwidget.platform.egress import EgressRefused, egress_client, httpx
from chatwidget.shop.knowledge.documents import (
    GONE,
    INCOMPLETE,
    KEEP,
    Doc,
    Item,
    Problem,
    SourceError,
    Unchanged,
    markdown_title,
)
from chatwidget.shop.knowledge.htmltext import html_to_page
from chatwidget.shop.knowledge.pdftext import PdfError, pdf_to_page

USER_AGENT = "chatwidget-knowledge-import/1"
ROBOTS_AGENT = "chatwidget-knowledge-import"


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
    robots: RobotFileParser | None = None  # the rules of a robots.txt source
    validators: dict[str, tuple[str, str]] = field(default_factory=dict)  # url: etag, modified

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


class FetchError(SourceError):
    """A URL that failed, with what its failure does to its document (documents.Problem):
    404 and 410 say the page is gone; a 5xx, a timeout or a broken connection may pass."""

    def __init__(self, message: str, effect: str = KEEP) -> None:
        super().__init__(message)
        self.effect = effect


@dataclass
class Fetched:
    body: bytes
    ctype: str
    etag: str = ""
    last_modified: str = ""
    not_modified: bool = False  # 304 to a conditional GET


def _conditional(url: str, crawl: Crawl) -> dict[str, str]:
    """If-None-Match / If-Modified-Since for a page imported before with validators."""
    etag, modified = crawl.validators.get(url, ("", ""))
    headers = {"If-None-Match": etag} if etag else {}
    if modified:
        headers["If-Modified-Since"] = modified
    return headers


def _fetch(url: str, crawl: Crawl) -> Fetched:
    if not url.startswith(("http://", "https://")):
        raise FetchError(_("%(url)s is not an http(s) URL") % {"url": url}, INCOMPLETE)
    deadline = min(crawl.fetch_seconds, max(crawl.ends_at - time.monotonic(), 0.0))
    limit = min(crawl.page_bytes, crawl.total_bytes)
    body = bytearray()
    headers = {"User-Agent": USER_AGENT, **_conditional(url, crawl)}
    try:
        with (
            egress_client(timeout=deadline, deadline_s=deadline, follow_redirects=True) as client,
            client.stream("GET", url, headers=headers) as response,
        ):
            if response.status_code == 304 and len(headers) > 1:
                return Fetched(b"", "", not_modified=True)
            if response.status_code >= 400:
                raise FetchError(
                    _("%(url)s answered HTTP %(code)s")
                    % {"url": url, "code": response.status_code},
                    GONE if response.status_code in (404, 410) else KEEP,
                )
            ctype = response.headers.get("Content-Type", "")
            etag = response.headers.get("ETag", "")[:200]
            modified = response.headers.get("Last-Modified", "")[:100]
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > limit:
                    break
    except EgressRefused as exc:
        raise FetchError(
            _("%(url)s was not fetched: %(reason)s") % {"url": url, "reason": exc}
        ) from None
    except httpx.TimeoutException:
        raise FetchError(
            _("%(url)s did not arrive within %(n)s seconds") % {"url": url, "n": f"{deadline:g}"}
        ) from None
    except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as exc:
        raise FetchError(
            _("%(url)s could not be fetched: %(reason)s") % {"url": url, "reason": exc}
        ) from None
    crawl.total_bytes -= len(body)
    if len(body) > limit:
        raise FetchError(_("%(url)s is larger than %(n)d bytes") % {"url": url, "n": limit})
    if body[:2] == b"\x1f\x8b":  # a gzipped sitemap (.xml.gz), whatever its Content-Type
        return Fetched(_gunzip(url, bytes(body), crawl), "application/xml")
    return Fetched(bytes(body), ctype, etag, modified)


def _gunzip(url: str, body: bytes, crawl: Crawl) -> bytes:
    """Unpacked at most to the page limit: a gzip bomb stops there, counted in the total."""
    limit = min(crawl.page_bytes, max(crawl.total_bytes, 0))
    try:
        unpacker = zlib.decompressobj(wbits=31)
        data = unpacker.decompress(body, limit + 1)
    except zlib.error as exc:
        raise SourceError(_("%(url)s is not valid gzip (%(e)s)") % {"url": url, "e": exc}) from None
    crawl.total_bytes -= len(data)
    if len(data) > limit:
        raise SourceError(_("%(url)s unpacks to more than %(n)d bytes") % {"url": url, "n": limit})
    return data


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


def _robots_sitemaps(url: str, body: bytes, crawl: Crawl) -> tuple[str, list[str]] | None:
    """A robots.txt source: its `Sitemap:` lines, read as a sitemap index, and its rules
    kept for every page of the crawl. None for any other URL."""
    if urlsplit(url).path != "/robots.txt":
        return None
    robots = RobotFileParser(url)
    robots.parse(body.decode("utf-8", errors="replace").splitlines())
    sitemaps = robots.site_maps() or []
    if not sitemaps:
        raise SourceError(_("%(url)s names no sitemap (a Sitemap: line)") % {"url": url})
    crawl.robots = robots
    return "sitemapindex", sitemaps


def _page_doc(url: str, fetched: Fetched) -> Item:
    """A page's document, with its validators; a page without text is kept as it was."""
    body, ctype = fetched.body, fetched.ctype
    if fetched.not_modified:
        return Unchanged(url)
    identifiers: list[str] = []
    if "pdf" in ctype.lower() or body[:5] == b"%PDF-":
        try:
            page = pdf_to_page(body, fallback_title=url)
        except PdfError as exc:
            return Problem(url, str(exc), KEEP)
        if not page.text.strip():
            return Problem(url, _("no text (a scanned PDF needs its text layer)"), KEEP)
        title, content = page.title, page.text
    else:
        m = re.search(r"charset=([\w-]+)", ctype)
        text = body.decode(m.group(1) if m else "utf-8", errors="replace")
        if "html" in ctype or text.lstrip()[:1] == "<":
            page = html_to_page(text, base_url=url)
            title, content, identifiers = page.title, page.text, page.identifiers
        else:
            title, content = markdown_title(text, url), text
    if not content.strip():
        return Problem(url, _("no text"), KEEP)
    return Doc(
        external_id=url,
        title=title or url,
        text=content,
        url=url,
        identifiers=identifiers,
        etag=fetched.etag,
        last_modified=fetched.last_modified,
    )


def _key(url: str) -> str:
    return urldefrag(url.strip())[0]


def read_url(url: str, crawl: Crawl | None = None) -> Iterator[Item]:
    """A page, or every page of a sitemap (and of the sitemaps a sitemap index names, at
    most `depth` deep, each once). The first URL failing is a SourceError; a page of a
    sitemap failing is a Problem (its `effect` says whether its document stays: a 5xx or a
    timeout, or goes: 404, 410); a crawl over its bounds stops with a Problem that keeps
    every document. A page imported before is asked for conditionally (its ETag and
    Last-Modified in `crawl.validators`); a 304 is `Unchanged`."""
    crawl = crawl or Crawl.from_settings()
    crawl.seen.add(_key(url))
    first = _fetch(url, crawl)
    sitemap = None if first.not_modified else _robots_sitemaps(url, first.body, crawl)
    sitemap = sitemap or (None if first.not_modified else _sitemap_locs(first.body))
    if sitemap is None:
        yield _page_doc(url, first)
        return
    pages = 0
    queue = [(*sitemap, url, 0)]
    while queue:
        tag, locs, parent, depth = queue.pop(0)
        for loc in locs:
            skipped = _skipped(loc, tag=tag, parent=parent, depth=depth, crawl=crawl)
            if skipped:
                yield skipped
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
                fetched = _fetch(loc, crawl)
            except SourceError as exc:
                # a sitemap that failed hides its pages: the read is incomplete
                effect = exc.effect if isinstance(exc, FetchError) else KEEP
                yield Problem(loc, str(exc), INCOMPLETE if tag == "sitemapindex" else effect)
                continue
            if tag == "sitemapindex":
                nested = _sitemap_locs(fetched.body)
                if nested:
                    queue.append((*nested, loc, depth + 1))
                continue
            pages += 1
            yield _page_doc(loc, fetched)


def _skipped(loc: str, *, tag: str, parent: str, depth: int, crawl: Crawl) -> Problem | None:
    """Why a sitemap entry is not fetched: listed before, nested too deep, disallowed."""
    if _key(loc) in crawl.seen:
        return Problem(
            loc,
            _("listed again (by %(parent)s): a cycle or a repeat; not read again")
            % {"parent": parent},
            KEEP,
        )
    if tag == "sitemapindex" and depth + 1 > crawl.depth:
        return Problem(
            loc, _("sitemaps nested more than %(n)d deep; not read") % {"n": crawl.depth}
        )
    if tag != "sitemapindex" and crawl.robots and not crawl.robots.can_fetch(ROBOTS_AGENT, loc):
        return Problem(loc, _("robots.txt disallows it for this importer; not read"), GONE)
    return None
