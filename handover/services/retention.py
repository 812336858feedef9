"""Retention of case rows: after the run-off a case keeps only what staff wrote.

A case resolved (or released) more than the site's `case_days` ago loses its raw copies (the
condensed core, the contact details), the reason (the visitor's or the model's words) and its
link to the transcript; the row keeps status, trigger, times and the staff's case note (for
the team's records, as documented). The conversation then follows the session period alone
(memory's purge). Webhook deliveries about the conversation lose the text they quote
(chatwidget.integrations.retention).
Run by the retention purge (chatwidget.purge) in bounded batches.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, Value
from django.db.models.functions import Coalesce

from chatwidget.integrations.retention import webhook_texts_forget
from handover.models import Case, ContinuationCode, TranscriptRequest
from memory.models import RetentionPolicy
from memory.selectors import case_runoff_cutoff, policy_groups

ENDED_STATUSES = (Case.Status.RESOLVED, Case.Status.RELEASED)


def _run_off_over_q(*, policy: RetentionPolicy, now: datetime) -> Q:
    """Cases whose run-off is over: resolved (or released) more than case_days ago."""
    cutoff = case_runoff_cutoff(policy=policy, now=now)
    return Q(status__in=ENDED_STATUSES) & (
        Q(resolved_at__lt=cutoff) | Q(resolved_at__isnull=True, requested_at__lt=cutoff)
    )


def case_copies_purge_expired(*, now: datetime, batch_size: int = 500) -> int:
    """Clear the raw copies of every case past its run-off, per site policy. Returns how many
    cases were cleared; safe to run twice (cleared cases are marked).

    A case whose conversation was purged or erased first (the purge's normal order: memory's
    part runs before this one) is marked already (`transcript_purged_at`, by the receiver
    of `conversations_removing`) but still has its reason: it is cleared here too."""
    done = 0
    for site_ids, policy in policy_groups():
        pending = Case.objects.filter(site_id__in=site_ids).filter(
            (Q(transcript_purged_at__isnull=True) | ~Q(reason="")),
            _run_off_over_q(policy=policy, now=now),
        )
        while True:
            rows = list(pending.order_by("pk").values_list("pk", "conversation_id")[:batch_size])
            if not rows:
                break
            ids = [pk for pk, _ in rows]
            # the reason quoted by webhook deliveries goes with the case's
            webhook_texts_forget(conversation_ids=[c for _, c in rows if c is not None])
            done += Case.objects.filter(pk__in=ids).update(
                core={},
                contact=[],
                reason="",
                conversation=None,
                transcript_purged_at=Coalesce("transcript_purged_at", Value(now)),
            )
    return done


def mail_links_purge_expired(*, now: datetime) -> int:
    """Continuation codes expired over a day ago, and transcript e-mail requests older than
    TRANSCRIPT_REQUEST_KEEP_DAYS (then they count for no cap and confirm nothing)."""
    codes, _ = ContinuationCode.objects.filter(expires_at__lt=now - timedelta(days=1)).delete()
    keep = timedelta(days=int(getattr(settings, "TRANSCRIPT_REQUEST_KEEP_DAYS", 7)))
    requests, _ = TranscriptRequest.objects.filter(created_at__lt=now - keep).delete()
    return codes + requests
