"""Admin's Knowledge section: upload a file, add a URL, the import on the worker with its
progress, documents and chunks with token counts, re-import and delete."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from chatwidget.shop.knowledge.query import knowledge_query_build
from chatwidget.shop.knowledge.selectors import knowledge_search
from chatwidget.shop.models.knowledge import (
    KnowledgeChunk,
    KnowledgeDocument,
    KnowledgeSource,
    KnowledgeTrace,
)
from chatwidget.shop.tasks import knowledge_import_source

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def owner(client, django_user_model, settings, tmp_path):
    settings.KNOWLEDGE_UPLOAD_DIR = str(tmp_path / "uploads")
    client.force_login(django_user_model.objects.create_superuser("o", "o@shop.test", "pw"))
    return client


def jsonl(*docs):
    return "\n".join(json.dumps({"id": i, "title": t, "text": x}) for i, t, x in docs).encode()


def upload(owner, site, content, name="feed.jsonl"):
    return owner.post(
        reverse("admin:shop_knowledgesource_add"),
        {"site": site.pk, "url": "", "file": SimpleUploadedFile(name, content)},
    )


def test_upload_import_progress_list_and_reimport(owner, site):
    response = upload(
        owner,
        site,
        jsonl(
            ("A-10", "Alpha scarf", "Silk scarf. " * 300), ("B-20", "Beta belt", "Leather belt.")
        ),
    )
    assert response.status_code == 302
    source = KnowledgeSource.objects.get()
    assert (source.kind, source.status) == ("upload", "queued")
    page = owner.get(reverse("admin:shop_knowledgesource_change", args=[source.pk]))
    assert b'http-equiv="refresh"' in page.content and b"documents read so far" in page.content

    knowledge_import_source(source.pk)  # what the worker runs
    source.refresh_from_db()
    assert (source.status, source.progress_done) == ("done", 2)
    page = owner.get(reverse("admin:shop_knowledgesource_change", args=[source.pk]))
    assert b'http-equiv="refresh"' not in page.content and b"Imported." in page.content

    listing = owner.get(
        reverse("admin:shop_knowledgedocument_changelist") + f"?source__id__exact={source.pk}"
    ).content.decode()
    alpha = KnowledgeDocument.objects.get(external_id="A-10")
    assert alpha.chunk_count >= 2 and "Alpha scarf" in listing and str(alpha.token_count) in listing
    detail = owner.get(
        reverse("admin:shop_knowledgedocument_change", args=[alpha.pk])
    ).content.decode()
    for chunk in KnowledgeChunk.objects.filter(document=alpha):
        assert str(chunk.token_count) in detail

    # a new upload of the same file name replaces the source's content on re-import
    upload(owner, site, jsonl(("A-10", "Alpha scarf", "Silk scarf, now blue.")))
    assert KnowledgeSource.objects.count() == 1
    owner.post(
        reverse("admin:shop_knowledgesource_changelist"),
        {"action": "reimport", "_selected_action": [source.pk]},
    )
    assert KnowledgeSource.objects.get().status == "queued"
    knowledge_import_source(source.pk)
    assert list(KnowledgeDocument.objects.values_list("external_id", flat=True)) == ["A-10"]


def test_add_url_and_delete(owner, site, web):
    (web.dir / "p.html").write_text("<h1>Returns</h1><p>Within 30 days.</p>")
    response = owner.post(
        reverse("admin:shop_knowledgesource_add"), {"site": site.pk, "url": web.url("p.html")}
    )
    assert response.status_code == 302
    source = KnowledgeSource.objects.get()
    knowledge_import_source(source.pk)
    assert knowledge_search(site=site, query=knowledge_query_build(message="returns"))
    owner.post(
        reverse("admin:shop_knowledgesource_changelist"),
        {"action": "delete_selected", "_selected_action": [source.pk], "post": "yes"},
    )
    assert not KnowledgeSource.objects.exists() and not KnowledgeChunk.objects.exists()
    assert knowledge_search(site=site, query=knowledge_query_build(message="returns")) == []


def test_add_form_needs_a_url_or_a_file(owner, site):
    response = owner.post(reverse("admin:shop_knowledgesource_add"), {"site": site.pk})
    assert response.status_code == 200 and b"Give either a URL or a file." in response.content
    response = upload(owner, site, b"x", name="feed.exe")
    assert b"must be .jsonl, .md or .html" in response.content
    assert not KnowledgeSource.objects.exists()


def test_an_inward_url_is_refused_when_added(owner, site, settings, egress_net):
    """(`egress_net`: even a broken form could not fetch outside 127.0.0.0/8.)"""
    settings.EGRESS_ALLOW_HOSTS = []
    for url, said in (
        ("http://169.254.169.254/latest/meta-data/", b"a cloud metadata address"),
        ("http://127.0.0.1:8000/admin/", b"a loopback address"),
    ):
        response = owner.post(
            reverse("admin:shop_knowledgesource_add"), {"site": site.pk, "url": url}
        )
        assert response.status_code == 200 and said in response.content
    assert not KnowledgeSource.objects.exists()


def test_retrieval_traces_are_listed_with_sent_and_left_out(owner, demo_site):
    from chatwidget.shop.models.knowledge import KnowledgeChunk
    from memory.models import ContextTrace
    from memory.services import conversation_start

    site = demo_site
    kurta = KnowledgeChunk.objects.filter(title="Cotton kurta, mint").first()
    conv = conversation_start(site_id=site.pk)[0]
    trace = ContextTrace.objects.create(
        conversation=conv, request_seq=1, budget=8000, reserve=800, total_tokens=900
    )
    KnowledgeTrace.objects.create(
        trace=trace,
        tokens=300,
        room=2000,
        chunks=[
            {"chunk": kurta.pk, "score": 1.0, "bonus": 0.05, "sent": True, "kept": True},
            {
                "chunk": 987654321,  # an id no chunk has (sequences are not reset between tests)
                "score": 0.9,
                "bonus": 0.0,
                "sent": False,
                "why": "knowledge_over_budget",
            },
        ],
    )
    listing = owner.get(reverse("admin:shop_knowledgetrace_changelist")).content.decode()
    assert '<td class="field-sent">1</td>' in listing
    assert '<td class="field-left_out">1</td>' in listing
    detail = owner.get(
        reverse("admin:shop_knowledgetrace_change", args=[trace.knowledge.pk])
    ).content.decode()
    # titles and links, and the reason in words, not chunk ids and codes (issue 27)
    assert f'<a href="{kurta.url}"' in detail and "Cotton kurta, mint" in detail
    assert "no: did not fit the knowledge share of the context budget" in detail
    assert "excerpt 987654321 (deleted since)" in detail and "knowledge_over_budget" not in detail
    assert "yes (what the conversation is about, kept among the first three)" in detail


def test_a_trace_says_which_service_topics_led_retrieval(owner, demo_site):
    """The context build keeps the topics the message asked about with its trace; staff
    read them as words, in their language."""
    from django.utils import translation

    from chatwidget.assistant.context import context_build, context_trace_save
    from memory.services import conversation_start, turn_append

    conv = conversation_start(site_id=demo_site.pk)[0]
    seq = turn_append(
        conversation_id=conv.pk, role="visitor", text="can I spread the cost over months?"
    ).turn.seq
    built = context_build(conversation_id=conv.pk, request_seq=seq, trace_save=False)
    assert built.knowledge_trace["topics"] == ["instalments"]
    context_trace_save(built=built)
    trace = KnowledgeTrace.objects.get(trace__conversation=conv)
    assert trace.topics == ["instalments"]
    url = reverse("admin:shop_knowledgetrace_change", args=[trace.pk])
    assert "instalments and paying later" in owner.get(url).content.decode()
    with translation.override("de"):
        detail = owner.get(url, headers={"accept-language": "de"}).content.decode()
    assert "Ratenzahlung und späteres Bezahlen" in detail
