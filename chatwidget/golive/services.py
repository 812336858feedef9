"""Go-live check runs: create one (refused in demo mode), execute it, keep the report.

`golive_run_execute` is sync (the management command and the Celery task call it). It drives
the cases on the process's model loop (memory's background loop for model calls from code
that has none): the cached OpenAI client is bound to the loop that opened its connections,
and condensation, which runs inside the check, uses that loop too.
"""

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from chatwidget.golive.cases import CASES
from chatwidget.golive.cleanup import golive_conversations_delete
from chatwidget.golive.models import GoliveRun
from chatwidget.golive.probe import CaseResult, Probe, ttft_median
from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.platform.rehearsal import rehearsal, rehearsal_application
from chatwidget.sites.models import Site
from memory.condense.model import _background_loop  # the process's loop for model calls

log = logging.getLogger(__name__)

RUN_TIMEOUT_S = 30 * 60
GOLIVE_TASK = "chatwidget.golive.tasks.golive_check"
Progress = Callable[[GoliveRun, dict | None], None]


class GoliveRefused(Exception):
    """The check cannot run here (demo mode, no origin); the message says why."""


def site_model_name(site: Site) -> str:
    return site.model_name or settings.CHAT_MODEL


def golive_refusal(*, site: Site) -> str | None:
    """Why the check may not run for this site now, or None."""
    if settings.DEMO_MODE:
        return _(
            "The go-live check needs a language model, and this installation runs in "
            "demo mode (no OPENAI_API_KEY). Configure the model first; the check then "
            "runs against it."
        )
    if not site.allowed_origins:
        return _(
            "The site has no allowed origin; the check talks to the chat as a page of "
            "the site would."
        )
    return None


def _fingerprint(text: str) -> str:
    return f"{len(text)} chars, sha256 {hashlib.sha256(text.encode()).hexdigest()[:10]}"


def golive_run_create(
    *,
    site: Site,
    requested_by=None,
    source: str = "command",
    grader_model: str = "",
) -> GoliveRun:
    reason = golive_refusal(site=site)
    if reason:
        raise GoliveRefused(reason)
    return GoliveRun.objects.create(
        site=site,
        requested_by=requested_by,
        source=source,
        model_name=site_model_name(site),
        grader_model=grader_model or site_model_name(site),
        progress_total=len(CASES),
        config={
            "context_budget": site.context_budget,
            "answer_reserve": site.answer_reserve,
            "verbatim_window_turns": site.verbatim_window_turns,
            "verbatim_min_exchanges": site.verbatim_min_exchanges,
            "condense_after_turns": site.condense_after_turns,
            # fingerprints, not the texts: the report says whether they changed
            "system_rules": _fingerprint(site.system_rules),
            "pinned_conventions": _fingerprint(site.pinned_conventions),
        },
    )


def golive_run_start(*, site: Site, requested_by) -> GoliveRun:
    """The admin button: create the run and hand it to a worker once it is committed."""
    with transaction.atomic():
        run = golive_run_create(site=site, requested_by=requested_by, source="admin")
        task_enqueue_on_commit(GOLIVE_TASK, run.pk)
    return run


def _save(run: GoliveRun, *fields: str) -> None:
    run.save(update_fields=list(fields))


async def _track(run: GoliveRun, conversation_id: int) -> None:
    run.conversation_ids = [*run.conversation_ids, conversation_id]
    await database_sync_to_async(_save)(run, "conversation_ids")


async def _cleanup(run: GoliveRun) -> None:
    if run.conversation_ids:
        await database_sync_to_async(golive_conversations_delete)(
            conversation_ids=run.conversation_ids
        )
        run.conversation_ids = []
        await database_sync_to_async(_save)(run, "conversation_ids")


async def _rehearsed(work: Awaitable[None]) -> None:
    """`work` as a rehearsal: no webhook and no staff e-mail goes out for the check's
    throw-away visitors (chatwidget.platform.rehearsal)."""
    with rehearsal():
        await work


async def _execute(
    run: GoliveRun,
    *,
    application,
    only: list[str] | None,
    progress: Progress | None,
    quiet_s: float,
    answer_timeout_s: float,
) -> None:
    site = await database_sync_to_async(Site.objects.get)(pk=run.site_id)
    origin = site.allowed_origins[0]
    cases = [c for c in CASES if not only or c.key in only]
    run.progress_total = len(cases)
    for case in cases:
        run.current_case = case.key
        await database_sync_to_async(_save)(run, "current_case", "progress_total")
        if progress:
            progress(run, None)
        probe = Probe(
            site=site,
            application=rehearsal_application(application),
            origin=origin,
            grader_model=run.grader_model,
            quiet_s=quiet_s,
            answer_timeout_s=answer_timeout_s,
            on_conversation=lambda cid: _track(run, cid),
        )
        probe.result = CaseResult(key=case.key, title=str(case.title))
        try:
            await case.run(probe)
        except Exception as exc:  # a case that breaks is a failed case, not a failed run
            log.exception("go-live case failed", extra={"case": case.key})
            probe.result.error = f"{type(exc).__name__}: {exc}"[:500]
        try:
            await probe.figures()
        except Exception as exc:  # noqa: BLE001 - figures are a report detail
            probe.result.error = probe.result.error or f"figures: {type(exc).__name__}"
        await _cleanup(run)  # at once: a handover case must not wait for staff long
        result = probe.result.as_dict()
        run.report = [*run.report, result]
        run.progress_done += 1
        run.total_tokens += result["tokens"].get("total", 0)
        await database_sync_to_async(_save)(run, "report", "progress_done", "total_tokens")
        if progress:
            progress(run, result)


def golive_run_execute(
    *,
    run_id: int,
    application,
    only: list[str] | None = None,
    progress: Progress | None = None,
    quiet_s: float = 3.0,
    answer_timeout_s: float | None = None,
) -> GoliveRun:
    """Run the cases of a created run; store the report and the final status. Leftovers of
    an earlier run of the site that crashed are deleted first.

    `application` is the ASGI application a visitor reaches (`chatwidget.asgi`), handed in
    by the caller (a transport), so this service does not import a transport."""
    run = GoliveRun.objects.select_related("site").get(pk=run_id)
    active = Q(
        status__in=[GoliveRun.Status.QUEUED, GoliveRun.Status.RUNNING],
        created_at__gt=timezone.now() - timedelta(seconds=RUN_TIMEOUT_S),
    )
    for stale in (
        GoliveRun.objects.filter(site_id=run.site_id)
        .exclude(pk=run.pk)
        .exclude(conversation_ids=[])
        .exclude(active)
    ):  # a run still going keeps its own
        golive_conversations_delete(conversation_ids=stale.conversation_ids)
        GoliveRun.objects.filter(pk=stale.pk).update(conversation_ids=[])
    reason = golive_refusal(site=run.site)
    if reason:
        run.status, run.error, run.finished_at = GoliveRun.Status.ERROR, reason, timezone.now()
        _save(run, "status", "error", "finished_at")
        return run
    run.status, run.started_at = GoliveRun.Status.RUNNING, timezone.now()
    _save(run, "status", "started_at")
    timeout = answer_timeout_s or settings.LLM_TIMEOUT_SECONDS * 3
    future = asyncio.run_coroutine_threadsafe(
        _rehearsed(
            _execute(
                run,
                application=application,
                only=only,
                progress=progress,
                quiet_s=quiet_s,
                answer_timeout_s=timeout,
            )
        ),
        _background_loop(),
    )
    try:
        future.result(timeout=RUN_TIMEOUT_S)
    except Exception as exc:  # the run broke as a whole: say so, and still clean up
        future.cancel()
        log.exception("go-live run failed", extra={"run": run.pk})
        run.error = f"{type(exc).__name__}: {exc}"[:1000]
    finally:
        golive_conversations_delete(conversation_ids=run.conversation_ids)
        run.conversation_ids = []
    statuses = {c["status"] for c in run.report}
    if run.error:
        run.status = GoliveRun.Status.ERROR
    elif "fail" in statuses:
        run.status = GoliveRun.Status.FAILED
    elif "warn" in statuses:
        run.status = GoliveRun.Status.WARNED
    else:
        run.status = GoliveRun.Status.PASSED
    run.ttft_median_ms = ttft_median(run.report)
    run.current_case, run.finished_at = "", timezone.now()
    _save(
        run, "status", "error", "ttft_median_ms", "current_case", "finished_at", "conversation_ids"
    )
    log.info(
        "go-live run finished",
        extra={"run": run.pk, "status": run.status, "tokens": run.total_tokens},
    )
    return run
