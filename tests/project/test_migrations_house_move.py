"""The house move (issue 24) keeps every row: a database at the schema of the last release
before the move (chatwidget 0008, memory 0007, handover 0006) with data in every moved
model is migrated forward, and every row, foreign key, content type, role permission and
the full-text index of knowledge chunks are still there, under the new apps."""

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from chatwidget.shop.knowledge import backends

BEFORE = [
    ("chatwidget", "0008_owner_actions"),
    ("memory", "0007_trace_answer_latency"),
    ("handover", "0006_canned_reply_roles"),
    ("sites", None),
    ("shop", None),
    ("integrations", None),
    ("golive", None),
    ("insights", None),
]

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def moved(django_db_setup, django_db_blocker):
    """The database moved back to the schema before the move, a row in every moved model, and
    moved forward again: once for the module (each move is some seconds of migrations), read
    by its tests in transactions that roll back; emptied afterwards as a transactional test's
    database is (Django's flush: the migrations made content types and permissions again)."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        latest = _latest()
        ids = _rows_before(_migrate(BEFORE))
        _migrate(latest)
        yield ids
        call_command("flush", verbosity=0, interactive=False)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _rows_before(apps) -> dict:
    """One row in every model that moves, through the models as they were."""
    Site = apps.get_model("chatwidget", "Site")
    site = Site.objects.create(
        name="Old shop", key="old-key", allowed_origins=["https://old.example"]
    )
    conv = apps.get_model("memory", "Conversation").objects.create(site=site, token_hash="h" * 64)
    trace = apps.get_model("memory", "ContextTrace").objects.create(
        conversation=conv, request_seq=1, budget=8000, reserve=800, total_tokens=100
    )
    action = apps.get_model("chatwidget", "Action").objects.create(
        site=site, name="order_status", description="Order", url_template="http://127.0.0.1/o"
    )
    apps.get_model("chatwidget", "ActionPolicy").objects.create(site=site, calls_per_hour=7)
    apps.get_model("chatwidget", "ActionCall").objects.create(
        conversation=conv, action=action, name="order_status", request_seq=1, outcome="ok"
    )
    apps.get_model("chatwidget", "GoliveRun").objects.create(site=site)
    hook = apps.get_model("chatwidget", "Webhook").objects.create(
        site=site, url="http://127.0.0.1:9/hook"
    )
    apps.get_model("chatwidget", "WebhookDelivery").objects.create(
        hook=hook, event="case.waiting", body="{}"
    )
    source = apps.get_model("memory", "KnowledgeSource").objects.create(
        site=site, kind="path", location="/tmp/catalogue.jsonl"
    )
    document = apps.get_model("memory", "KnowledgeDocument").objects.create(
        site=site, source=source, external_id="KU-2291-M", title="Kurta", content_hash="x"
    )
    text = "A cotton kurta in mint, machine washable at thirty degrees."
    chunk = apps.get_model("memory", "KnowledgeChunk").objects.create(
        site=site, document=document, ordinal=0, title="Kurta", text=text, token_count=12
    )
    # indexed as an import indexed it then (the index's SQL names the old table, which stays)
    backends.index_chunks(chunk_rows=[(chunk.pk, "KU-2291-M", "Kurta", text)], language="en")
    apps.get_model("memory", "KnowledgeTrace").objects.create(trace=trace, chunks=[{"chunk": 1}])
    apps.get_model("handover", "Case").objects.create(
        site=site, conversation=conv, trigger="visitor"
    )
    apps.get_model("memory", "DailyStat").objects.create(
        site=site, day="2026-11-30", visitor_turns=3
    )
    # the Owner role with permissions on moved models, as the data migrations granted them
    # (a role of these three alone: the migrated database's own Owner, with its grants on
    # models that stay, is removed first, as a transactional test's flush before this one did)
    apps.get_model("auth", "Group").objects.filter(name="Owner").delete()
    owner = apps.get_model("auth", "Group").objects.create(name="Owner")
    Permission = apps.get_model("auth", "Permission")
    for model, codename in [
        ("dashboard", "view_dashboard"),
        ("webhook", "change_webhook"),
        ("action", "change_action"),
    ]:
        owner.permissions.add(
            Permission.objects.get(
                content_type__app_label="chatwidget", content_type__model=model, codename=codename
            )
        )
    return {"site": site.pk, "conversation": conv.pk, "trace": trace.pk}


def test_a_database_from_before_the_move_keeps_every_row(moved):
    ids = moved

    from chatwidget.golive.models import GoliveRun
    from chatwidget.insights.models import Dashboard
    from chatwidget.integrations.models import Webhook, WebhookDelivery
    from chatwidget.shop.knowledge.query import knowledge_query_build
    from chatwidget.shop.knowledge.selectors import knowledge_search
    from chatwidget.shop.models import (
        Action,
        ActionCall,
        ActionPolicy,
        KnowledgeChunk,
        KnowledgeDocument,
        KnowledgeSource,
        KnowledgeTrace,
    )
    from chatwidget.sites.models import Site
    from handover.models import Case
    from memory.models import Conversation, DailyStat

    site = Site.objects.get(pk=ids["site"])
    assert (site.name, site.key, site.allowed_origins) == (
        "Old shop",
        "old-key",
        ["https://old.example"],
    )
    assert Conversation.objects.get(pk=ids["conversation"]).site == site
    assert Action.objects.get(site=site).name == "order_status"
    assert ActionPolicy.objects.get(site=site).calls_per_hour == 7
    assert ActionCall.objects.get().action.site == site
    assert GoliveRun.objects.get().site == site
    assert WebhookDelivery.objects.get().hook == Webhook.objects.get(site=site)
    chunk = KnowledgeChunk.objects.get()
    assert chunk.document == KnowledgeDocument.objects.get(source=KnowledgeSource.objects.get())
    assert KnowledgeTrace.objects.get().trace_id == ids["trace"]
    assert Case.objects.get().site == site
    assert DailyStat.objects.get(site=site).visitor_turns == 3
    assert Dashboard.objects.count() == 1  # the proxy reads the same rows

    # the full-text index moved with its table: the chunk is found by its words
    found = knowledge_search(
        site=site, query=knowledge_query_build(message="is the kurta washable?"), limit=3
    )
    assert [c.chunk_id for c in found] == [chunk.pk]


def test_content_types_and_the_owner_role_follow_the_models(moved):
    from django.contrib.contenttypes.models import ContentType

    labels = set(
        ContentType.objects.filter(
            model__in=["site", "action", "webhook", "goliverun", "dashboard", "knowledgechunk"]
        ).values_list("app_label", "model")
    )
    assert labels == {
        ("sites", "site"),
        ("shop", "action"),
        ("integrations", "webhook"),
        ("golive", "goliverun"),
        ("insights", "dashboard"),
        ("shop", "knowledgechunk"),
    }
    owner = Group.objects.get(name="Owner")
    granted = {
        f"{p.content_type.app_label}.{p.codename}"
        for p in owner.permissions.select_related("content_type")
    }
    assert granted == {
        "insights.view_dashboard",
        "integrations.change_webhook",
        "shop.change_action",
    }
