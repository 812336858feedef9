"""Retention: per-site policies and memory's part of the purge that enforces them.

`retention_purge_expired` purges memory's data; the product's purge
(`chatwidget.purge.retention_purge_all`, run by the beat task
`chatwidget.tasks.purge_expired` every few minutes and by `manage.py purge_expired`) calls it
and then handover's purge of case rows. It works in bounded batches, so a backlog (a worker
that was down for a week) is cleared over several runs without one long transaction. Reads
do not wait for it: `memory.selectors` treats expired data as gone already
(`conversation_is_expired`, `conversations_live`, `transcript_copy_is_expired`).

What goes here, per site and under the site's *current* policy:
- a conversation (turns, cores, traces, visitors' files, cache entries) once its session period has passed
  since the last turn and no case holds it (the transcript hold, `memory.selectors`); the
  copies other apps keep of it go in the same transaction (`memory.signals`), and so does
  the text webhook deliveries quote of it (`chatwidget.integrations.retention`);
- a recognition profile (with its facts) once the profile period has passed since the last
  visit; the consent record stays as evidence;
- audit events older than the audit period;
- a signed-in customer (memory.customers) once no conversation links it any more.
"""

import logging
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from chatwidget.integrations.retention import webhook_texts_forget
from chatwidget.platform import cache_keys
from chatwidget.platform.events import conversation_group, publish_on_commit
from chatwidget.platform.frames import forgotten_frame
from chatwidget.platform.ratelimit import parse_rate
from chatwidget.sites.models import Site
from memory.attachments import attachment_files_forget
from memory.models import AuditEvent, Conversation, Customer, Profile, RetentionPolicy
from memory.selectors import conversations_expired, policy_groups, profile_period
from memory.signals import conversations_removing, removal_counts

log = logging.getLogger(__name__)

POLICY_FIELDS = ("session_hours", "case_days", "profile_months", "audit_days")


# --- policies ---------------------------------------------------------------------------------


def retention_policy_ensure(*, site_id: int) -> RetentionPolicy:
    """The site's policy row, created with the defaults when missing."""
    policy, _ = RetentionPolicy.objects.get_or_create(site_id=site_id)
    return policy


def retention_policies_ensure() -> int:
    """A policy row with the defaults for every site that has none (a site made in the Site
    admin, or by `site_create`), so owners find every site in the retention admin. Reads
    never need the row (`retention_for_site` falls back to the defaults). Returns how many
    rows were made."""
    missing = Site.objects.filter(retention__isnull=True).values_list("pk", flat=True)
    made = RetentionPolicy.objects.bulk_create(
        [RetentionPolicy(site_id=pk) for pk in missing], ignore_conflicts=True
    )
    return len(made)


def retention_policy_update(*, site_id: int, actor, values: dict[str, int]) -> RetentionPolicy:
    """Change a site's retention periods (validated against the bounds) and log the change:
    old and new numbers and the actor. The caller has checked the owner permission."""
    unknown = set(values) - set(POLICY_FIELDS)
    if unknown:
        raise ValueError(f"not a retention field: {sorted(unknown)}")
    with transaction.atomic():
        retention_policy_ensure(site_id=site_id)
        policy = RetentionPolicy.objects.select_for_update().get(site_id=site_id)
        changes = {}
        for field, value in values.items():
            old = getattr(policy, field)
            if old != value:
                changes[field] = {"old": old, "new": int(value)}
                setattr(policy, field, int(value))
        if not changes:
            return policy
        policy.updated_by = actor if getattr(actor, "pk", None) else None
        policy.full_clean()
        policy.save()
        audit_record(
            action=AuditEvent.Action.RETENTION,
            actor=actor,
            site_id=site_id,
            target=f"site {site_id} / retention policy",
            details={"changes": changes},
        )
    log.info("retention policy changed", extra={"site": site_id, "fields": sorted(changes)})
    return policy


def audit_record(
    *,
    action: str,
    actor=None,
    site_id: int | None = None,
    conversation_ref: int | None = None,
    target: str = "",
    reason: str = "",
    details: dict | None = None,
) -> AuditEvent:
    """One audit event. `details` holds counts and ids only, never message text."""
    label = actor.get_username() if getattr(actor, "pk", None) else ""
    return AuditEvent.objects.create(
        action=action,
        actor=actor if label else None,
        actor_label=label,
        site_id=site_id,
        conversation_ref=conversation_ref,
        target=target[:200],
        reason=reason,
        details=details or {},
    )


# --- cache entries keyed by a conversation ------------------------------------------------------


def conversation_cache_keys(*, conversation_id: int) -> list[str]:
    """Every cache key the product writes for one conversation: the condensation lock and the
    per-session rate-limit buckets (current and previous window, `chatwidget.platform.ratelimit`)."""
    _, window = parse_rate(settings.RATE_LIMIT_PER_SESSION)
    bucket = int(time.time() // window)
    return cache_keys.conversation_keys(
        conversation_id=conversation_id, session_windows=[bucket - 1, bucket, bucket + 1]
    )


def conversation_cache_clear(*, conversation_ids: list[int]) -> None:
    keys = [k for cid in conversation_ids for k in conversation_cache_keys(conversation_id=cid)]
    if keys:
        cache.delete_many(keys)


# --- the purge --------------------------------------------------------------------------------


@dataclass
class PurgeCounts:
    conversations: int = 0
    turns: int = 0
    cores: int = 0
    traces: int = 0
    attachments: int = 0  # visitors' files, deleted from storage after the batch's commit
    cases: int = 0
    profiles: int = 0
    customers: int = 0
    audit_events: int = 0
    webhook_texts: int = 0  # webhook deliveries whose quoted text went with the conversation
    webhook_deliveries: int = 0  # rows of the delivery log past their period (chatwidget.purge)
    batches: int = 0
    finished: bool = True

    def as_dict(self) -> dict:
        return asdict(self)


def _deleted(counts: dict[str, int], model: str) -> int:
    return counts.get(model, 0)


def _purge_conversation_batch(
    *, ids: list[int], now, totals: PurgeCounts, per_site: dict[int, dict[str, int]]
) -> int:
    """Delete one batch of expired conversations. The expiry is checked again under a row
    lock, so a visitor who writes at this very moment keeps the conversation."""
    with transaction.atomic():
        locked = Conversation.objects.select_for_update(skip_locked=True).filter(pk__in=ids)
        rows = list(conversations_expired(now=now, queryset=locked).values_list("pk", "site_id"))
        if not rows:
            return 0
        pks = [pk for pk, _ in rows]
        # other apps' copies of these transcripts (handover cases) go in this transaction
        others = removal_counts(
            conversations_removing.send(
                sender=Conversation, conversation_ids=pks, now=now, delete_cases=False
            )
        )
        totals.cases += sum(others.values())
        totals.webhook_texts += webhook_texts_forget(conversation_ids=pks)
        totals.attachments += attachment_files_forget(conversation_ids=pks)  # after commit
        _, counts = Conversation.objects.filter(pk__in=pks).delete()
        for pk, site_id in rows:
            site = per_site.setdefault(site_id, {"conversations": 0})
            site["conversations"] += 1
            # Open tabs drop the transcript they still show and close (DESIGN: `forgotten`).
            publish_on_commit(conversation_group(pk), forgotten_frame())
        transaction.on_commit(lambda: conversation_cache_clear(conversation_ids=pks))
    totals.conversations += _deleted(counts, "memory.Conversation")
    totals.turns += _deleted(counts, "memory.Turn")
    totals.cores += _deleted(counts, "memory.Core")
    totals.traces += _deleted(counts, "memory.ContextTrace")
    return len(pks)


def retention_purge_expired(
    *, now=None, batch_size: int = 500, time_budget_s: float = 60.0
) -> PurgeCounts:
    """Purge everything that has expired under the current policies, in batches of
    `batch_size`, until done or `time_budget_s` has passed (the next run continues).
    Safe to run twice and concurrently (rows are locked with SKIP LOCKED)."""
    now = now or timezone.now()
    started = time.monotonic()
    totals = PurgeCounts()
    per_site: dict[int, dict[str, int]] = {}

    def over_budget() -> bool:
        return time.monotonic() - started > time_budget_s

    # 1. conversations whose session period is over and that no case holds
    expired = conversations_expired(now=now).order_by("pk")
    last_pk = 0
    while True:
        ids = list(expired.filter(pk__gt=last_pk).values_list("pk", flat=True)[:batch_size])
        if not ids:
            break
        totals.batches += 1
        _purge_conversation_batch(ids=ids, now=now, totals=totals, per_site=per_site)
        last_pk = ids[-1]  # rows skipped as locked are retried by the next run
        if over_budget():
            totals.finished = False
            break

    groups = policy_groups()
    # 2. profiles; 3. audit events
    for site_ids, policy in groups:
        if not totals.finished:
            break
        profiles = Profile.objects.filter(
            site_id__in=site_ids,
            last_visit_at__lt=now - profile_period(months=policy.profile_months),
        )
        totals.profiles += _delete_in_batches(
            profiles, model="memory.Profile", batch_size=batch_size
        )
        events = AuditEvent.objects.filter(
            site_id__in=site_ids, at__lt=now - timedelta(days=policy.audit_days)
        )
        totals.audit_events += _delete_in_batches(
            events, model="memory.AuditEvent", batch_size=batch_size
        )
        if over_budget():
            totals.finished = False
    if totals.finished:
        default_days = RetentionPolicy().audit_days
        totals.audit_events += _delete_in_batches(
            AuditEvent.objects.filter(site__isnull=True, at__lt=now - timedelta(days=default_days)),
            model="memory.AuditEvent",
            batch_size=batch_size,
        )

    if totals.finished:
        totals.customers += customers_orphaned_purge(now=now)
    for site_id, counts in per_site.items():
        audit_record(
            action=AuditEvent.Action.PURGE,
            site_id=site_id,
            target=f"site {site_id} / expired conversations",
            details=counts,
        )
    log.info("retention purge", extra=totals.as_dict())
    return totals


# A customer row without a conversation is kept this long (the link is written right after
# the conversation's first turn: the purge must not race it), then purged.
CUSTOMER_ORPHAN_GRACE = timedelta(hours=1)


def customers_orphaned_purge(*, now=None) -> int:
    """Signed-in customers no conversation links any more (each was purged or erased): their
    row has no purpose left. Returns how many went."""
    now = now or timezone.now()
    orphans = Customer.objects.filter(
        conversations__isnull=True, last_seen_at__lt=now - CUSTOMER_ORPHAN_GRACE
    )
    return orphans.delete()[1].get("memory.Customer", 0)


def _delete_in_batches(queryset, *, model: str, batch_size: int) -> int:
    deleted = 0
    while True:
        ids = list(queryset.order_by("pk").values_list("pk", flat=True)[:batch_size])
        if not ids:
            return deleted
        with transaction.atomic():
            _, counts = queryset.model.objects.filter(pk__in=ids).delete()
        deleted += counts.get(model, 0)


def conversation_hold_set(
    *,
    conversation_id: int,
    open: bool,  # the case is open
    resolved_at: datetime | None = None,
) -> None:
    """Record what the conversation's cases mean for its transcript (handover calls this on
    every case transition, in the transition's transaction).

    `open=True`: a case was opened; the transcript is held while it is open. `open=False`
    with `resolved_at`: the case was resolved; the transcript is held for the site's case
    run-off after that time. `open=False` without `resolved_at`: the case was released to
    the bot; the hold of the open case ends (an earlier resolved case's run-off stays)."""
    update: dict = {"case_hold": open}
    if resolved_at is not None:
        update["case_resolved_at"] = resolved_at
    Conversation.objects.filter(pk=conversation_id).update(**update)
