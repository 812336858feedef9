"""Knowledge import from URLs, bounded and behind the egress guard (issue 25): a sitemap
index that lists itself ends at once with a clear problem, a page that drips a byte a second
fails within the fetch deadline, entries and redirects that lead inward (names the stubbed
resolver maps to private and metadata addresses) are never contacted nor imported, and the
crawl stops at its page, depth and byte limits. Every server listens on 127.0.0.1."""

import time

import pytest

from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeDocument
from tests.egress_stubs import answer, redirect

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = b"<title>Returns</title><p>Return within 30 days.</p>"


def sitemap(*urls: str, index: bool = False) -> bytes:
    tag, item = ("sitemapindex", "sitemap") if index else ("urlset", "url")
    locs = "".join(f"<{item}><loc>{u}</loc></{item}>" for u in urls)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>'
        f'<{tag} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</{tag}>'
    ).encode()


def xml(body: bytes):
    return answer(body, "application/xml")


def imported(site, url: str):
    started = time.monotonic()
    result = knowledge_import(source=knowledge_source_ensure(site=site, location=url))
    return result, time.monotonic() - started


def test_a_sitemap_index_that_lists_itself_ends_at_once(site, http_server):
    served = []

    def index(handler) -> None:  # fails after a while, so that a crawl without a check ends
        served.append(1)
        xml(sitemap(http_server.url("/index.xml"), index=True))(handler) if len(
            served
        ) < 30 else answer(b"", status=500)(handler)

    http_server.routes["/index.xml"] = index
    result, took = imported(site, http_server.url("/index.xml"))
    assert http_server.paths == ["/index.xml"], "read once"
    assert any("listed again" in p and "cycle" in p for p in result.problems), result.problems
    assert took < 5


def test_sitemaps_listing_each_other_are_read_once_each(site, http_server):
    http_server.routes["/a.xml"] = xml(sitemap(http_server.url("/b.xml"), index=True))
    http_server.routes["/b.xml"] = xml(
        sitemap(http_server.url("/a.xml"), http_server.url("/c.xml"), index=True)
    )
    http_server.routes["/c.xml"] = xml(sitemap(http_server.url("/p.html")))
    http_server.routes["/p.html"] = answer(PAGE)
    result, _ = imported(site, http_server.url("/a.xml"))
    assert sorted(http_server.paths) == ["/a.xml", "/b.xml", "/c.xml", "/p.html"]
    assert KnowledgeDocument.objects.count() == 1
    assert any("listed again" in p for p in result.problems)


def test_a_page_dripping_a_byte_a_second_fails_within_the_deadline(site, http_server, settings):
    settings.KNOWLEDGE_FETCH_TIMEOUT_SECONDS = 2.0

    def drip(handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", "20")
        handler.end_headers()
        for _ in range(20):
            if http_server.stop.is_set():
                return
            handler.wfile.write(b"x")
            handler.wfile.flush()
            time.sleep(1)

    http_server.routes["/slow.html"] = drip
    result, took = imported(site, http_server.url("/slow.html"))
    assert "did not arrive within 2 seconds" in result.failed
    assert took < 4, f"held {took:.1f} s"


def test_sitemap_entries_that_lead_inward_are_never_contacted(site, http_server, egress_net):
    egress_net.names.update({"internal.test": ["10.0.0.1"], "metadata.test": ["169.254.169.254"]})
    http_server.routes["/p.html"] = answer(PAGE)
    http_server.routes["/sitemap.xml"] = xml(
        sitemap(
            "http://internal.test/admin/users",
            "http://metadata.test/latest/meta-data/iam/security-credentials/",
            "ftp://127.0.0.1/etc/passwd",
            http_server.url("/p.html"),
        )
    )
    result, _ = imported(site, http_server.url("/sitemap.xml"))
    assert list(KnowledgeDocument.objects.values_list("url", flat=True)) == [
        http_server.url("/p.html")
    ]
    problems = " | ".join(result.problems)
    assert "internal.test resolves to a private address (10.0.0.1)" in problems
    assert "a cloud metadata address (169.254.169.254)" in problems
    assert "not an http(s) URL" in problems
    assert egress_net.outside() == [], "no connection left 127.0.0.0/8"


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("http://internal.test/secret", "resolves to a private address"),
        ("ftp://127.0.0.1/etc/passwd", "ftp: is not http or https"),
    ],
)
def test_a_redirect_inward_or_off_http_is_refused(site, http_server, egress_net, target, said):
    egress_net.names["internal.test"] = ["10.0.0.1"]
    http_server.routes["/moved.html"] = redirect(target)
    result, _ = imported(site, http_server.url("/moved.html"))
    assert "was not fetched" in result.failed and said in result.failed
    assert egress_net.outside() == [] and not KnowledgeDocument.objects.exists()


def test_the_crawl_stops_at_its_page_depth_and_byte_limits(site, http_server, settings):
    pages = [f"/p{i}.html" for i in range(3)]
    for path in pages:
        http_server.routes[path] = answer(PAGE.replace(b"Returns", path.encode()))
    listing = sitemap(*map(http_server.url, pages))
    http_server.routes["/pages.xml"] = xml(listing)
    settings.KNOWLEDGE_CRAWL_MAX_PAGES = 2
    result, _ = imported(site, http_server.url("/pages.xml"))
    assert KnowledgeDocument.objects.count() == 2 and "/p2.html" not in http_server.paths
    assert any("more than 2 pages" in p for p in result.problems)

    settings.KNOWLEDGE_CRAWL_MAX_PAGES = 100
    settings.KNOWLEDGE_CRAWL_MAX_DEPTH = 1
    http_server.routes["/outer.xml"] = xml(sitemap(http_server.url("/inner.xml"), index=True))
    http_server.routes["/inner.xml"] = xml(sitemap(http_server.url("/pages.xml"), index=True))
    result, _ = imported(site, http_server.url("/outer.xml"))
    assert any("nested more than 1 deep" in p for p in result.problems), result.problems

    settings.KNOWLEDGE_CRAWL_MAX_DEPTH = 3
    settings.KNOWLEDGE_CRAWL_MAX_BYTES = len(listing) + len(PAGE) + 20  # one page fits
    result, _ = imported(site, http_server.url("/pages.xml"))
    assert len(result.problems) == 2, result.problems
    assert "larger than" in result.problems[0] and "bytes in all" in result.problems[1]
