"""The knowledge import on the Celery worker, for imports started from admin: long imports
run there and write their progress to the source row, which the admin page shows."""

from celery import shared_task
from django.db import OperationalError

from chatwidget.shop.knowledge.services import knowledge_import
from chatwidget.shop.models.knowledge import KnowledgeSource


@shared_task(
    name="memory.knowledge.import_source",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
    soft_time_limit=3300,
    time_limit=3600,
)
def knowledge_import_source(source_id: int) -> dict:
    source = KnowledgeSource.objects.select_related("site").filter(pk=source_id).first()
    if source is None:  # deleted meanwhile
        return {}
    result = knowledge_import(
        source=source,
        progress=lambda n: KnowledgeSource.objects.filter(pk=source_id).update(progress_done=n),
    )
    return {"read": result.read, "problems": len(result.problems), "failed": bool(result.failed)}
