"""`manage.py demo` imports its knowledge with links to where the demo shop runs (issue 27:
with DEMO_SHOP_PORT every link pointed at the hard-coded :8001)."""

from chatwidget.management.commands.demo import DEMO_DATA_URL, demo_data_at


def test_links_follow_the_demo_shops_port(settings, tmp_path):
    settings.RUN_DIR = tmp_path
    data = demo_data_at(shop_url="http://127.0.0.1:8123")
    catalogue = (data / "catalogue.jsonl").read_text()
    pages = "".join(p.read_text() for p in (data / "pages").glob("*.md"))
    assert "http://127.0.0.1:8123/product/KU-2291-M" in catalogue
    assert "url: http://127.0.0.1:8123/returns" in pages
    assert DEMO_DATA_URL not in catalogue + pages


def test_the_default_port_imports_the_files_as_they_are(settings, tmp_path):
    settings.RUN_DIR = tmp_path
    assert demo_data_at(shop_url=DEMO_DATA_URL) == settings.BASE_DIR / "chatwidget" / "demo_data"
    assert not list(tmp_path.iterdir())


def test_the_demo_site_gets_canned_replies_once(db):
    from chatwidget.management.commands.demo import DemoContext, step_canned
    from chatwidget.sites.services import site_create
    from handover.models import CannedReply

    site = site_create(name="Demo shop", origins=["http://127.0.0.1:8123"])
    ctx = DemoContext(port=8000, shop_port=8123, site=site)
    step_canned(ctx)
    replies = CannedReply.objects.filter(site=site)
    assert {r.shortcut for r in replies} == {"hi", "late", "return"}
    assert "http://127.0.0.1:8123/returns" in replies.get(shortcut="return").text
    replies.filter(shortcut="hi").delete()
    step_canned(ctx)  # the owner's edits stay
    assert CannedReply.objects.filter(site=site).count() == 2
