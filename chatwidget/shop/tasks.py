"""The knowledge import on the Celery worker, for imports started from admin: long imports
run there and write their progress to the source row, which the admin page shows. The shop
connection's catalogue sync (the schedule) and product webhook refreshes (issue 29).

One run per source at a time (`knowledge_import_lock`): another import of the source asked
while one runs is skipped and logged; the same task delivered again after its run died (its
pool process killed, its worker killed) takes the dead run's lock over and imports. The broker's
visibility timeout outlives the lock and the time limit (settings: long_tasks_check), so a
task is redelivered only after the run that held it has ended, killed or not.
"""

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from chatwidget.shop.connect.sync import SyncBusy, knowledge_sync
from chatwidget.shop.connect.webhooks import PRODUCT_REFRESH_TASK, product_refresh
from chatwidget.shop.knowledge.embedding_queue import (
    KNOWLEDGE_EMBED_TASK,
    knowledge_embed_pending,
    knowledge_embed_remaining,
    knowledge_embed_sites,
)
from chatwidget.shop.knowledge.services import (
    knowledge_embed_lock,
    knowledge_import,
    knowledge_import_lock,
)
from chatwidget.shop.knowledge.sources import knowledge_resync_claim
from chatwidget.shop.models.connections import Connection
from chatwidget.shop.models.knowledge import KnowledgeSource
from chatwidget.shop.platforms.base import PlatformError

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="memory.knowledge.import_source",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
    soft_time_limit=max(settings.KNOWLEDGE_IMPORT_TIME_LIMIT_SECONDS - 300, 1),
    time_limit=settings.KNOWLEDGE_IMPORT_TIME_LIMIT_SECONDS,
)
def knowledge_import_source(self, source_id: int) -> dict:
    with knowledge_import_lock(source_id, run=self.request.id) as held:
        if not held:
            log.warning("knowledge import already running; skipped", extra={"source": source_id})
            return {"skipped": True}
        source = KnowledgeSource.objects.select_related("site").filter(pk=source_id).first()
        if source is None:  # deleted meanwhile
            return {}
        result = knowledge_import(
            source=source,
            progress=lambda n: KnowledgeSource.objects.filter(pk=source_id).update(progress_done=n),
        )
    return {"read": result.read, "problems": len(result.problems), "failed": bool(result.failed)}


@shared_task(name="chatwidget.shop.tasks.knowledge_resync_due", ignore_result=True)
def knowledge_resync_due() -> int:
    """Beat: an import task for each source whose owner-set re-sync is due (claimed once,
    skipped while its import runs: knowledge.sources.knowledge_resync_claim)."""
    ids = knowledge_resync_claim()
    for pk in ids:
        knowledge_import_source.delay(pk)
    return len(ids)


@shared_task(
    name="chatwidget.shop.tasks.knowledge_sync",
    ignore_result=True,
    acks_late=False,  # a sync resumes from its staging; a second delivery would wait on the lock
    soft_time_limit=3300,
    time_limit=3600,
)
def knowledge_sync_connection(connection_id: int) -> dict:
    """Sync one connection's catalogue (the schedule enqueues one per connection)."""
    connection = Connection.objects.select_related("site").filter(pk=connection_id).first()
    if connection is None or not connection.enabled:
        return {}
    try:
        result = knowledge_sync(connection=connection)
    except SyncBusy:
        return {"busy": True}
    return {"changed": result.changed, "removed": result.removed, "error": bool(result.error)}


@shared_task(name="chatwidget.shop.tasks.knowledge_sync_all", ignore_result=True)
def knowledge_sync_all() -> int:
    """Beat: one sync task per enabled connection."""
    ids = list(Connection.objects.filter(enabled=True).values_list("pk", flat=True))
    for pk in ids:
        knowledge_sync_connection.delay(pk)
    return len(ids)


@shared_task(
    name=PRODUCT_REFRESH_TASK,
    autoretry_for=(PlatformError, OperationalError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def product_refresh_task(connection_id: int, product_id: str) -> str:
    """A verified product webhook: re-read that product."""
    connection = Connection.objects.select_related("site").filter(pk=connection_id).first()
    if connection is None:
        return ""
    return product_refresh(connection=connection, product_id=str(product_id))


EMBED_RUN_SECONDS = 60  # one run's share; more chunks: the task queues itself again


@shared_task(
    name=KNOWLEDGE_EMBED_TASK,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
    soft_time_limit=EMBED_RUN_SECONDS + 90,
    time_limit=EMBED_RUN_SECONDS + 120,
)
def knowledge_embed(site_id: int) -> dict:
    """Embed a site's new chunks in batches (issue 26), for about a minute per run, then
    queue itself again while chunks without a vector are left: other tasks get the worker
    between runs. One run per site at a time (a second delivery is skipped: the run holding
    the lock looks for new chunks once more after releasing it)."""
    with knowledge_embed_lock(site_id) as held:
        if not held:
            return {"skipped": True}
        run = knowledge_embed_pending(site_id=site_id, max_seconds=EMBED_RUN_SECONDS)
    log.info(
        "knowledge embedded",
        extra={
            "site": site_id,
            "chunks": run.embedded,
            "seconds": round(run.seconds, 1),
            "failed": run.failed,
        },
    )
    if not run.failed and (run.remaining or knowledge_embed_remaining(site_id=site_id)):
        knowledge_embed.delay(site_id)
    return {"embedded": run.embedded, "failed": run.failed}


@shared_task(name="chatwidget.shop.tasks.knowledge_embed_all", ignore_result=True)
def knowledge_embed_all() -> int:
    """Beat: a run for every site with chunks still without a vector (an upgrade that
    switched embeddings on, a queue message lost with the broker, a failed embedder)."""
    sites = knowledge_embed_sites()
    for site_id in sites:
        knowledge_embed.delay(site_id)
    return len(sites)
