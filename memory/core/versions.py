"""Writing a new version of the core: condensation's result, and a promise added when a case
opens (carried forward when a condensation ran meanwhile)."""

from __future__ import annotations

import copy
import logging

from django.db import transaction

from memory.core.form import core_empty
from memory.core.render import core_render
from memory.core.sources import source_of
from memory.models import Conversation, Core
from memory.tokens import count_tokens

log = logging.getLogger(__name__)


def core_latest(*, conversation_id: int) -> Core | None:
    return Core.objects.filter(conversation_id=conversation_id).order_by("-version").first()


def _promises_merged(*, data: dict, latest: Core | None) -> dict:
    """`data` plus the promises of `latest` that it lacks and has not settled."""
    if latest is None:
        return data
    merged = dict(data)
    promises = list(merged.get("promises") or [])
    settled = set(merged.get("settled") or [])
    sources = copy.deepcopy(merged.get("sources") or {})
    for promise in latest.data.get("promises") or []:
        if promise not in promises and promise not in settled:
            promises.append(promise)
            source = source_of(latest.data, "promises", promise)
            if source:
                sources.setdefault("promises", {})[promise] = source
    merged["promises"] = promises
    if sources:
        merged["sources"] = sources
    return merged


def core_version_write(
    *,
    conversation_id: int,
    data: dict,
    covers_through: int,
    source: str,
    model: str,
    base_version: int,
    repairs: dict,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
) -> Core | None:
    """Store a condensed core as the next version, under a short row lock.

    Returns None (stores nothing) when the conversation is gone or the stored core already
    covers `covers_through`: a run that lost a race, or a second delivery of the same task.
    When a version was added after `base_version` (a promise at handover) while this one was
    built, its promises are carried forward instead of silently dropped."""
    with transaction.atomic():
        conv = (
            Conversation.objects.select_for_update()
            .only("condensed_through_seq", "core_version")
            .filter(pk=conversation_id)
            .first()
        )
        if conv is None or conv.condensed_through_seq >= covers_through:
            return None
        if conv.core_version > base_version:
            data = _promises_merged(data=data, latest=core_latest(conversation_id=conversation_id))
        tokens = count_tokens(core_render(data=data, covers_through=covers_through), model=model)
        version = conv.core_version + 1
        core = Core.objects.create(
            conversation_id=conversation_id,
            version=version,
            data=data,
            covers_through_seq=covers_through,
            token_count=tokens,
            source=source,
            condense_prompt_tokens=prompt_tokens,
            condense_completion_tokens=completion_tokens,
            repairs=repairs,
        )
        Conversation.objects.filter(pk=conversation_id).update(
            core_version=version, condensed_through_seq=covers_through
        )
    log.info(
        "core stored",
        extra={
            "conversation": conversation_id,
            "version": version,
            "covers_through": covers_through,
            "tokens": tokens,
            "source": source,
            "repairs": repairs,
        },
    )
    return core


def core_promise_add(*, conversation_id: int, text: str) -> Core:
    """A new core version: the latest data plus one promise (a call back, a handover).
    Condensation builds on the latest version, so the promise carries forward."""
    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        latest = core_latest(conversation_id=conversation_id)
        data = copy.deepcopy(latest.data) if latest else core_empty()
        promises = list(data.get("promises") or [])
        if text not in promises:
            promises.append(text)
        data["promises"] = promises
        # the shop's own word, written at a handover (a system event), not by the visitor
        sources = data.setdefault("sources", {})
        sources.setdefault("promises", {})[text] = {"turns": [], "by": ["system"]}
        covers = latest.covers_through_seq if latest else conv.condensed_through_seq
        core = Core.objects.create(
            conversation=conv,
            version=(latest.version if latest else 0) + 1,
            data=data,
            covers_through_seq=covers,
            token_count=count_tokens(core_render(data=data, covers_through=covers)),
            source=latest.source if latest else Core.Source.EXTRACTIVE,
            repairs={"promise_added": 1},
        )
        conv.core_version = core.version
        conv.save(update_fields=["core_version"])
    log.info("core promise added", extra={"conversation": conversation_id, "version": core.version})
    return core
