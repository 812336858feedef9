"""What the go-live check reads back from memory after driving a conversation: turns, cores,
context traces, and the request each model call was sent, rebuilt from its trace.

All reads are sync (called through `database_sync_to_async`). This is the one module of the
check that knows memory's tables, so a move inside memory touches only this file.
"""

import time
from dataclasses import dataclass

from django.apps import apps
from django.db import models
from django.db.models.functions import Cast

from chatwidget.assistant.sections import language_instruction
from chatwidget.platform.llm import ModelUnavailable
from chatwidget.sites.models import Site
from memory.condense.service import CondenseBusy, core_condense
from memory.core import core_latest, core_render
from memory.models import ContextTrace, Conversation, Core, Turn
from memory.selectors import token_hash

# The product's packages: every app in them holds tables a conversation may leave something
# in (the leak scan looks at each, whichever app a table belongs to).
SCANNED_PACKAGES = ("chatwidget", "memory", "handover")
CONDENSE_BUSY_TRIES = 20


@dataclass(frozen=True)
class TurnRow:
    seq: int
    role: str
    text: str
    tokens: int


def conversation_id_for(*, session: str) -> int | None:
    return (
        Conversation.objects.filter(token_hash=token_hash(session))
        .values_list("pk", flat=True)
        .first()
    )


def conversation_state(*, conversation_id: int) -> str | None:
    return Conversation.objects.filter(pk=conversation_id).values_list("state", flat=True).first()


def turns_of(*, conversation_id: int) -> list[TurnRow]:
    rows = (
        Turn.objects.filter(conversation_id=conversation_id)
        .order_by("seq")
        .values_list("seq", "role", "text", "token_count")
    )
    return [TurnRow(*row) for row in rows]


def traces_of(*, conversation_id: int) -> list[ContextTrace]:
    return list(ContextTrace.objects.filter(conversation_id=conversation_id).order_by("id"))


def core_current(*, conversation_id: int) -> Core | None:
    return core_latest(conversation_id=conversation_id)


def condensation_tokens(*, conversation_id: int) -> int:
    rows = Core.objects.filter(conversation_id=conversation_id).values_list(
        "condense_prompt_tokens", "condense_completion_tokens"
    )
    return sum(a + b for a, b in rows)


def request_rebuild(*, trace: ContextTrace, site: Site) -> str:
    """The text one model call was sent, rebuilt from its trace: the owner's rules and
    conventions, the visitor's language, the core version it named, and the turns it sent
    verbatim (stored text, the same rows the builder read). Sections the trace says were
    trimmed are rebuilt whole."""
    parts = []
    if site.system_rules:
        parts.append(site.system_rules)
    if site.pinned_conventions:
        parts.append(site.pinned_conventions)
    language = (
        Conversation.objects.filter(pk=trace.conversation_id)
        .values_list("language", flat=True)
        .first()
    )
    parts.append(language_instruction(language or ""))
    if trace.core_version:
        core = Core.objects.filter(
            conversation_id=trace.conversation_id, version=trace.core_version
        ).first()
        if core is not None:
            parts.append(core_render(data=core.data, covers_through=trace.core_covers_through))
    texts = dict(
        Turn.objects.filter(
            conversation_id=trace.conversation_id, seq__in=trace.verbatim_seqs
        ).values_list("seq", "text")
    )
    parts.extend(texts[seq] for seq in trace.verbatim_seqs if seq in texts)
    return "\n".join(parts)


def core_condense_now(*, conversation_id: int) -> tuple[Core | None, str]:
    """Condense what has left the verbatim window now, in this process, through memory's own
    service (the check must not need a worker). A worker that holds the conversation's lock
    is waited for; its core is as good as ours. Returns (the current core, why condensation
    failed or "")."""
    problem = ""
    for _ in range(CONDENSE_BUSY_TRIES):
        try:
            core_condense(conversation_id=conversation_id)
            problem = ""
            break
        except CondenseBusy:
            problem = "another condensation held the conversation's lock"
            time.sleep(0.5)
        except ModelUnavailable as exc:
            problem = f"the model could not condense ({exc})"
            break
    return core_latest(conversation_id=conversation_id), problem


def _text_fields(model) -> list[models.Field]:
    return [
        f
        for f in model._meta.concrete_fields
        if isinstance(f, (models.CharField, models.TextField, models.JSONField))
    ]


def leak_scan(*, values: list[str]) -> list[str]:
    """Every `app.model.field` (with a row count) whose stored text contains one of `values`:
    the whole of each table of the project's apps, not only this conversation's rows, since a
    leaked value could sit anywhere (a case, a profile fact, an audit note, a knowledge chunk).
    A one-off scan, run once per go-live check."""
    found = []
    configs = [c for c in apps.get_app_configs() if c.name.split(".")[0] in SCANNED_PACKAGES]
    for config in configs:
        for model in config.get_models():
            if model._meta.proxy or not model._meta.managed:
                continue
            for f in _text_fields(model):
                column = f.name
                qs = model.objects.all()
                if isinstance(f, models.JSONField):
                    qs = qs.annotate(_golive_text=Cast(f.name, models.TextField()))
                    column = "_golive_text"
                for value in values:
                    count = qs.filter(**{f"{column}__contains": value}).count()
                    if count:
                        found.append(f"{model._meta.label}.{f.name} ({count})")
    return found
