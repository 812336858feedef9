"""Product webhooks: a verified one refreshes that one product within seconds.

The endpoint (`/shop/webhooks/<webhook key>/`) checks the platform's signature over the raw
body before anything else and answers 401 to a wrong one, changing nothing. The refresh runs
on the worker (the platform wants its answer fast): the product is asked for by id and
its documents (one per language) written alone (`knowledge_swap`), a translation the shop
no longer has removed, or all of them removed when the product is gone. A sync that is
reading meanwhile gets the new version in its staging too, so its swap does not put the
old one back.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import Q

from chatwidget.platform.queue import task_enqueue_on_commit
from chatwidget.shop.connect.documents import LANGUAGE_MARK, PRODUCT_PREFIX, product_docs
from chatwidget.shop.connect.services import connection_source
from chatwidget.shop.knowledge.services import knowledge_swap
from chatwidget.shop.knowledge.storing import document_hash
from chatwidget.shop.models.connections import Connection, SyncItem
from chatwidget.shop.models.knowledge import KnowledgeDocument
from chatwidget.shop.platforms.base import Platform, PlatformError
from chatwidget.shop.platforms.registry import platform_for

PRODUCT_REFRESH_TASK = "chatwidget.shop.tasks.product_refresh"


def webhook_receive(*, key: str, body: bytes, headers: Mapping[str, str]) -> int:
    """The HTTP status to answer: 404 unknown key, 401 wrong signature, 200 accepted."""
    connection = Connection.objects.filter(webhook_key=key, enabled=True).first()
    if connection is None:
        return 404
    try:
        client = platform_for(connection)
    except PlatformError:
        return 503  # a variable is not set: the platform retries later
    if not client.webhook_verify(body=body, headers=headers):
        return 401
    product_id = client.webhook_product_id(body)
    if product_id:
        task_enqueue_on_commit(PRODUCT_REFRESH_TASK, connection.pk, product_id)
    return 200


def product_refresh(
    *, connection: Connection, product_id: str, client: Platform | None = None
) -> str:
    """Re-read one product: "updated", "unchanged" or "removed"."""
    client = client or platform_for(connection)
    source = connection_source(connection=connection)
    found = client.products_by_ids([product_id])
    external_id = f"{PRODUCT_PREFIX}{product_id}"
    mine = Q(external_id=external_id) | Q(external_id__startswith=external_id + LANGUAGE_MARK)
    rows = KnowledgeDocument.objects.filter(mine, site_id=connection.site_id).values_list(
        "external_id", "content_hash", "chunk_count"
    )
    known = {e: digest if chunks else "" for e, digest, chunks in rows}
    docs = product_docs(found[0]) if found else []
    fresh = {d.external_id for d in docs}
    removed = sorted(set(known) - fresh)
    SyncItem.objects.filter(mine, connection=connection).exclude(external_id__in=fresh).delete()
    changed = []
    for doc in docs:
        digest = document_hash(doc)
        SyncItem.objects.filter(connection=connection, external_id=doc.external_id).update(
            title=doc.title, text=doc.text, url=doc.url, identifiers=doc.identifiers, digest=digest
        )
        if known.get(doc.external_id) != digest:
            changed.append(doc)
    if not found:
        removed = removed or [external_id]
    if not changed and not removed:
        return "unchanged"
    knowledge_swap(site=connection.site, source=source, changed=changed, removed=removed)
    return "updated" if found else "removed"
