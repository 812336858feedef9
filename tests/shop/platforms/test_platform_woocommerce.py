"""WooCommerce through its contract fake: the connection check, page-number paging with
variations, a product deleted between pages (which moves another onto a page already
read), 429, orders by number with billing.email, webhook signatures."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from chatwidget.shop.connect.sync import knowledge_sync
from chatwidget.shop.models.connections import Connection
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument
from chatwidget.shop.platforms.registry import platform_for
from tests.shop.platforms.shopify_fake import sign

pytestmark = pytest.mark.django_db


def connect(site, fake) -> Connection:
    call_command(
        "shop_connect",
        site=site.key,
        platform="woocommerce",
        url=fake.url,
        key_env="WOO_KEY",
        secret_env="WOO_SECRET",
        stdout=io.StringIO(),
    )
    return Connection.objects.get(site=site)


def docs(site) -> set[str]:
    return set(KnowledgeDocument.objects.filter(site=site).values_list("external_id", flat=True))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda f, mp: setattr(f, "url", f.url + "/shop"), "does not answer"),
        (lambda f, mp: mp.setenv("WOO_SECRET", "cs_wrong"), "refused the credentials"),
        (lambda f, mp: setattr(f, "read", False), "woocommerce_rest_cannot_view"),
    ],
    ids=["wrong-url", "wrong-secret", "no-read-permission"],
)
def test_shop_connect_says_what_is_wrong(site, woo, monkeypatch, change, says):
    change(woo, monkeypatch)
    with pytest.raises(CommandError, match=says):
        connect(site, woo)
    assert not Connection.objects.exists()


def test_sync_reads_every_page_with_variations(site, woo, no_waiting):
    connection = connect(site, woo)
    woo.too_many_next = 1
    result = knowledge_sync(connection=connection)
    assert not result.error and (result.products, result.pages) == (150, 1)
    assert no_waiting == [1.0]
    assert woo.requests.count("/wp-json/wc/v3/products") == 1 + 1 + 2  # check, 429, 2 pages
    text = KnowledgeChunk.objects.filter(document__external_id="product:503").values_list(
        "text", flat=True
    )[0]
    assert "39-41, SKU WS-3-1, GTIN 410000030001, price 19.90 EUR, in stock (4)" in text
    assert "42-44, SKU WS-3-2" in text and "out of stock" in text


def test_a_product_deleted_between_pages_moves_no_other_one_out(site, woo):
    connection = connect(site, woo)
    knowledge_sync(connection=connection)
    woo.delete_after_first = 505  # page 2 then starts one product later: 600 is skipped
    woo.put(7, price="4.90")
    result = knowledge_sync(connection=connection)
    assert not result.error and (result.changed, result.removed) == (1, 0)
    assert "product:600" in docs(site), "the product the deletion moved is kept"
    assert "/wp-json/wc/v3/products" in woo.requests[-3:], "asked for by id (include=)"
    later = knowledge_sync(connection=connection)
    assert later.removed == 1 and "product:505" not in docs(site)


def test_an_order_by_number_with_its_billing_email(site, woo):
    order = platform_for(connect(site, woo)).order("1042")
    assert order.email == "anna.meyer@example.com" and order.status == "completed"
    assert order.tracking == ({"company": "DHL", "number": "00340434161094042557", "url": ""},)
    assert "Hauptstr" not in str(order.answer()) and "PayPal" not in str(order.answer())
    assert platform_for(Connection.objects.get()).order("9999") is None


def test_webhook_signatures(site, woo, client, monkeypatch):
    connection = connect(site, woo)
    queued = []
    monkeypatch.setattr(
        "chatwidget.shop.connect.webhooks.task_enqueue_on_commit",
        lambda name, *args: queued.append(args),
    )
    body = b'{"id": 503, "name": "Wool socks 3"}'
    url = f"/shop/webhooks/{connection.webhook_key}/"
    bad = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_X_WC_WEBHOOK_SIGNATURE=sign(body, "cs_other"),
    )
    good = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_X_WC_WEBHOOK_SIGNATURE=sign(body, woo.secret),
    )
    ping = client.post(
        url,
        b"webhook_id=3",
        content_type="application/x-www-form-urlencoded",
        HTTP_X_WC_WEBHOOK_SIGNATURE=sign(b"webhook_id=3", woo.secret),
    )
    assert (bad.status_code, good.status_code, ping.status_code) == (401, 200, 200)
    assert queued == [(connection.pk, "503")]
