"""Importing sources: JSON Lines feeds, Markdown/HTML files and folders, pages and sitemaps
over HTTP; idempotent re-import, removal, bad input reported, nothing half-imported."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument, KnowledgeSource

pytestmark = pytest.mark.django_db(transaction=True)


def feed(path, docs, extra_lines=()):
    lines = [json.dumps(d) for d in docs] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n")
    return path


def product(pid, title, text, **kw):
    return {"id": pid, "title": title, "text": text, "identifiers": [pid], **kw}


def found(site, message):
    return [
        c.title
        for c in knowledge_search(site=site, query=knowledge_query_build(message=message), limit=5)
    ]


def run(site, *sources):
    out, err = StringIO(), StringIO()
    try:
        # --site=KEY: a key may start with "-", which argparse would take for an option
        call_command(
            "knowledge_import", f"--site={site.key}", *map(str, sources), stdout=out, stderr=err
        )
        code = 0
    except CommandError as exc:
        code = exc.returncode
        err.write(str(exc))
    return code, out.getvalue(), err.getvalue()


def test_feed_imported_and_counted(site, tmp_path):
    path = feed(
        tmp_path / "f.jsonl",
        [
            product("KU-2291-M", "Cotton kurta, mint", "Light cotton kurta. Sizes S to XL."),
            product(
                "LS-1180-S",
                "Linen shirt, sand",
                "Washed linen shirt. Sizes M to XXL.",
                url="https://shop.test/p/ls",
            ),
        ],
    )
    code, out, err = run(site, path)
    assert code == 0, err
    assert "2 documents, 2 chunks" in out
    chunk = KnowledgeChunk.objects.get(document__external_id="LS-1180-S")
    assert (chunk.title, chunk.url, chunk.identifiers) == (
        "Linen shirt, sand",
        "https://shop.test/p/ls",
        ["LS-1180-S"],
    )
    assert chunk.token_count > 10
    assert found(site, "linen shirt")[0] == "Linen shirt, sand"
    assert found(site, "KU-2291-M")[0] == "Cotton kurta, mint"


def test_reimport_is_idempotent_replaces_changed_and_removes_missing(site, tmp_path):
    docs = [
        product("A-100", "Alpha scarf", "Silk scarf, red."),
        product("B-200", "Beta belt", "Leather belt, brown."),
        product("C-300", "Gamma gloves", "Wool gloves, grey."),
    ]
    path = feed(tmp_path / "f.jsonl", docs)
    run(site, path)
    before = dict(KnowledgeChunk.objects.values_list("document__external_id", "pk"))

    code, out, _ = run(site, path)
    assert code == 0 and "0 new, 0 changed, 3 unchanged, 0 removed" in out
    assert dict(KnowledgeChunk.objects.values_list("document__external_id", "pk")) == before

    feed(path, [docs[0], product("B-200", "Beta belt", "Leather belt, black now.")])
    code, out, _ = run(site, path)
    assert code == 0 and "0 new, 1 changed, 1 unchanged, 1 removed" in out
    assert set(KnowledgeDocument.objects.values_list("external_id", flat=True)) == {
        "A-100",
        "B-200",
    }
    assert KnowledgeChunk.objects.get(document__external_id="A-100").pk == before["A-100"]
    assert "black" in KnowledgeChunk.objects.get(document__external_id="B-200").text
    assert found(site, "wool gloves") == []  # the removed one is not searchable


def test_malformed_lines_reported_with_number_rest_imported_nothing_removed(site, tmp_path):
    path = feed(
        tmp_path / "f.jsonl", [product("A-100", "Alpha", "a"), product("B-200", "Beta", "b")]
    )
    run(site, path)
    path.write_text(
        "\n".join(
            [
                json.dumps(product("A-100", "Alpha", "a")),
                "{not json",
                json.dumps({"id": "D-400", "title": "Delta"}),
                json.dumps(product("E-500", "Epsilon", "e")),
            ]
        )
        + "\n"
    )
    code, out, err = run(site, path)
    assert code != 0
    assert "line 2: not JSON" in err
    assert "line 3: missing text" in err
    assert "nothing removed" in out
    # the good lines are in; B-200, absent from a feed that could not be read fully, stays
    assert set(KnowledgeDocument.objects.values_list("external_id", flat=True)) == {
        "A-100",
        "B-200",
        "E-500",
    }
    source = KnowledgeSource.objects.get()
    assert source.status == "errors" and source.errors[0].startswith("line 2")


def test_unknown_site_and_missing_file_are_clear_errors(site, tmp_path):
    with pytest.raises(CommandError, match="No site"):
        call_command("knowledge_import", "--site=nope", str(tmp_path))
    code, _, err = run(site, tmp_path / "missing.jsonl")
    assert code != 0 and "does not exist" in err


def test_folder_of_markdown_and_html_pages(site, tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "shipping.md").write_text(
        "---\nurl: https://shop.test/shipping\n---\n# Shipping\n\nWe deliver in 2-4 days.\n"
    )
    (folder / "care.html").write_text(
        "<html><head><title>Care · Shop</title><style>.x{color:red}</style>"
        "<script>var secret='tracking';</script></head><body>"
        "<nav><a href='/'>Home</a> Menu entries</nav><header>Big banner</header>"
        "<h1>Care guide</h1><p>Wash linen at 40 degrees.</p><ul><li>Iron damp</li></ul>"
        "<footer>Imprint</footer></body></html>"
    )
    code, _, err = run(site, folder)
    assert code == 0, err
    care = KnowledgeChunk.objects.get(document__external_id="care.html")
    assert care.title == "Care guide"
    assert "Wash linen at 40 degrees." in care.text and "Iron damp" in care.text
    for gone in ("secret", "tracking", "color", "Menu entries", "Big banner", "Imprint"):
        assert gone not in care.text
    ship = KnowledgeChunk.objects.get(document__external_id="shipping.md")
    assert (ship.title, ship.url) == ("Shipping", "https://shop.test/shipping")


def test_page_and_sitemap_over_http(site, web):
    (web.dir / "a.html").write_text(
        "<h1>Returns</h1><p>Return within 30 days.</p><script>alert(1)</script>"
    )
    (web.dir / "b.html").write_text("<title>Delivery</title><p>Parcels leave the same day.</p>")
    (web.dir / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{web.url('a.html')}</loc></url><url><loc>{web.url('b.html')}</loc></url>"
        "</urlset>"
    )
    code, out, err = run(site, web.url("sitemap.xml"))
    assert code == 0, err
    docs = dict(KnowledgeDocument.objects.values_list("url", "title"))
    assert docs == {web.url("a.html"): "Returns", web.url("b.html"): "Delivery"}
    assert "alert" not in KnowledgeChunk.objects.get(url=web.url("a.html")).text

    code, _, err = run(site, web.url("c.html"))
    assert code != 0 and "answered HTTP 404" in err


def test_url_that_cannot_be_reached_changes_nothing(site, web):
    (web.dir / "a.html").write_text("<h1>Returns</h1><p>Return within 30 days.</p>")
    run(site, web.url("a.html"))
    code, _, err = run(site, "http://127.0.0.1:9/nothing-listens-here")
    assert code != 0 and "could not be fetched" in err
    assert KnowledgeDocument.objects.count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL refuses NUL in text")
def test_a_document_that_fails_to_store_leaves_the_old_version_searchable(site, tmp_path):
    path = feed(
        tmp_path / "f.jsonl",
        [
            product("A-100", "Alpha scarf", "Silk scarf, red."),
            product("B-200", "Beta belt", "Leather belt, brown."),
        ],
    )
    run(site, path)
    feed(
        path,
        [
            product("A-100", "Alpha scarf", "Silk scarf, now \x00 broken."),
            product("B-200", "Beta belt", "Leather belt, black."),
        ],
    )
    code, _, err = run(site, path)
    assert code != 0 and "A-100: not stored" in err
    assert found(site, "silk scarf red")[0] == "Alpha scarf"  # the old version, whole
    assert "now" not in KnowledgeChunk.objects.get(document__external_id="A-100").text
    assert "black" in KnowledgeChunk.objects.get(document__external_id="B-200").text


def test_large_feed_is_streamed_in_batches(site, tmp_path):
    """Bounded memory: documents are read one at a time and written per batch, so a feed
    larger than a batch ends up whole (the 10,000-product timing is in tests/bench)."""
    path = tmp_path / "big.jsonl"
    with path.open("w") as fh:
        for i in range(250):
            fh.write(json.dumps(product(f"P-{i:05d}", f"Product {i}", f"Text {i}.")) + "\n")
    seen = []
    result = knowledge_import(
        source=knowledge_source_ensure(site=site, location=str(path)), progress=seen.append
    )
    assert result.ok and result.created == 250
    assert seen == [100, 200, 250]
    assert KnowledgeChunk.objects.filter(site=site).count() == 250
