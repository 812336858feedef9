"""Shopware 6 through its contract fake: OAuth client credentials (a token that expires is
fetched again), /api/search/product with associations and paging, CMS pages, orders by
orderNumber with orderCustomer.email, the connection check, and the schedule."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from chatwidget.shop.connect.sync import knowledge_sync
from chatwidget.shop.models.connections import Connection
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument
from chatwidget.shop.platforms.registry import platform_for
from chatwidget.shop.tasks import knowledge_sync_all, knowledge_sync_connection

pytestmark = pytest.mark.django_db


def connect(site, fake) -> Connection:
    out = io.StringIO()
    call_command(
        "shop_connect",
        site=site.key,
        platform="shopware",
        url=fake.url,
        key_env="SW_CLIENT_ID",
        secret_env="SW_CLIENT_SECRET",
        stdout=out,
    )
    assert "webhooks" not in out.getvalue(), "Shopware syncs on the schedule"
    return Connection.objects.get(site=site)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda f, mp: setattr(f, "url", f.url + "/shop"), "does not answer"),
        (lambda f, mp: mp.setenv("SW_CLIENT_SECRET", "wrong"), "refused the credentials"),
        (lambda f, mp: f.privileges.discard("order"), "order:read"),
        (lambda f, mp: mp.setenv("SW_CLIENT_ID", ""), "SW_CLIENT_ID is not set"),
    ],
    ids=["wrong-url", "wrong-secret", "missing-privilege", "unset-variable"],
)
def test_shop_connect_says_what_is_wrong(site, shopware, monkeypatch, change, says):
    change(shopware, monkeypatch)
    with pytest.raises(CommandError, match=says):
        connect(site, shopware)


def test_sync_with_variants_and_an_expiring_token(site, shopware):
    connection = connect(site, shopware)
    shopware.token_lifetime_requests = 2
    result = knowledge_sync(connection=connection)
    assert not result.error and (result.products, result.pages) == (130, 1)
    assert shopware.requests.count("/api/oauth/token") > 2, "a new token when one expired"
    text = KnowledgeChunk.objects.filter(document__external_id=f"product:{3:032x}").values_list(
        "text", flat=True
    )[0]
    assert "40 cm, SKU SW10003.1, GTIN 4300000030001, price 29.9 EUR, out of stock" in text
    doc = KnowledgeDocument.objects.get(external_id=f"product:{3:032x}")
    assert doc.url.endswith("/Oak-board-3/SW10003") and "SW10003" in doc.identifiers
    assert "Free shipping" in KnowledgeChunk.objects.get(document__external_id="page:c1").text


def test_the_schedule_runs_the_same_sync(site, shopware, monkeypatch):
    connection = connect(site, shopware)
    queued = []
    monkeypatch.setattr(knowledge_sync_connection, "delay", queued.append)
    assert knowledge_sync_all() == 1 and queued == [connection.pk]
    assert knowledge_sync_connection(connection.pk)["changed"] == 131
    shopware.put(4, price=35.0)
    assert knowledge_sync_connection(connection.pk) == {"changed": 1, "removed": 0, "error": False}


def test_an_order_by_number_with_the_customer_email(site, shopware):
    order = platform_for(connect(site, shopware)).order("1042")
    assert (order.email, order.status) == ("anna.meyer@example.com", "shipped")
    assert order.tracking[0]["number"] == "00340434161094042557"
    assert "Hauptstr" not in str(order.answer()) and "Invoice" not in str(order.answer())
    assert platform_for(Connection.objects.get()).order("77") is None
