"""Uploads through Django's storage API (issue 31): an import reads the uploaded file by its
storage name, never by a local path, so object storage (no path at all) works; the upload
limit; one import per source at a time."""

import json
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from chatwidget.platform import cache_keys
from chatwidget.shop.knowledge.sources import knowledge_source_upload
from chatwidget.shop.models.knowledge import KnowledgeDocument, KnowledgeSource
from chatwidget.shop.tasks import knowledge_import_source

pytestmark = pytest.mark.django_db(transaction=True)

FEED = "\n".join(
    json.dumps({"id": f"P-{i}", "title": f"Product {i}", "text": f"Product number {i}."})
    for i in range(3)
).encode()


@pytest.fixture
def object_storage(settings):
    """A backend whose files are not on this machine's disk (like S3, or a folder the worker
    does not share)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "knowledge": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }


def test_upload_imported_from_storage_without_a_path(object_storage, site):
    source = knowledge_source_upload(
        site=site, name="feed.jsonl", content=SimpleUploadedFile("feed.jsonl", FEED)
    )
    # what the worker read before issue 31: a path, which names no file for this backend
    assert not os.path.exists(source.upload.path)
    assert knowledge_import_source(source.pk)["read"] == 3
    source.refresh_from_db()
    assert source.status == "done"
    assert KnowledgeDocument.objects.filter(source=source).count() == 3


def test_page_upload_from_storage(object_storage, site):
    page = b"---\nurl: https://shop.test/returns\n---\n# Returns\n\nThirty days to return."
    source = knowledge_source_upload(
        site=site, name="returns.md", content=SimpleUploadedFile("returns.md", page)
    )
    knowledge_import_source(source.pk)
    doc = KnowledgeDocument.objects.get(source=source)
    assert (doc.external_id, doc.title, doc.url) == (
        "returns.md",
        "Returns",
        "https://shop.test/returns",
    )


def test_missing_stored_file_fails_the_import(object_storage, site):
    source = knowledge_source_upload(
        site=site, name="feed.jsonl", content=SimpleUploadedFile("feed.jsonl", FEED)
    )
    source.upload.storage.delete(source.upload.name)
    knowledge_import_source(source.pk)
    source.refresh_from_db()
    assert source.status == "failed" and "could not be read" in source.errors[0]


def test_upload_larger_than_the_limit_is_refused(
    client, django_user_model, settings, site, tmp_path
):
    settings.KNOWLEDGE_UPLOAD_DIR = str(tmp_path)
    settings.KNOWLEDGE_UPLOAD_MAX_BYTES = 1024 * 1024
    client.force_login(django_user_model.objects.create_superuser("o", "o@shop.test", "pw"))
    big = SimpleUploadedFile("feed.jsonl", b" " * (1024 * 1024 + 1))
    response = client.post(
        reverse("admin:shop_knowledgesource_add"), {"site": site.pk, "url": "", "file": big}
    )
    assert response.status_code == 200 and b"larger than 1 MB" in response.content
    assert not KnowledgeSource.objects.exists()


def test_a_second_run_of_the_same_import_does_not_run(site, settings, tmp_path, monkeypatch):
    """The second delivery arrives while the first imports (its progress callback starts it):
    it is skipped, and the source is imported once."""
    settings.KNOWLEDGE_UPLOAD_DIR = str(tmp_path)
    source = knowledge_source_upload(
        site=site, name="feed.jsonl", content=SimpleUploadedFile("feed.jsonl", FEED)
    )
    from chatwidget.shop import tasks

    runs, inner = [], []
    real_import = tasks.knowledge_import

    def counting_import(*, source, progress):
        runs.append(source.pk)

        def progress_and_second_delivery(n):
            progress(n)
            if not inner:
                inner.append(knowledge_import_source(source.pk))

        return real_import(source=source, progress=progress_and_second_delivery)

    monkeypatch.setattr(tasks, "knowledge_import", counting_import)
    first = knowledge_import_source(source.pk)
    assert inner == [{"skipped": True}] and runs == [source.pk] and first["read"] == 3
    # released afterwards: the next import runs
    assert knowledge_import_source(source.pk)["read"] == 3 and runs == [source.pk] * 2


def test_the_lock_outlives_the_task_and_the_broker_outlives_the_lock(settings):
    from chatwidget.shop.tasks import knowledge_import_source as task

    assert settings.KNOWLEDGE_IMPORT_LOCK_SECONDS > task.time_limit > task.soft_time_limit
    assert cache_keys.knowledge_import_lock(7) != cache_keys.condense_lock(7)


def test_the_same_task_delivered_again_takes_its_dead_runs_lock_over(object_storage, site):
    """A redelivery of the very message whose run died (its pool process killed) imports;
    another import of the source asked while the lock is held is still skipped."""
    from django.core.cache import cache

    source = knowledge_source_upload(
        site=site, name="feed.jsonl", content=SimpleUploadedFile("feed.jsonl", FEED)
    )
    key = cache_keys.knowledge_import_lock(source.pk)
    cache.set(key, "message-1", timeout=600)  # the dead run's lock, as it left it
    other = knowledge_import_source.apply(args=[source.pk], task_id="message-2").result
    assert other == {"skipped": True}
    again = knowledge_import_source.apply(args=[source.pk], task_id="message-1").result
    assert again["read"] == 3 and KnowledgeDocument.objects.filter(site=site).count() == 3
    assert cache.get(key) is None, "released when the run ends"
