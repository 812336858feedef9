"""A source's life from admin: an uploaded file stored (through the storage API, so every
process reads it), queued for the worker, deleted with its documents; one document deleted.
The import itself is knowledge.services."""

from pathlib import Path

from django.core.files import File
from django.db import transaction

from chatwidget.shop.knowledge.services import knowledge_hint_refresh
from chatwidget.shop.models.knowledge import KnowledgeDocument, KnowledgeSource
from chatwidget.sites.models import Site


def knowledge_source_upload(*, site: Site, name: str, content) -> KnowledgeSource:
    """An uploaded file as a source. Uploading a file of the same name again replaces it,
    so a re-upload of the feed re-imports it (changed, unchanged and removed documents)."""
    location = f"upload: {Path(name).name}"
    source, _ = KnowledgeSource.objects.get_or_create(
        site=site, location=location, defaults={"kind": KnowledgeSource.Kind.UPLOAD}
    )
    if source.upload:
        source.upload.delete(save=False)
    source.upload.save(Path(name).name, content if isinstance(content, File) else File(content))
    return source


def knowledge_import_queued(*, source: KnowledgeSource) -> None:
    """Mark a source as waiting for the worker (the admin enqueues after commit)."""
    KnowledgeSource.objects.filter(pk=source.pk).update(
        status=KnowledgeSource.Status.QUEUED, progress_done=0
    )


def knowledge_source_delete(*, source: KnowledgeSource) -> int:
    """Delete a source with its documents and chunks (the index follows the chunks)."""
    count = source.documents.count()
    with transaction.atomic():
        site_id = source.site_id
        source.delete()
        knowledge_hint_refresh(site_id)
    if source.upload:
        source.upload.delete(save=False)
    return count


def knowledge_document_delete(*, document: KnowledgeDocument) -> None:
    with transaction.atomic():
        document.delete()
        knowledge_hint_refresh(document.site_id)
