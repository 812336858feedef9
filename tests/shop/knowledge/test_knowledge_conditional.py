"""A re-import of a URL source asks conditionally (issue 26): each page's ETag and
Last-Modified are kept with its document, sent back as If-None-Match / If-Modified-Since,
and a 304 keeps the document, its chunks and their vectors without reading the page again.
A re-sync removes what the site removed (a page no longer in the sitemap, one answering 404
or 410) and keeps what fails for now (a 503, a timeout). Servers listen on 127.0.0.1."""

import pytest

from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument
from tests.egress_stubs import answer

pytestmark = pytest.mark.django_db(transaction=True)


def sitemap(*urls: str) -> bytes:
    locs = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
    ).encode()


class Page:
    """A page with validators: counts full answers and 304s, and what it was asked with."""

    def __init__(self, title: str, *, etag: str = "", modified: str = "") -> None:
        self.body = f"<title>{title}</title><p>{title}: read this before you buy.</p>".encode()
        self.etag, self.modified = etag, modified
        self.full = self.not_modified = 0
        self.asked: list[dict] = []

    def __call__(self, handler) -> None:
        self.asked.append(
            {
                "If-None-Match": handler.headers.get("If-None-Match"),
                "If-Modified-Since": handler.headers.get("If-Modified-Since"),
            }
        )
        same_tag = self.etag and handler.headers.get("If-None-Match") == self.etag
        same_time = (
            not self.etag
            and self.modified
            and handler.headers.get("If-Modified-Since") == self.modified
        )
        if same_tag or same_time:
            self.not_modified += 1
            handler.send_response(304)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        self.full += 1
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html; charset=utf-8")
        handler.send_header("Content-Length", str(len(self.body)))
        if self.etag:
            handler.send_header("ETag", self.etag)
        if self.modified:
            handler.send_header("Last-Modified", self.modified)
        handler.end_headers()
        handler.wfile.write(self.body)


def run(site, url: str):
    return knowledge_import(source=knowledge_source_ensure(site=site, location=url))


def test_a_page_not_modified_is_kept_without_reading_it_again(site, http_server):
    tagged = Page("Returns", etag='"v1"')
    dated = Page("Shipping", modified="Wed, 02 Dec 2026 10:00:00 GMT")
    http_server.routes["/returns"] = tagged
    http_server.routes["/shipping"] = dated
    http_server.routes["/sitemap.xml"] = answer(
        sitemap(http_server.url("/returns"), http_server.url("/shipping")), "application/xml"
    )
    first = run(site, http_server.url("/sitemap.xml"))
    assert first.ok and first.created == 2, first.problems
    returns = KnowledgeDocument.objects.get(title="Returns")
    assert (returns.etag, returns.last_modified) == ('"v1"', "")
    KnowledgeChunk.objects.filter(document=returns).update(embedding=b"\x00" * 16)
    chunks = set(KnowledgeChunk.objects.values_list("pk", flat=True))

    again = run(site, http_server.url("/sitemap.xml"))

    assert again.ok, again.problems
    assert (tagged.full, tagged.not_modified) == (1, 1)
    assert (dated.full, dated.not_modified) == (1, 1)
    assert tagged.asked[-1]["If-None-Match"] == '"v1"'
    assert dated.asked[-1]["If-Modified-Since"] == "Wed, 02 Dec 2026 10:00:00 GMT"
    assert (again.unchanged, again.not_modified, again.deleted) == (2, 2, 0)
    assert set(KnowledgeChunk.objects.values_list("pk", flat=True)) == chunks, "chunks kept"
    assert KnowledgeChunk.objects.get(document=returns).embedding is not None, "vector kept"


def test_a_changed_page_is_read_again_with_its_new_validators(site, http_server):
    page = Page("Returns", etag='"v1"')
    http_server.routes["/returns"] = page
    assert run(site, http_server.url("/returns")).ok
    page.etag, page.body = '"v2"', b"<title>Returns</title><p>Now 60 days to return.</p>"
    result = run(site, http_server.url("/returns"))
    assert result.updated == 1 and page.full == 2
    document = KnowledgeDocument.objects.get()
    assert document.etag == '"v2"'
    assert "60 days" in KnowledgeChunk.objects.get(document=document).text


def test_a_page_without_validators_is_fetched_whole(site, http_server):
    page = Page("Returns")
    http_server.routes["/returns"] = page
    run(site, http_server.url("/returns"))
    run(site, http_server.url("/returns"))
    assert page.full == 2 and page.asked[-1] == {"If-None-Match": None, "If-Modified-Since": None}


def failing(status: int):
    return answer(b"", status=status)


@pytest.mark.parametrize("gone", ["dropped", 404, 410])
def test_a_removed_page_disappears_and_a_503_keeps_its_page(site, http_server, gone):
    """After a re-sync: the page the sitemap no longer lists (or that answers 404/410) is
    deleted with its chunks; the page answering 503 is kept as it was, and reported."""
    for path in ("/a", "/b", "/c"):
        http_server.routes[path] = Page(path.strip("/").upper() + " page")
    urls = [http_server.url(p) for p in ("/a", "/b", "/c")]
    http_server.routes["/sitemap.xml"] = answer(sitemap(*urls), "application/xml")
    assert run(site, http_server.url("/sitemap.xml")).created == 3

    http_server.routes["/b"] = failing(503)
    if gone == "dropped":
        http_server.routes["/sitemap.xml"] = answer(sitemap(*urls[1:]), "application/xml")
    else:
        http_server.routes["/a"] = failing(gone)
    result = run(site, http_server.url("/sitemap.xml"))

    assert sorted(KnowledgeDocument.objects.values_list("title", flat=True)) == [
        "B page",
        "C page",
    ]
    assert result.deleted == 1
    assert not KnowledgeChunk.objects.filter(title="A page").exists()
    assert any("503" in p for p in result.problems), result.problems


def test_a_failing_sitemap_in_an_index_removes_nothing(site, http_server):
    """A sitemap of the index that fails hides its pages: none of them is removed."""
    http_server.routes["/a"] = Page("A page")
    http_server.routes["/part.xml"] = answer(sitemap(http_server.url("/a")), "application/xml")
    index = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{http_server.url('/part.xml')}</loc></sitemap></sitemapindex>"
    ).encode()
    http_server.routes["/index.xml"] = answer(index, "application/xml")
    assert run(site, http_server.url("/index.xml")).created == 1
    http_server.routes["/part.xml"] = failing(503)
    result = run(site, http_server.url("/index.xml"))
    assert result.deleted == 0 and KnowledgeDocument.objects.count() == 1


def test_a_page_that_times_out_is_kept(site, http_server, settings):
    settings.KNOWLEDGE_FETCH_TIMEOUT_SECONDS = 1.0
    for path in ("/a", "/b"):
        http_server.routes[path] = Page(path.strip("/").upper() + " page")
    urls = [http_server.url(p) for p in ("/a", "/b")]
    http_server.routes["/sitemap.xml"] = answer(sitemap(*urls), "application/xml")
    assert run(site, http_server.url("/sitemap.xml")).created == 2

    def slow(handler) -> None:
        http_server.stop.wait(3)

    http_server.routes["/a"] = slow
    result = run(site, http_server.url("/sitemap.xml"))
    assert result.deleted == 0 and KnowledgeDocument.objects.count() == 2
    assert any("did not arrive" in p for p in result.problems), result.problems
