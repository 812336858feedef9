"""Re-sync on the owner's schedule (issue 26; chatwidget/shop/knowledge/sources.py): beat
enqueues the sources that are due and no other, each once, never one whose import runs; an
import sets the next sync from its end; the owner picks off, hourly, daily, weekly or any
hours on the source's admin page, which shows the last and the next sync."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from chatwidget.shop import tasks
from chatwidget.shop.knowledge.services import knowledge_import, knowledge_import_lock
from chatwidget.shop.knowledge.sources import knowledge_resync_set
from chatwidget.shop.models.knowledge import KnowledgeSource
from tests.egress_stubs import answer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def enqueued(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr(tasks.knowledge_import_source, "delay", sent.append)
    return sent


def source(site, name: str, *, hours: int, due_in: timedelta | None, kind="url"):
    return KnowledgeSource.objects.create(
        site=site,
        kind=kind,
        location=f"https://shop.test/{name}.xml",
        resync_hours=hours,
        next_sync_at=None if due_in is None else timezone.now() + due_in,
        status=KnowledgeSource.Status.DONE,
    )


def test_beat_enqueues_only_due_sources_each_once(site, enqueued):
    due = source(site, "due", hours=24, due_in=timedelta(minutes=-1))
    source(site, "later", hours=24, due_in=timedelta(hours=3))
    source(site, "off", hours=0, due_in=timedelta(hours=-3))
    source(site, "upload", hours=1, due_in=timedelta(hours=-1), kind="upload")
    path = source(site, "path", hours=1, due_in=timedelta(hours=-2), kind="path")

    assert tasks.knowledge_resync_due() == 2
    assert sorted(enqueued) == sorted([due.pk, path.pk])
    due.refresh_from_db()
    assert due.status == "queued"
    assert due.next_sync_at > timezone.now() + timedelta(hours=23), "moved on by its interval"

    assert tasks.knowledge_resync_due() == 0, "claimed: the next tick does not enqueue it again"
    assert len(enqueued) == 2


def test_a_source_whose_import_runs_is_not_enqueued(site, enqueued):
    running = source(site, "running", hours=1, due_in=timedelta(minutes=-5))
    with knowledge_import_lock(running.pk) as held:
        assert held
        assert tasks.knowledge_resync_due() == 0
    assert tasks.knowledge_resync_due() == 1 and enqueued == [running.pk]


def test_an_import_sets_the_next_sync_from_its_end(site, http_server):
    http_server.routes["/p"] = answer(b"<title>Returns</title><p>Within 30 days.</p>")
    made = KnowledgeSource.objects.create(
        site=site, kind="url", location=http_server.url("/p"), resync_hours=6
    )
    knowledge_import(source=made)
    made.refresh_from_db()
    assert made.next_sync_at - made.imported_at == timedelta(hours=6)

    knowledge_resync_set(source=made, hours=0)
    made.refresh_from_db()
    assert (made.resync_hours, made.next_sync_at) == (0, None)
    knowledge_import(source=made)
    made.refresh_from_db()
    assert made.next_sync_at is None


def test_a_schedule_on_a_source_never_imported_is_due_within_its_interval(site):
    made = source(site, "new", hours=0, due_in=None)
    knowledge_resync_set(source=made, hours=168)
    made.refresh_from_db()
    assert made.resync_hours == 168
    assert timedelta(hours=167) < made.next_sync_at - timezone.now() <= timedelta(hours=168)


@pytest.fixture
def owner(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("o", "o@shop.test", "pw"))
    return client


def test_the_owner_sets_the_schedule_and_sees_last_and_next_sync(owner, site):
    made = source(site, "sitemap", hours=0, due_in=None)
    made.imported_at = timezone.now() - timedelta(hours=2)
    made.save()
    url = reverse("admin:shop_knowledgesource_change", args=[made.pk])
    page = owner.get(url).content.decode()
    assert "Re-sync" in page and "Hourly" in page and "Weekly" in page

    response = owner.post(url, {"every": "24", "hours": ""})
    assert response.status_code == 302, response.content.decode()[:2000]
    made.refresh_from_db()
    assert made.resync_hours == 24
    assert made.next_sync_at == made.imported_at + timedelta(hours=24)

    response = owner.post(url, {"every": "-1", "hours": "36"})
    made.refresh_from_db()
    assert made.resync_hours == 36
    response = owner.post(url, {"every": "-1", "hours": ""})
    assert response.status_code == 200 and "Give the hours between re-syncs." in (
        response.content.decode()
    )

    listing = owner.get(reverse("admin:shop_knowledgesource_changelist")).content.decode()
    assert "next re-sync" in listing.lower() and "last import" in listing.lower()
    assert str(made.next_sync_at.astimezone(timezone.get_current_timezone()).year) in listing

    owner.post(url, {"every": "0", "hours": ""})
    made.refresh_from_db()
    assert (made.resync_hours, made.next_sync_at) == (0, None)
