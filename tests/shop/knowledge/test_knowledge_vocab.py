"""How common a word is, counted once per process and knowledge version (issue 26): a turn
asks it for every search it makes, and the engine's counts change only with the knowledge."""

import json

import pytest

from chatwidget.shop.knowledge import backends, vocab
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure

pytestmark = pytest.mark.django_db(transaction=True)


def _import(site, path, rows):
    path.write_text("\n".join(json.dumps(row) for row in rows))
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok


def _rows(prefix: str, n: int, text: str) -> list[dict]:
    return [{"id": f"{prefix}-{i}", "title": f"Item {prefix} {i}", "text": text} for i in range(n)]


def test_counts_are_read_once_per_knowledge_version(
    site, tmp_path, monkeypatch, django_assert_num_queries
):
    reads = []
    for name in ("_pg_common", "_sqlite_docs"):
        real = getattr(vocab, name)
        monkeypatch.setattr(
            vocab, name, lambda *a, _real=real, _name=name: reads.append(_name) or _real(*a)
        )
    _import(
        site,
        tmp_path / "a.jsonl",
        _rows("A", 20, "A woollen scarf.") + _rows("B", 10, "Gift card."),
    )
    first = backends.term_shares(terms=["woollen", "zebra"], language="en", site_id=site.pk)
    assert first["woollen"] > 0.5 and first["zebra"] == 0.0
    with django_assert_num_queries(0):  # the next turn's words are counted already
        again = backends.term_shares(terms=["woollen", "zebra"], language="en", site_id=site.pk)
    assert again == first and len(reads) == 1
    # new knowledge, new counts
    _import(site, tmp_path / "b.jsonl", _rows("C", 60, "A linen shirt."))
    after = backends.term_shares(terms=["woollen", "zebra"], language="en", site_id=site.pk)
    assert after["woollen"] < first["woollen"] and len(reads) == 2
