"""Reading sources into documents, one at a time (streamed: memory stays bounded whatever
the size of a feed): JSON Lines feeds, Markdown, HTML and PDF files and folders here, URLs
(pages, sitemaps, robots.txt) in crawl.py.

A reader yields `Doc` for every document and `Problem` for every input it could not use
(a malformed feed line with its number, a page that failed), and raises `SourceError` when
the source as a whole cannot be read (missing file, a URL that fails), in which case
nothing of that source is changed.
"""

import json
import re
from collections.abc import Iterator
from pathlib import Path

from django.core.files import File
from django.utils.translation import gettext as _

from chatwidget.shop.knowledge.crawl import Crawl, read_url
from chatwidget.shop.knowledge.documents import (
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

__all__ = [
    "INCOMPLETE",
    "KEEP",
    "Doc",
    "Item",
    "Problem",
    "SourceError",
    "Unchanged",
    "read_path",
    "read_source",
    "read_stored",
    "read_url",
]

PAGE_SUFFIXES = (".md", ".markdown", ".html", ".htm", ".pdf")


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


def _pdf_file(path: Path, *, external_id: str) -> Item:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return Problem(str(path), exc.strerror or str(exc))
    return _pdf(data, name=str(path), external_id=external_id)


def _page_file(path: Path, *, external_id: str) -> Item:
    if path.suffix.lower() == ".pdf":
        return _pdf_file(path, external_id=external_id)
    try:
        raw = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return Problem(str(path), exc.strerror or str(exc))
    return _page(raw, name=str(path), external_id=external_id)


def _page(raw: str, *, name: str, external_id: str) -> Item:
    """One page (.md or .html) from its text; `name` is its file name (suffix, stem, problems)."""
    meta, raw = _front_matter(raw)
    stem = Path(name).stem
    found: list[str] = []
    if Path(name).suffix.lower() in (".html", ".htm"):
        page = html_to_page(raw)
        title, text, found = page.title or stem, page.text, page.identifiers
    else:
        title, text = markdown_title(raw, stem.replace("-", " ")), raw
    if not text.strip():
        return Problem(name, _("no text"))
    identifiers = [i.strip() for i in meta.get("identifiers", "").split(",") if i.strip()]
    return Doc(
        external_id=meta.get("id") or external_id,
        title=meta.get("title") or title,
        text=text,
        url=meta.get("url", ""),
        identifiers=list(dict.fromkeys(identifiers + found)),
    )


def _pdf(data: bytes, *, name: str, external_id: str) -> Item:
    try:
        page = pdf_to_page(data, fallback_title=Path(name).stem.replace("-", " "))
    except PdfError as exc:
        return Problem(name, str(exc))
    if not page.text.strip():
        return Problem(name, _("no text (a scanned PDF needs its text layer)"))
    return Doc(external_id=external_id, title=page.title, text=page.text)


def read_stored(file: File) -> Iterator[Item]:
    """An uploaded file, read through Django's storage API (`FieldFile`): a local folder or
    object storage alike, so the worker needs no path the web process wrote (issue 31)."""
    name = Path(file.name or "").name
    suffix = Path(name).suffix.lower()
    if suffix != ".jsonl" and suffix not in PAGE_SUFFIXES:
        raise SourceError(_("%(path)s is not a .jsonl, .md, .html or .pdf file") % {"path": name})
    try:
        file.open("rb")
    except OSError as exc:  # FileNotFoundError, or the object store's error (an OSError too)
        raise SourceError(
            _("%(path)s could not be read (%(e)s)") % {"path": name, "e": type(exc).__name__}
        ) from exc
    try:
        if suffix == ".jsonl":  # File iterates by lines, whatever the chunks the backend reads
            yield from _jsonl(line.decode("utf-8", errors="replace") for line in file)
        elif suffix == ".pdf":
            yield _pdf(file.read(), name=name, external_id=name)
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
            raise SourceError(
                _("%(path)s holds no .jsonl, .md, .html or .pdf files") % {"path": path}
            )
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
        raise SourceError(_("%(path)s is not a .jsonl, .md, .html or .pdf file") % {"path": path})


def read_source(
    location: str, *, validators: dict[str, tuple[str, str]] | None = None
) -> Iterator[Item]:
    """`validators`: a URL source's pages imported before, with their ETag and Last-Modified
    (a conditional GET each: crawl.py)."""
    if location.startswith(("http://", "https://")):
        crawl = Crawl.from_settings()
        crawl.validators = validators or {}
        return read_url(location, crawl)
    return read_path(Path(location))
