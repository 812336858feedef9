"""Condensation: turns that left the verbatim window become the structured core.

The core (memory.core) is built incrementally (previous core + the turns that just left the
window), by the model with structured output, or, in demo mode and as the last fallback, by
the extractive condenser. Either way it is verified before it is stored. A failed or
rejected condensation never deletes or hides a turn: turns are never touched here, and the
previous core stays current until a verified one is stored.

Concurrency: one condensation per conversation at a time, by a cache lock (`owned_take`:
SET NX on Redis in production, an OS lock around the file cache's add on one machine). Not `select_for_update` on the
conversation row: the model call takes seconds, and that row lock is the one every
`turn_append` takes, so it would hold up replies. Correctness does not rest on the lock:
storing re-checks, under a short row lock, that the new core covers more than the stored
one (`memory.core.core_version_write`), so a run that lost a race (or a second delivery of
the same task) stores nothing.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from chatwidget.platform import cache_keys, llm
from chatwidget.platform.owned import owned_release, owned_take
from memory.condense.model import model_complete
from memory.core import core_latest, core_version_write
from memory.core.extractive import core_extract
from memory.core.inputs import condense_messages_build, turn_inputs
from memory.core.verify import core_verify
from memory.models import Conversation, Core, Turn
from memory.profiles.fold import profile_update_from_core
from memory.window import verbatim_window

log = logging.getLogger(__name__)


class CondenseBusy(Exception):
    """Another condensation of this conversation holds the lock; try again later."""


@dataclass(frozen=True)
class _Step:
    data: dict
    covers_through: int
    source: str
    prompt_tokens: int
    completion_tokens: int
    repairs: dict
    base_version: int = 0  # the core version this step was built on


def _site_model(site) -> str:
    return site.model_name or settings.CHAT_MODEL


@contextmanager
def _condense_lock(conversation_id: int, *, required: bool) -> Iterator[bool]:
    key = cache_keys.condense_lock(conversation_id)
    token = secrets.token_hex(8)
    held = owned_take(key, token, settings.MEMORY_CONDENSE_LOCK_SECONDS)
    if not held and required:
        raise CondenseBusy(conversation_id)
    try:
        yield held
    finally:
        if held:
            owned_release(key, token)


def condense_target(*, conversation_id: int, window_turns: int) -> int:
    """The seq through which the core should cover: every turn older than the newest
    `window_turns` turns (0: nothing has left the window)."""
    row = (
        Turn.objects.filter(conversation_id=conversation_id)
        .order_by("-seq")
        .values_list("seq", flat=True)[window_turns : window_turns + 1]
    )
    row = list(row)
    return row[0] if row else 0


def _condense_step(
    *,
    conversation,
    site,
    previous: Core | None,
    turns: list[Turn],
    use_model: bool,
    fallback: bool,
    inline: bool,
) -> _Step:
    inputs = turn_inputs(turns)
    prev_data = previous.data if previous else None
    through = turns[-1].seq
    reference = core_extract(previous=prev_data, turns=inputs)
    usage = {"prompt": 0, "completion": 0}
    notes: Counter = Counter()
    source = Core.Source.INLINE if inline else Core.Source.EXTRACTIVE
    proposal = reference
    if use_model:
        try:
            proposal, usage = model_complete(
                messages=condense_messages_build(previous=prev_data, turns=inputs),
                model=_site_model(site),
            )
            if not inline:
                source = Core.Source.MODEL
        except llm.ModelUnavailable:
            if not fallback:
                raise
            notes["model_unavailable_extractive_fallback"] += 1
            log.warning(
                "condensation model unavailable; extractive fallback",
                extra={"conversation": conversation.pk},
            )
    try:
        data, repairs = core_verify(
            data=proposal,
            previous=prev_data,
            turns=inputs,
            through_seq=through,
            reference=reference,
        )
    except Exception as exc:  # a verification error must not stop condensing
        if proposal is reference:
            raise
        log.error(
            "core verification failed; extractive fallback",
            extra={"conversation": conversation.pk, "error": type(exc).__name__},
        )
        notes["verify_failed_extractive_fallback"] += 1
        data, repairs = core_verify(
            data=reference,
            previous=prev_data,
            turns=inputs,
            through_seq=through,
            reference=reference,
        )
    repairs = dict(Counter(repairs) + notes)
    return _Step(
        data=data,
        covers_through=through,
        source=source,
        prompt_tokens=int(usage.get("prompt", 0)),
        completion_tokens=int(usage.get("completion", 0)),
        repairs=repairs,
        base_version=previous.version if previous else 0,
    )


def _core_store(*, conversation_id: int, step: _Step, model: str) -> Core | None:
    with transaction.atomic():
        core = core_version_write(
            conversation_id=conversation_id,
            data=step.data,
            covers_through=step.covers_through,
            source=step.source,
            model=model,
            base_version=step.base_version,
            repairs=step.repairs,
            prompt_tokens=step.prompt_tokens,
            completion_tokens=step.completion_tokens,
        )
        if core is not None:  # recognition folds light facts from it, once it is committed
            transaction.on_commit(
                lambda: profile_update_from_core(conversation_id=conversation_id), robust=True
            )
    return core


def core_condense(
    *,
    conversation_id: int,
    through_seq: int | None = None,
    fallback: bool = False,
    inline: bool = False,
) -> Core | None:
    """Bring the core up to `through_seq` (default: every turn older than the verbatim
    window). Incremental, chunked by tokens, verified, stored per chunk.

    Idempotent: when the core already covers the target, nothing happens (returns None).
    Raises `CondenseBusy` when another run holds the lock (not for `inline`), and
    `ModelUnavailable` when the model fails and `fallback` is false: the caller retries;
    every turn and the stored core stay as they are."""
    cache.delete(cache_keys.condense_queued(conversation_id))
    conv = (
        Conversation.objects.select_related("site")
        .only("condensed_through_seq", "core_version", "site")
        .filter(pk=conversation_id)
        .first()
    )
    if conv is None:
        return None
    site = conv.site
    target = (
        through_seq
        if through_seq is not None
        else condense_target(conversation_id=conversation_id, window_turns=verbatim_window(site))
    )
    if target <= conv.condensed_through_seq:
        return None
    use_model = not settings.DEMO_MODE
    model = _site_model(site)
    stored: Core | None = None
    with _condense_lock(conversation_id, required=not inline):
        previous = core_latest(conversation_id=conversation_id)
        cursor = previous.covers_through_seq if previous else 0
        while cursor < target:
            chunk = _chunk(conversation_id=conversation_id, after=cursor, through=target)
            if not chunk:
                break
            step = _condense_step(
                conversation=conv,
                site=site,
                previous=previous,
                turns=chunk,
                use_model=use_model,
                fallback=fallback or inline,
                inline=inline,
            )
            core = _core_store(conversation_id=conversation_id, step=step, model=model)
            if core is None:
                return core_latest(conversation_id=conversation_id) if inline else stored
            stored = previous = core
            cursor = core.covers_through_seq
    return stored


def _chunk(*, conversation_id: int, after: int, through: int) -> list[Turn]:
    rows = list(
        Turn.objects.filter(conversation_id=conversation_id, seq__gt=after, seq__lte=through)
        .order_by("seq")
        .only("seq", "role", "text", "spans", "health", "token_count")[
            : settings.MEMORY_CONDENSE_CHUNK_TURNS
        ]
    )
    chunk, tokens = [], 0
    for turn in rows:
        if chunk and tokens + turn.token_count > settings.MEMORY_CONDENSE_CHUNK_TOKENS:
            break
        chunk.append(turn)
        tokens += turn.token_count
    return chunk


def core_refresh_inline(*, conversation_id: int, through_seq: int | None = None) -> Core | None:
    """Condense now, in the caller's process, before a model call or at handover.

    Default target: every turn of the conversation. Uses the model when one is configured
    and falls back to the extractive condenser if it fails, so it always yields a core.
    Returns the current core (new or already covering the target), or None if there are no
    turns to cover."""
    if through_seq is None:
        through_seq = (
            Turn.objects.filter(conversation_id=conversation_id)
            .order_by("-seq")
            .values_list("seq", flat=True)
            .first()
            or 0
        )
    core = core_condense(
        conversation_id=conversation_id, through_seq=through_seq, fallback=True, inline=True
    )
    return core or core_latest(conversation_id=conversation_id)
