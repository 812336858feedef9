"""What every platform's sync shares: one sync per site at a time (the command and the
schedule), and the connection shown read-only in admin."""

import io

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError

from chatwidget.platform import cache_keys
from chatwidget.shop.connect.services import connection_connect
from chatwidget.shop.connect.sync import SyncBusy, knowledge_sync
from chatwidget.shop.models.knowledge import KnowledgeDocument
from chatwidget.shop.tasks import knowledge_sync_connection

pytestmark = pytest.mark.django_db


def connected(site, fake):
    return connection_connect(
        site=site, platform="shopify", base_url=fake.url, token_env="SHOPIFY_TOKEN", check=False
    )


def test_one_sync_per_site_at_a_time(site, shopify):
    connection = connected(site, shopify)
    cache.set(cache_keys.shop_sync_lock(site.pk), "another worker", 60)
    with pytest.raises(SyncBusy):
        knowledge_sync(connection=connection)
    with pytest.raises(CommandError, match="running already"):
        call_command("knowledge_sync", site=site.key, stdout=io.StringIO())
    assert knowledge_sync_connection(connection.pk) == {"busy": True}
    assert shopify.requests == [] and not KnowledgeDocument.objects.exists()
    cache.delete(cache_keys.shop_sync_lock(site.pk))
    assert not knowledge_sync(connection=connection).error
    assert cache.get(cache_keys.shop_sync_lock(site.pk)) is None, "the lock is given back"


def test_admin_shows_the_connection_read_only(site, shopify, admin_client):
    connection = connected(site, shopify)
    knowledge_sync(connection=connection)
    page = admin_client.get(f"/admin/shop/connection/{connection.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "SHOPIFY_TOKEN" in html and "shpat_" not in html
    assert 'name="base_url"' not in html, "nothing to edit"
    listing = admin_client.get("/admin/shop/connection/").content.decode()
    assert ">60<" in listing
    assert admin_client.get("/admin/shop/connection/add/").status_code == 403
