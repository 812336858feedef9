"""The site of a widget key is cached (issue 30: every socket's connect and every widget
request looks it up) and dropped when the site is saved or deleted, in every process (the
shared cache), after the commit."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chatwidget.sites.models import Site
from chatwidget.sites.selectors import site_info_by_key

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs


def test_a_lookup_is_served_from_the_cache(site):
    first = site_info_by_key(key=site.key)
    with CaptureQueriesContext(connection) as queries:
        again = site_info_by_key(key=site.key)
    assert again == first and len(queries) == 0


def test_a_save_drops_the_cached_info(site):
    assert site_info_by_key(key=site.key).greeting != "Moin!"
    site.greeting = "Moin!"
    site.allowed_origins = [*site.allowed_origins, "https://new.test"]
    site.save()
    info = site_info_by_key(key=site.key)
    assert info.greeting == "Moin!" and "https://new.test" in info.origins


def test_a_new_key_drops_the_old_ones_info(site):
    old = site.key
    assert site_info_by_key(key=old) is not None
    site.key = "renamed-key"
    site.save()
    assert site_info_by_key(key=old) is None, "the old key no longer reaches the site"
    assert site_info_by_key(key="renamed-key").id == site.pk


def test_a_deleted_site_is_unknown(site):
    assert site_info_by_key(key=site.key) is not None
    Site.objects.get(pk=site.pk).delete()
    assert site_info_by_key(key=site.key) is None


def test_the_cache_away_reads_the_database(site, monkeypatch):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("cache away")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    assert site_info_by_key(key=site.key).id == site.pk
