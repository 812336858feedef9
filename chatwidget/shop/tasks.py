"""The knowledge import on the Celery worker, for imports started from admin: long imports
run there and write their progress to the source row, which the admin page shows.

One run per source at a time (`knowledge_import_lock`): a second delivery of the task while
one runs (a re-import asked meanwhile, a broker redelivery) is skipped and logged. The broker's
visibility timeout outlives the lock and the time limit (settings: long_tasks_check), so a
task is redelivered only after the run that held it has ended, killed or not.
"""

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from chatwidget.shop.knowledge.services import knowledge_import, knowledge_import_lock
from chatwidget.shop.models.knowledge import KnowledgeSource

log = logging.getLogger(__name__)


@shared_task(
    name="memory.knowledge.import_source",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
    soft_time_limit=max(settings.KNOWLEDGE_IMPORT_TIME_LIMIT_SECONDS - 300, 1),
    time_limit=settings.KNOWLEDGE_IMPORT_TIME_LIMIT_SECONDS,
)
def knowledge_import_source(source_id: int) -> dict:
    with knowledge_import_lock(source_id) as held:
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
