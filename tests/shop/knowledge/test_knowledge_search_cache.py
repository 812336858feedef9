"""A search of common words only is kept per process until the site's knowledge changes
(backends._cached, issue 26): the engine would rank nearly every chunk for it each turn."""

import json

import pytest
from django.core.cache import cache
from django.db import connection, transaction

from chatwidget.shop.knowledge import backends
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure

pytestmark = pytest.mark.django_db(transaction=True)


def _feed(path, colours):
    path.write_text(
        "\n".join(
            json.dumps({"id": f"P-{c}", "title": f"shirt {c}", "text": f"A {c} shirt. Size S-XL."})
            for c in colours
        )
    )


def test_common_words_are_searched_once_until_the_knowledge_changes(site, tmp_path, monkeypatch):
    monkeypatch.setattr(backends, "PRUNE_FROM_CHUNKS", 2)
    monkeypatch.setattr(backends, "_RESULTS", type(backends._RESULTS)())
    cache.clear()
    path = tmp_path / "feed.jsonl"
    _feed(path, ["teal", "mint", "plum"])
    source = knowledge_source_ensure(site=site, location=str(path))
    assert knowledge_import(source=source).ok
    runs = []
    run = backends._run
    monkeypatch.setattr(backends, "_run", lambda *a, **k: runs.append(k["match"]) or run(*a, **k))

    def found():
        hits = backends.search(site_id=site.pk, terms=["size"], language="en", limit=10)
        return sorted(h.title for h in hits)

    assert found() == ["shirt mint", "shirt plum", "shirt teal"]
    assert found() == ["shirt mint", "shirt plum", "shirt teal"]
    assert len(runs) == 1  # the second turn read the process's copy
    _feed(path, ["teal", "mint", "plum", "sand"])
    assert knowledge_import(source=source).ok  # a new version after commit
    assert found() == ["shirt mint", "shirt plum", "shirt sand", "shirt teal"]
    assert len(runs) == 2
    with transaction.atomic():  # inside a transaction: never kept
        found()
        found()
    assert len(runs) == 4
    assert connection.vendor in ("sqlite", "postgresql")
