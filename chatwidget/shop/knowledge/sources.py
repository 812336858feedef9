"""A source's life from admin: an uploaded file stored (through the storage API, so every
process reads it), queued for the worker, re-synced on the owner's schedule, deleted with its
documents; one document deleted. The import itself is knowledge.services.

The schedule (`resync_hours`: 0 off, 1 hourly, 24 daily, 168 weekly, any hours) is kept as
`next_sync_at`: the last import plus the interval, set again when an import ends
(services._finish). Beat's `knowledge_resync_claim` takes the sources that are due, each by
a conditional update that moves its next sync on, so a tick that runs twice enqueues a
source once; a source whose import runs (its import lock is held) is left for that run to
reschedule. URL and path sources only: an upload is the same file until it is uploaded again,
and a shop connection has its own sync.
"""

from datetime import datetime, timedelta
from pathlib import Path

from django.core.cache import cache
from django.core.files import File
from django.db import transaction
from django.utils import timezone

from chatwidget.platform import cache_keys
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


RESYNC_KINDS = (KnowledgeSource.Kind.URL, KnowledgeSource.Kind.PATH)
RESYNC_MAX_HOURS = 24 * 90


def knowledge_resync_set(*, source: KnowledgeSource, hours: int) -> None:
    """The owner's schedule for a source: the next sync is the last import plus `hours`
    (now, for a source never imported); 0 switches it off."""
    if source.kind not in RESYNC_KINDS:
        hours = 0
    hours = max(0, min(int(hours), RESYNC_MAX_HOURS))
    due = (source.imported_at or timezone.now()) + timedelta(hours=hours) if hours else None
    KnowledgeSource.objects.filter(pk=source.pk).update(resync_hours=hours, next_sync_at=due)
    source.resync_hours, source.next_sync_at = hours, due


def knowledge_resync_claim(*, now: datetime | None = None) -> list[int]:
    """The ids of the sources due for a re-sync, each claimed (its next sync moved on by
    its interval, its status queued) for the caller to enqueue. A source whose import is
    running is not claimed: that run sets its next sync when it ends."""
    now = now or timezone.now()
    due = KnowledgeSource.objects.filter(
        kind__in=RESYNC_KINDS, resync_hours__gt=0, next_sync_at__lte=now
    ).values_list("pk", "resync_hours", "next_sync_at")
    claimed = []
    for pk, hours, at in due:
        if cache.get(cache_keys.knowledge_import_lock(pk)) is not None:
            continue
        taken = KnowledgeSource.objects.filter(pk=pk, next_sync_at=at).update(
            next_sync_at=now + timedelta(hours=hours), status=KnowledgeSource.Status.QUEUED
        )
        if taken:
            claimed.append(pk)
    return claimed
