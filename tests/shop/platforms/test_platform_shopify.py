"""Shopify through its contract fake: `shop_connect` checked at once, `knowledge_sync`
(paging, throttling, staged then swapped, resumed, removals), product webhooks."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from chatwidget.shop.connect.sync import knowledge_sync
from chatwidget.shop.connect.webhooks import product_refresh
from chatwidget.shop.models.connections import Connection, SyncItem
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument
from tests.shop.platforms.shopify_fake import product, sign

pytestmark = pytest.mark.django_db


def connect(site, fake, **extra) -> Connection:
    out = io.StringIO()
    call_command(
        "shop_connect",
        site=site.key,
        platform="shopify",
        url=fake.url,
        token_env="SHOPIFY_TOKEN",
        secret_env="SHOPIFY_SECRET",
        stdout=out,
        **extra,
    )
    assert "connected" in out.getvalue()
    return Connection.objects.get(site=site)


def docs(site) -> dict[str, KnowledgeDocument]:
    return {d.external_id: d for d in KnowledgeDocument.objects.filter(site=site)}


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda f, mp: setattr(f, "url", f.url + "/nothing-here"), "does not answer"),
        (lambda f, mp: mp.setenv("SHOPIFY_TOKEN", "shpat_wrong"), "refused the credentials"),
        (lambda f, mp: setattr(f, "scopes", ["read_products", "read_content"]), "read_orders"),
        (lambda f, mp: setattr(f, "too_many_next", 99), "429"),
        (lambda f, mp: mp.delenv("SHOPIFY_TOKEN"), "SHOPIFY_TOKEN is not set"),
    ],
    ids=["wrong-url", "wrong-token", "missing-scope", "429", "unset-variable"],
)
def test_shop_connect_says_what_is_wrong_and_stores_nothing(
    site, shopify, no_waiting, monkeypatch, settings, change, says
):
    settings.SHOP_PLATFORM_MAX_WAIT_SECONDS = 5
    change(shopify, monkeypatch)
    with pytest.raises(CommandError) as raised:
        connect(site, shopify)
    assert says in str(raised.value)
    assert not Connection.objects.exists()


def test_only_variable_names_are_stored(site, shopify):
    connection = connect(site, shopify)
    assert (connection.token_env, connection.secret_env) == ("SHOPIFY_TOKEN", "SHOPIFY_SECRET")
    stored = str(Connection.objects.values().get())
    assert "shpat_" not in stored and "webhook-secret" not in stored


def test_the_server_own_secrets_are_refused(site, shopify, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x")
    with pytest.raises(CommandError, match="own secrets"):
        call_command(
            "shop_connect",
            site=site.key,
            platform="shopify",
            url=shopify.url,
            token_env="SECRET_KEY",
        )


def test_sync_writes_products_with_identifiers_variants_price_and_stock(site, shopify):
    connection = connect(site, shopify)
    out = io.StringIO()
    call_command("knowledge_sync", site=site.key, stdout=out)
    assert "60 products, 1 pages: 61 changed" in out.getvalue()
    found = docs(site)
    assert len(found) == 61
    shirt = found["product:1003"]
    text = KnowledgeChunk.objects.filter(document=shirt).values_list("text", flat=True)[0]
    assert "SKU LS-3-1" in text and "GTIN 400000030001" in text
    assert "price 19.90 EUR" in text and "in stock (4)" in text
    assert "linen-shirt-3" in shirt.identifiers and "LS-3-0" in shirt.identifiers
    assert shirt.url == "https://shop.example/products/linen-shirt-3"
    connection.refresh_from_db()
    assert (connection.product_count, connection.page_count) == (60, 1)
    assert connection.sync_status == "ok" and connection.last_sync_at
    assert shopify.requests.count("Products") == 3  # 25 + 25 + 10, cursor paging
    assert not SyncItem.objects.exists()


def test_a_second_sync_rewrites_only_changed_products_and_drops_removed(site, shopify):
    connection = connect(site, shopify)
    knowledge_sync(connection=connection)
    chunk_ids = dict(KnowledgeChunk.objects.values_list("document__external_id", "pk"))
    shopify.products[1005] = product(5, price="24.90")
    shopify.products[1006]["variants"][0]["inventoryQuantity"] = 0
    del shopify.products[1007]
    result = knowledge_sync(connection=connection)
    assert (result.changed, result.removed, result.unchanged) == (2, 1, 58)
    after = dict(KnowledgeChunk.objects.values_list("document__external_id", "pk"))
    rewritten = {ext for ext, pk in after.items() if chunk_ids.get(ext) != pk}
    assert rewritten == {"product:1005", "product:1006"}
    assert "product:1007" not in docs(site)
    assert "price 24.90 EUR" in KnowledgeChunk.objects.get(pk=after["product:1005"]).text


def test_throttling_is_waited_out(site, shopify, no_waiting):
    connection = connect(site, shopify)
    shopify.throttle_next, shopify.too_many_next = 1, 1
    result = knowledge_sync(connection=connection)
    assert not result.error and result.products == 60
    assert 1.0 in no_waiting  # 429 Retry-After: 1.0
    assert any(w > 10 for w in no_waiting)  # THROTTLED: (752 - 40) / 50 per second


def test_an_interrupted_first_sync_shows_nothing_and_resumes(site, shopify):
    connection = connect(site, shopify)
    shopify.fail_on_cursor = "MTAyNA=="  # the second page (after id 1024)
    failed = knowledge_sync(connection=connection)
    assert failed.error and not docs(site), "no half catalogue"
    assert SyncItem.objects.count() == 25
    connection.refresh_from_db()
    assert connection.sync_status == "failed" and connection.last_error
    shopify.fail_on_cursor = None
    shopify.cursors.clear()
    resumed = knowledge_sync(connection=connection)
    assert resumed.resumed and not resumed.error
    assert shopify.cursors[0] == "MTAyNA==", "resumed at the page that failed"
    assert len(docs(site)) == 61


def test_a_product_deleted_between_pages(site, shopify):
    connection = connect(site, shopify)
    knowledge_sync(connection=connection)
    shopify.delete_after_first = 1040  # on the second page, gone once the first is served
    result = knowledge_sync(connection=connection)
    assert not result.error and result.removed == 1
    assert "product:1040" not in docs(site) and len(docs(site)) == 60


def test_expired_credentials_fail_the_sync_and_keep_the_catalogue(site, shopify, monkeypatch):
    connection = connect(site, shopify)
    knowledge_sync(connection=connection)
    shopify.token = "shpat_rotated"
    result = knowledge_sync(connection=connection)
    assert "refused the credentials" in result.error
    assert len(docs(site)) == 61


def test_a_signed_webhook_updates_one_product(
    site, shopify, client, django_capture_on_commit_callbacks, monkeypatch
):
    connection = connect(site, shopify)
    knowledge_sync(connection=connection)
    before = dict(KnowledgeChunk.objects.values_list("document__external_id", "pk"))
    shopify.products[1010] = product(10, price="9.90")
    body = b'{"id": 1010, "title": "Linen shirt 10"}'
    queued = []
    monkeypatch.setattr(
        "chatwidget.shop.connect.webhooks.task_enqueue_on_commit",
        lambda name, *args: queued.append(args),
    )
    url = f"/shop/webhooks/{connection.webhook_key}/"
    bad = client.post(
        url, body, content_type="application/json", HTTP_X_SHOPIFY_HMAC_SHA256=sign(body, "wrong")
    )
    assert bad.status_code == 401 and queued == []
    good = client.post(
        url, body, content_type="application/json", HTTP_X_SHOPIFY_HMAC_SHA256=sign(body)
    )
    assert good.status_code == 200 and queued == [(connection.pk, "1010")]
    assert product_refresh(connection=connection, product_id="1010") == "updated"
    after = dict(KnowledgeChunk.objects.values_list("document__external_id", "pk"))
    assert {e for e in after if after[e] != before.get(e)} == {"product:1010"}
    assert "price 9.90 EUR" in KnowledgeChunk.objects.get(pk=after["product:1010"]).text


def test_a_deleted_product_webhook_removes_that_product(site, shopify):
    connection = connect(site, shopify)
    knowledge_sync(connection=connection)
    del shopify.products[1020]
    assert product_refresh(connection=connection, product_id="1020") == "removed"
    assert "product:1020" not in docs(site) and len(docs(site)) == 60
    assert product_refresh(connection=connection, product_id="1021") == "unchanged"
