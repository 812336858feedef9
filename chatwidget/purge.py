"""The retention purge of the whole product: memory's data, then handover's case rows and
the webhook delivery log.

memory does not know about cases (it never imports handover), so the one purge that the beat
task and `manage.py purge_expired` run is put together here, above both apps."""

from django.utils import timezone

from chatwidget.integrations.retention import webhook_deliveries_purge_expired
from handover.services.alerts import alert_rows_purge
from handover.services.retention import case_copies_purge_expired, mail_links_purge_expired
from memory.retention import PurgeCounts, retention_purge_expired


def retention_purge_all(
    *, now=None, batch_size: int = 500, time_budget_s: float = 60.0
) -> PurgeCounts:
    """Conversations, profiles and audit events (memory), then the raw copies of cases past
    their run-off (handover) and the webhook delivery log past its period (integrations), in
    bounded batches. When the time budget runs out the rest
    waits for the next run (`finished` is False)."""
    now = now or timezone.now()
    counts = retention_purge_expired(now=now, batch_size=batch_size, time_budget_s=time_budget_s)
    if counts.finished:
        counts.cases += case_copies_purge_expired(now=now, batch_size=batch_size)
        mail_links_purge_expired(now=now)  # hashes only: not counted as personal data
        alert_rows_purge(now=now)  # staff alerts (ids and times) after ALERT_KEEP_DAYS
        counts.webhook_deliveries += webhook_deliveries_purge_expired(
            now=now, batch_size=batch_size
        )
    return counts
