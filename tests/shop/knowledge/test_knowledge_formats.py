"""Import that keeps what matters (issue 26): a product page's size table stays a table and
its JSON-LD gives price, availability, SKU and GTIN; a robots.txt leads to a gzipped sitemap
index and its rules keep a page out; a PDF's text is imported; a gzip that unpacks past the
limit stops there. Every page is served on 127.0.0.1."""

import gzip

import pytest

from chatwidget.shop.knowledge.htmltext import html_to_page
from chatwidget.shop.knowledge.jsonld import product_facts
from chatwidget.shop.knowledge.readers import read_path
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeDocument
from tests.egress_stubs import answer
from tests.shop.knowledge.pdfmake import pdf_with_lines

pytestmark = pytest.mark.django_db(transaction=True)

PRODUCT_PAGE = b"""<!doctype html><html><head><title>Cotton kurta, mint | Shop</title>
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
  {"@type": "BreadcrumbList", "name": "Home"},
  {"@type": "Product", "name": "Cotton kurta, mint", "sku": "KU-2291-M",
   "gtin13": "4006381333931", "brand": {"@type": "Brand", "name": "Lotus"},
   "offers": {"@type": "Offer", "price": "39.90", "priceCurrency": "EUR",
              "availability": "https://schema.org/InStock"}}]}
</script>
<script type="application/ld+json">{ not json </script>
<script>var tracking = "never indexed";</script></head>
<body><nav>Home Shop</nav><main><h1>Cotton kurta, mint</h1>
<p>Light cotton, relaxed fit.</p>
<h2>Size chart</h2>
<table><thead><tr><th>Size</th><th>Chest (cm)</th><th>Length (cm)</th></tr></thead>
<tbody><tr><td>S</td><td>86</td><td>104</td></tr>
<tr><td>M</td><td>96</td><td>106</td></tr>
<tr><td>L</td><td>106</td><td>108</td></tr></tbody></table>
<p>Wash at 30 degrees.</p></main></body></html>"""


def sitemap(*urls: str, index: bool = False) -> bytes:
    tag, item = ("sitemapindex", "sitemap") if index else ("urlset", "url")
    locs = "".join(f"<{item}><loc>{u}</loc></{item}>" for u in urls)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>'
        f'<{tag} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</{tag}>'
    ).encode()


def test_a_size_table_stays_a_table_and_json_ld_gives_the_products_facts():
    page = html_to_page(PRODUCT_PAGE.decode(), base_url="https://shop.test/kurta")
    assert page.title == "Cotton kurta, mint"
    assert "| Size | Chest (cm) | Length (cm) |\n|---|---|---|\n| S | 86 | 104 |" in page.text
    assert "| M | 96 | 106 |" in page.text
    assert (
        "Product: Cotton kurta, mint. SKU: KU-2291-M. GTIN: 4006381333931. Brand: Lotus. "
        "Price: 39.90 EUR. Availability: in stock." in page.text
    )
    assert page.identifiers == ["KU-2291-M", "4006381333931"]
    assert "never indexed" not in page.text and "Home Shop" not in page.text


def test_a_table_without_header_cells_and_a_layout_table():
    page = html_to_page(
        "<table><tr><td>Material</td><td>Cotton</td></tr><tr><td>Care</td><td>30°</td></tr>"
        "</table><table><tr><td>one column</td></tr><tr><td>of text</td></tr></table>"
    )
    assert "| | |\n|---|---|\n| Material | Cotton |\n| Care | 30° |" in page.text
    assert "one column\n\nof text" in page.text


def test_variants_and_price_ranges_from_json_ld():
    facts = product_facts(
        [
            '{"@type": "ProductGroup", "name": "Kurta", "hasVariant": ['
            '{"@type": "Product", "name": "Kurta M", "sku": "KU-M", "offers": '
            '{"price": 39.9, "priceCurrency": "EUR", "availability": "OutOfStock"}}]}',
            '[{"@type": "Product", "name": "Scarf", "offers": {"@type": "AggregateOffer",'
            ' "lowPrice": "10", "highPrice": "15", "priceCurrency": "EUR"}}]',
        ]
    )
    assert facts.lines == [
        "Product: Kurta.",
        "Product: Kurta M. SKU: KU-M. Price: 39.9 EUR. Availability: out of stock.",
        "Product: Scarf. Price: 10–15 EUR.",
    ]
    assert facts.identifiers == ["KU-M"]


def test_robots_txt_leads_to_a_gzipped_sitemap_index_and_keeps_a_page_out(site, http_server):
    url = http_server.url
    http_server.routes["/robots.txt"] = answer(
        b"User-agent: *\nDisallow: /private/\n\nSitemap: " + url("/sitemap.xml.gz").encode(),
        "text/plain",
    )
    http_server.routes["/sitemap.xml.gz"] = answer(
        gzip.compress(sitemap(url("/products.xml.gz"), index=True)), "application/gzip"
    )
    http_server.routes["/products.xml.gz"] = answer(
        gzip.compress(sitemap(url("/kurta"), url("/private/draft"), url("/sizes.pdf"))),
        "application/octet-stream",
    )
    http_server.routes["/kurta"] = answer(PRODUCT_PAGE)
    http_server.routes["/private/draft"] = answer(b"<p>not for visitors</p>")
    http_server.routes["/sizes.pdf"] = answer(
        pdf_with_lines("Size chart", "M: chest 96-101 cm", title="Kurta sizes"), "application/pdf"
    )

    result = knowledge_import(
        source=knowledge_source_ensure(site=site, location=url("/robots.txt"))
    )

    assert "/private/draft" not in http_server.paths, "robots.txt is obeyed"
    assert any("robots.txt disallows" in p for p in result.problems), result.problems
    docs = {d.title: d for d in KnowledgeDocument.objects.all()}
    assert set(docs) == {"Cotton kurta, mint", "Kurta sizes"}
    assert docs["Cotton kurta, mint"].identifiers == ["KU-2291-M", "4006381333931"]
    text = {t: " ".join(c.text for c in d.chunks.order_by("ordinal")) for t, d in docs.items()}
    assert "Price: 39.90 EUR" in text["Cotton kurta, mint"]
    assert "| M | 96 | 106 |" in text["Cotton kurta, mint"]
    assert "M: chest 96-101 cm" in text["Kurta sizes"]


def test_a_gzip_that_unpacks_past_the_page_limit_fails_the_source(site, http_server, settings):
    settings.KNOWLEDGE_FETCH_MAX_BYTES = 100_000
    bomb = gzip.compress(b"<urlset>" + b" " * 5_000_000)  # about 5 kB packed
    http_server.routes["/bomb.xml.gz"] = answer(bomb, "application/gzip")
    source = knowledge_source_ensure(site=site, location=http_server.url("/bomb.xml.gz"))
    result = knowledge_import(source=source)
    assert "unpacks to more than 100000 bytes" in (result.failed or ""), result
    assert KnowledgeDocument.objects.count() == 0


def test_a_folder_with_a_pdf_and_a_damaged_one(tmp_path):
    (tmp_path / "care-guide.pdf").write_bytes(pdf_with_lines("Care guide", "Wash at 30 degrees"))
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    items = list(read_path(tmp_path))
    docs = [i for i in items if hasattr(i, "text")]
    problems = [str(i) for i in items if not hasattr(i, "text")]
    assert [(d.title, d.text) for d in docs] == [("Care guide", "Care guide\nWash at 30 degrees")]
    assert len(problems) == 1 and "broken.pdf" in problems[0]
