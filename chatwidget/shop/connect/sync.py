"""`knowledge_sync`: the connected catalogue as knowledge documents, kept in sync.

One code path for the command, the schedule (beat) and a retry, one run per site at a time
(a cache lock that expires after SHOP_SYNC_LOCK_SECONDS, so a killed worker frees it).

Stage, then swap. Each page the platform returns is written to `SyncItem` rows (the text the
document will get and its content hash) and the cursor to `Connection.sync_state`, each page
in its own transaction: a sync that stops half way resumes at the next page. Nothing visible
changes while reading. When every product and page is read, products that were known but not
seen are asked for by id (a product deleted between pages is gone; one skipped because an
offset page moved is still there and is kept); then `knowledge_swap` re-chunks and
re-embeds only the documents whose hash changed and, in one transaction, stores them and
deletes the removed ones. Searches see the old catalogue or the new one, never half.

A product read with translations stages one document per language (`product:<id>@<lang>`,
chatwidget.shop.connect.documents); each has its own hash, so an unchanged translation is
not re-embedded, and a product that is gone takes all its language documents with it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from chatwidget.platform import cache_keys
from chatwidget.platform.owned import owned_release, owned_take
from chatwidget.shop.connect.documents import (
    LANGUAGE_MARK,
    PAGE_PREFIX,
    PRODUCT_PREFIX,
    page_doc,
    product_docs,
    product_id_of,
)
from chatwidget.shop.connect.services import connection_source
from chatwidget.shop.knowledge.readers import Doc
from chatwidget.shop.knowledge.services import knowledge_swap
from chatwidget.shop.knowledge.storing import document_hash
from chatwidget.shop.models.connections import Connection, SyncItem
from chatwidget.shop.models.knowledge import KnowledgeDocument
from chatwidget.shop.platforms.base import Batch, Platform, PlatformError
from chatwidget.shop.platforms.registry import platform_for

PHASES = ("products", "pages", "swap")


class SyncBusy(Exception):
    """Another sync of this site is running."""


@dataclass
class SyncResult:
    products: int = 0
    translations: int = 0  # product documents in the shop's other languages
    pages: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    requests: int = 0
    seconds: float = 0.0
    resumed: bool = False
    error: str = ""
    figures: dict[str, Any] = field(default_factory=dict)


def _lock_take(site_id: int) -> str | None:
    token = secrets.token_hex(8)
    seconds = int(getattr(settings, "SHOP_SYNC_LOCK_SECONDS", 3900))
    return token if owned_take(cache_keys.shop_sync_lock(site_id), token, seconds) else None


def _lock_give(site_id: int, token: str) -> None:
    owned_release(cache_keys.shop_sync_lock(site_id), token)


def _stage(connection: Connection, docs: list[Doc], state: dict) -> None:
    """One page of documents and where the listing stands, in one transaction."""
    with transaction.atomic():
        SyncItem.objects.filter(
            connection=connection, external_id__in=[d.external_id for d in docs]
        ).delete()
        SyncItem.objects.bulk_create(
            SyncItem(
                connection=connection,
                external_id=d.external_id,
                title=d.title[:500],
                text=d.text,
                url=d.url[:1000],
                identifiers=d.identifiers,
                digest=document_hash(d),
            )
            for d in docs
        )
        Connection.objects.filter(pk=connection.pk).update(sync_state=state)
    connection.sync_state = state


def _fresh_state(connection: Connection) -> dict:
    """Where to start: the stored state when it is recent, else from the beginning."""
    state = dict(connection.sync_state or {})
    hours = int(getattr(settings, "SHOP_SYNC_RESUME_HOURS", 24))
    started = state.get("started")
    if state.get("phase") in PHASES and started:
        if timezone.now() - datetime.fromisoformat(started) < timedelta(hours=hours):
            return state
    SyncItem.objects.filter(connection=connection).delete()
    return {"phase": "products", "cursor": None, "started": timezone.now().isoformat()}


def _read(connection: Connection, client: Platform, state: dict) -> None:
    """Read the listings into staging, page by page, from where the state says."""
    listings: tuple[tuple[str, Callable[[str | None], Batch], Callable[[Any], list[Doc]]], ...] = (
        ("products", client.products, product_docs),
        ("pages", client.pages, lambda page: [page_doc(page)]),
    )
    for phase, fetch, to_doc in listings:
        if PHASES.index(state["phase"]) > PHASES.index(phase):
            continue
        cursor = state.get("cursor") if state["phase"] == phase else None
        while True:
            batch = fetch(cursor)
            cursor = batch.cursor
            more = {"phase": phase if cursor else _after(phase), "cursor": cursor}
            docs = [doc for item in batch.items for doc in to_doc(item)]
            _stage(connection, docs, {**state, **more})
            state.update(more)
            if not cursor:
                break


def _after(phase: str) -> str:
    return PHASES[PHASES.index(phase) + 1]


def _confirm_removed(connection: Connection, client: Platform, source_id: int) -> list[str]:
    """Known products not seen in this pass: those that still exist are staged (an offset
    page moved under the listing), the rest are removed, with every language's document
    (and so is a translation the shop no longer has)."""
    staged = set(
        SyncItem.objects.filter(connection=connection).values_list("external_id", flat=True)
    )
    known = KnowledgeDocument.objects.filter(source_id=source_id).values_list(
        "external_id", flat=True
    )
    unseen = [e for e in known if e not in staged]
    products = list(dict.fromkeys(product_id_of(e) for e in unseen if e.startswith(PRODUCT_PREFIX)))
    still = client.products_by_ids(products) if products else []
    docs = [doc for p in still for doc in product_docs(p)]
    if docs:
        _stage(connection, docs, connection.sync_state)
    kept = {d.external_id for d in docs}
    return [e for e in unseen if e not in kept]


def _swap(connection: Connection, source, removed: list[str], result: SyncResult) -> None:
    known = dict(
        KnowledgeDocument.objects.filter(source=source, chunk_count__gt=0).values_list(
            "external_id", "content_hash"
        )
    )
    changed: list[Doc] = []
    for item in SyncItem.objects.filter(connection=connection).iterator(chunk_size=500):
        if item.external_id.startswith(PRODUCT_PREFIX):
            translated = LANGUAGE_MARK in item.external_id
            result.products += not translated
            result.translations += translated
        result.pages += item.external_id.startswith(PAGE_PREFIX)
        if known.get(item.external_id) == item.digest:
            result.unchanged += 1
            continue
        changed.append(
            Doc(item.external_id, item.title, item.text, item.url, list(item.identifiers))
        )
    swapped = knowledge_swap(site=connection.site, source=source, changed=changed, removed=removed)
    result.changed, result.removed = len(changed), swapped.deleted


def knowledge_sync(*, connection: Connection, client: Platform | None = None) -> SyncResult:
    """Sync the connection's catalogue now (raises SyncBusy when one is running)."""
    token = _lock_take(connection.site_id)
    if token is None:
        raise SyncBusy(connection.site_id)
    started, result = time.monotonic(), SyncResult()
    try:
        connection.refresh_from_db()  # the state another process left, not this object's
        client = client or platform_for(connection)
        state = _fresh_state(connection)
        result.resumed = state.get("started") == (connection.sync_state or {}).get("started")
        Connection.objects.filter(pk=connection.pk).update(
            sync_status=Connection.SyncStatus.RUNNING, sync_state=state
        )
        source = connection_source(connection=connection)
        _read(connection, client, state)
        removed = _confirm_removed(connection, client, source.pk)
        _swap(connection, source, removed, result)
    except PlatformError as exc:
        result.error = exc.explain(
            platform=connection.get_platform_display(), names=_names(connection)
        )
    except Exception as exc:
        Connection.objects.filter(pk=connection.pk).update(  # admin shows no stale "running"
            sync_status=Connection.SyncStatus.FAILED, last_error=type(exc).__name__
        )
        raise
    finally:
        _lock_give(connection.site_id, token)
    result.requests = client.requests if client else 0
    result.seconds = round(time.monotonic() - started, 2)
    _finish(connection, result)
    return result


def _names(connection: Connection) -> str:
    return ", ".join(
        n for n in (connection.token_env, connection.key_env, connection.secret_env) if n
    )


def _finish(connection: Connection, result: SyncResult) -> None:
    """Record the outcome; a finished sync drops its staging rows and state."""
    now = timezone.now()
    figures = {
        "translations": result.translations,
        "changed": result.changed,
        "removed": result.removed,
        "unchanged": result.unchanged,
        "requests": result.requests,
        "seconds": result.seconds,
    }
    if result.error:
        Connection.objects.filter(pk=connection.pk).update(
            sync_status=Connection.SyncStatus.FAILED, last_error=result.error
        )
        return
    with transaction.atomic():
        SyncItem.objects.filter(connection=connection).delete()
        Connection.objects.filter(pk=connection.pk).update(
            sync_status=Connection.SyncStatus.OK,
            sync_state={},
            last_error="",
            last_sync_at=now,
            product_count=result.products,
            page_count=result.pages,
            last_summary=figures,
        )
    connection.sync_state = {}
    result.figures = figures
