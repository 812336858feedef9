"""Retention policy (defaults, owner-only changes, audit) and the purge that enforces it
(memory/retention.py; the whole purge with handover's case rows: chatwidget/services/retention.py,
chatwidget/tasks.py, chatwidget/management/commands/purge_expired.py)."""

import importlib
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from chatwidget.purge import retention_purge_all
from chatwidget.sites.models import Site
from chatwidget.tasks import purge_expired
from handover.models import Case
from handover.selectors import case_transcript_is_expired
from memory.models import (
    AuditEvent,
    Consent,
    ContextTrace,
    Conversation,
    Core,
    DailyStat,
    Profile,
    ProfileFact,
    RetentionPolicy,
    Turn,
)
from memory.retention import conversation_hold_set, retention_purge_expired
from memory.selectors import conversation_get_by_token, conversations_live
from memory.services import conversation_start, turn_append

pytestmark = pytest.mark.django_db


def make_conversation(
    site, texts=("Where is my order 55-1031?", "It ships today."), hours_ago: float = 0
) -> tuple[Conversation, str]:
    conv, token = conversation_start(site_id=site.pk)
    for i, text in enumerate(texts):
        turn_append(
            conversation_id=conv.pk, role="visitor" if i % 2 == 0 else "assistant", text=text
        )
    Core.objects.create(
        conversation=conv,
        version=1,
        data={"request": "order 55-1031"},
        covers_through_seq=1,
        source="extractive",
    )
    ContextTrace.objects.create(
        conversation=conv, request_seq=1, budget=8000, reserve=500, total_tokens=120
    )
    if hours_ago:
        Conversation.objects.filter(pk=conv.pk).update(
            last_activity_at=timezone.now() - timedelta(hours=hours_ago)
        )
    conv.refresh_from_db()
    return conv, token


def user_with(*codenames: str, name: str = "staff") -> User:
    user = User.objects.create_user(name, password="pw", is_staff=True)
    for codename in codenames:
        app, _, code = codename.partition(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app, codename=code)
        )
    return User.objects.get(pk=user.pk)  # fresh permission cache


def leftovers(conv_id: int) -> dict[str, int]:
    return {
        "conversation": Conversation.objects.filter(pk=conv_id).count(),
        "turns": Turn.objects.filter(conversation_id=conv_id).count(),
        "cores": Core.objects.filter(conversation_id=conv_id).count(),
        "traces": ContextTrace.objects.filter(conversation_id=conv_id).count(),
    }


GONE = {"conversation": 0, "turns": 0, "cores": 0, "traces": 0}


# --- policies ---------------------------------------------------------------------------------


def test_every_new_site_gets_the_default_policy(site, admin_client):
    admin_made = Site.objects.create(name="Made in the Site admin")
    page = admin_client.get(reverse("admin:memory_retentionpolicy_changelist"))
    assert page.status_code == 200
    assert RetentionPolicy.objects.filter(site=admin_made).exists()
    policy = RetentionPolicy.objects.get(site=site)
    assert (policy.session_hours, policy.case_days, policy.profile_months, policy.audit_days) == (
        24,
        30,
        12,
        365,
    )


def test_data_migration_creates_policies_for_existing_sites(site):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    RetentionPolicy.objects.all().delete()
    migration = importlib.import_module("memory.migrations.0002_retention_defaults")
    # the models as that migration knew them (Site was chatwidget's then)
    state = MigrationExecutor(connection).loader.project_state(
        ("memory", "0002_retention_defaults")
    )
    apps = state.apps
    migration.create_defaults(apps, None)
    migration.create_defaults(apps, None)  # twice: still one row per site
    assert list(RetentionPolicy.objects.values_list("site_id", "session_hours")) == [(site.pk, 24)]


def test_staff_without_owner_permission_sees_policy_read_only_and_cannot_change(site, client):
    staff = user_with("memory.view_retentionpolicy")
    client.force_login(staff)
    policy = RetentionPolicy.objects.get(site=site)
    url = f"/admin/memory/retentionpolicy/{policy.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    assert b'name="session_hours"' not in page.content, "no editable field for staff"
    response = client.post(
        url, {"session_hours": 720, "case_days": 365, "profile_months": 24, "audit_days": 3650}
    )
    assert response.status_code == 403
    policy.refresh_from_db()
    assert policy.session_hours == 24
    assert not AuditEvent.objects.filter(action="retention").exists()


def test_staff_without_any_permission_does_not_see_the_policy(site, client):
    client.force_login(user_with())
    policy = RetentionPolicy.objects.get(site=site)
    assert client.get(f"/admin/memory/retentionpolicy/{policy.pk}/change/").status_code == 403
    assert client.get("/admin/memory/retentionpolicy/").status_code == 403


def test_owner_changes_policy_and_the_change_is_logged(site, client):
    owner = user_with("memory.view_retentionpolicy", "memory.change_retentionpolicy", name="owner")
    client.force_login(owner)
    policy = RetentionPolicy.objects.get(site=site)
    url = f"/admin/memory/retentionpolicy/{policy.pk}/change/"
    assert b'name="session_hours"' in client.get(url).content
    response = client.post(
        url, {"session_hours": 48, "case_days": 30, "profile_months": 6, "audit_days": 365}
    )
    assert response.status_code == 302
    policy.refresh_from_db()
    assert (policy.session_hours, policy.profile_months, policy.updated_by) == (48, 6, owner)
    event = AuditEvent.objects.get(action="retention")
    assert event.actor == owner and event.actor_label == "owner" and event.site_id == site.pk
    assert event.details == {
        "changes": {
            "session_hours": {"old": 24, "new": 48},
            "profile_months": {"old": 12, "new": 6},
        }
    }


def test_policy_bounds_are_enforced_in_admin(site, client):
    client.force_login(user_with("memory.view_retentionpolicy", "memory.change_retentionpolicy"))
    policy = RetentionPolicy.objects.get(site=site)
    response = client.post(
        f"/admin/memory/retentionpolicy/{policy.pk}/change/",
        {"session_hours": 0, "case_days": 9999, "profile_months": 12, "audit_days": 1},
    )
    assert response.status_code == 200  # the form again, with errors
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"session_hours", "case_days", "audit_days"}
    policy.refresh_from_db()
    assert policy.session_hours == 24
    assert not AuditEvent.objects.filter(action="retention").exists()


def test_audit_log_is_read_only_and_for_owners_only(site, client):
    AuditEvent.objects.create(action="erase", site=site, reason="visitor request")
    client.force_login(user_with(name="staff"))
    assert client.get("/admin/memory/auditevent/").status_code == 403
    client.force_login(
        user_with(
            "memory.view_auditevent",
            "memory.change_auditevent",
            "memory.delete_auditevent",
            name="owner",
        )
    )
    listing = client.get("/admin/memory/auditevent/")
    assert listing.status_code == 200 and b"visitor request" in listing.content
    event = AuditEvent.objects.get()
    assert (
        client.post(f"/admin/memory/auditevent/{event.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert client.get("/admin/memory/auditevent/add/").status_code == 403
    assert AuditEvent.objects.count() == 1


# --- reads treat expired data as gone -------------------------------------------------------------


def test_expired_conversation_is_gone_for_reads_before_the_purge(site):
    old, old_token = make_conversation(site, hours_ago=25)
    fresh, fresh_token = make_conversation(site, hours_ago=23)
    assert conversation_get_by_token(site_id=site.pk, token=old_token) is None
    assert conversation_get_by_token(site_id=site.pk, token=fresh_token) == fresh
    assert list(conversations_live()) == [fresh]
    assert leftovers(old.pk)["turns"] == 2, "not purged yet, only hidden"


def test_expiry_follows_the_current_policy(site):
    conv, token = make_conversation(site, hours_ago=25)
    RetentionPolicy.objects.filter(site=site).update(session_hours=48)
    assert conversation_get_by_token(site_id=site.pk, token=token) == conv
    retention_purge_expired()
    assert leftovers(conv.pk)["turns"] == 2
    RetentionPolicy.objects.filter(site=site).update(session_hours=12)
    retention_purge_expired()
    assert leftovers(conv.pk) == GONE


def test_admin_does_not_list_or_open_expired_conversations(site, client):
    old, _ = make_conversation(site, hours_ago=25)
    fresh, _ = make_conversation(site)
    client.force_login(
        user_with(
            "memory.view_conversation", "memory.export_conversation", "memory.erase_conversation"
        )
    )
    listing = client.get("/admin/memory/conversation/")
    assert listing.status_code == 200
    shown = {c.pk for c in listing.context["cl"].result_list}
    assert shown == {fresh.pk}
    assert client.get(f"/admin/memory/conversation/{old.pk}/change/").status_code in (302, 404)
    assert client.get(f"/admin/memory/conversation/{old.pk}/export/").status_code == 404


# --- the purge --------------------------------------------------------------------------------------


def test_purge_removes_expired_session_transcripts_only(site):
    old, _ = make_conversation(site, hours_ago=25)
    fresh, _ = make_conversation(site, hours_ago=1)
    counts = retention_purge_expired()
    assert leftovers(old.pk) == GONE
    assert leftovers(fresh.pk) == {"conversation": 1, "turns": 2, "cores": 1, "traces": 1}
    assert (counts.conversations, counts.turns, counts.cores, counts.traces) == (1, 2, 1, 1)
    event = AuditEvent.objects.get(action="purge")
    assert event.details == {"conversations": 1} and event.site_id == site.pk


def test_purge_is_safe_to_run_twice(site):
    make_conversation(site, hours_ago=25)
    assert retention_purge_expired().conversations == 1
    again = retention_purge_expired()
    assert (again.conversations, again.turns) == (0, 0)
    assert AuditEvent.objects.filter(action="purge").count() == 1


def test_purge_works_in_bounded_batches(site):
    convs = [make_conversation(site, hours_ago=30)[0] for _ in range(5)]
    counts = retention_purge_expired(batch_size=2)
    assert counts.batches == 3 and counts.conversations == 5 and counts.finished
    assert Conversation.objects.filter(pk__in=[c.pk for c in convs]).count() == 0


def test_purge_stops_at_the_time_budget_and_the_next_run_continues(site):
    for _ in range(3):
        make_conversation(site, hours_ago=30)
    first = retention_purge_expired(batch_size=1, time_budget_s=0)
    assert first.conversations == 1 and not first.finished
    assert Conversation.objects.count() == 2
    rest = retention_purge_expired(batch_size=1)
    assert rest.conversations == 2 and rest.finished
    assert Conversation.objects.count() == 0


def test_purge_clears_cache_entries_keyed_by_the_conversation(
    site, settings, django_capture_on_commit_callbacks
):
    from chatwidget.platform.ratelimit import rate_limit_hit

    old, _ = make_conversation(site, hours_ago=25)
    fresh, _ = make_conversation(site)
    for conv in (old, fresh):
        cache.set(f"condense:lock:{conv.pk}", "worker-1", 60)
        rate_limit_hit(key=f"sess:{conv.pk}", rate=settings.RATE_LIMIT_PER_SESSION)
    bucket_keys = {
        c.pk: [k for k in cache._cache if f"rl:sess:{c.pk}:" in k]  # locmem
        for c in (old, fresh)
    }
    assert bucket_keys[old.pk] and bucket_keys[fresh.pk]
    with django_capture_on_commit_callbacks(execute=True):
        retention_purge_expired()
    assert cache.get(f"condense:lock:{old.pk}") is None
    assert not [k for k in cache._cache if f"rl:sess:{old.pk}:" in k]
    assert cache.get(f"condense:lock:{fresh.pk}") == "worker-1"
    assert [k for k in cache._cache if f"rl:sess:{fresh.pk}:" in k]


def test_open_case_holds_the_transcript_past_the_session_period(site):
    conv, token = make_conversation(site, hours_ago=24 * 10)
    Case.objects.create(site=site, conversation=conv, trigger="visitor", status="human")
    conversation_hold_set(conversation_id=conv.pk, open=True)  # what handover writes
    assert conversation_get_by_token(site_id=site.pk, token=token) == conv
    retention_purge_expired()
    assert leftovers(conv.pk)["turns"] == 2


def test_case_transcript_goes_after_the_run_off_and_the_case_note_stays(site):
    now = timezone.now()
    held, _ = make_conversation(site, hours_ago=24 * 20)
    expired, _ = make_conversation(site, hours_ago=24 * 40)
    recent = Case.objects.create(
        site=site,
        conversation=held,
        trigger="visitor",
        status="resolved",
        resolved_at=now - timedelta(days=20),
        reason="late parcel",
        note="refund issued",
        contact=[{"kind": "email", "value": "a@example.org"}],
        core={"request": "parcel late"},
    )
    old = Case.objects.create(
        site=site,
        conversation=expired,
        trigger="visitor",
        status="resolved",
        resolved_at=now - timedelta(days=31),
        reason="wrong size",
        note="exchanged for L",
        contact=[{"kind": "email", "value": "b@example.org"}],
        core={"request": "size swap"},
    )
    for case in (recent, old):  # what handover writes when it resolves a case
        conversation_hold_set(
            conversation_id=case.conversation_id, open=False, resolved_at=case.resolved_at
        )
    assert not case_transcript_is_expired(case=recent)
    assert case_transcript_is_expired(case=old), "hidden before the purge has run"
    retention_purge_expired()
    assert leftovers(held.pk)["turns"] == 2, "within the 30-day run-off"
    assert leftovers(expired.pk) == GONE
    old.refresh_from_db()
    assert (old.reason, old.note, old.conversation_id, old.core, old.contact) == (
        "wrong size",
        "exchanged for L",
        None,
        {},
        [],
    )
    assert old.transcript_purged_at is not None
    recent.refresh_from_db()
    assert recent.core == {"request": "parcel late"} and recent.transcript_purged_at is None


def test_case_past_run_off_with_a_live_conversation_loses_its_copies_only(site):
    conv, token = make_conversation(site, hours_ago=1)  # the visitor chatted on afterwards
    case = Case.objects.create(
        site=site,
        conversation=conv,
        trigger="model",
        status="resolved",
        resolved_at=timezone.now() - timedelta(days=45),
        note="done",
        contact=[{"kind": "phone", "value": "+49 30 1234567"}],
        core={"request": "x"},
    )
    retention_purge_all()
    case.refresh_from_db()
    assert (case.conversation_id, case.core, case.contact, case.note) == (None, {}, [], "done")
    assert conversation_get_by_token(site_id=site.pk, token=token) == conv
    assert leftovers(conv.pk)["turns"] == 2


def test_profiles_expire_after_the_profile_period_and_consent_evidence_stays(site):
    stale = Profile.objects.create(site=site, token_hash="a" * 64)
    recent = Profile.objects.create(site=site, token_hash="b" * 64)
    ProfileFact.objects.create(profile=stale, field="language", value="de")
    consent = Consent.objects.create(site=site, profile=stale, wording_version="v1")
    Profile.objects.filter(pk=stale.pk).update(last_visit_at=timezone.now() - timedelta(days=370))
    Profile.objects.filter(pk=recent.pk).update(last_visit_at=timezone.now() - timedelta(days=300))
    counts = retention_purge_expired()
    assert counts.profiles == 1
    assert list(Profile.objects.values_list("pk", flat=True)) == [recent.pk]
    assert not ProfileFact.objects.exists()
    consent.refresh_from_db()
    assert consent.profile_id is None


def test_audit_events_expire_after_the_audit_period(site):
    RetentionPolicy.objects.filter(site=site).update(audit_days=30)
    old = AuditEvent.objects.create(action="reveal", site=site, reason="callback")
    new = AuditEvent.objects.create(action="reveal", site=site, reason="callback")
    AuditEvent.objects.filter(pk=old.pk).update(at=timezone.now() - timedelta(days=31))
    assert retention_purge_expired().audit_events == 1
    assert list(AuditEvent.objects.filter(action="reveal").values_list("pk", flat=True)) == [new.pk]


def test_purge_command_prints_counts(site):
    make_conversation(site, hours_ago=25)
    out = StringIO()
    call_command("purge_expired", stdout=out)
    text = out.getvalue()
    assert "conversations: 1" in text and "turns: 2" in text and "done" in text
    assert Conversation.objects.count() == 0


def test_purge_task_runs_the_same_service(site):
    make_conversation(site, hours_ago=25)
    result = purge_expired.apply().get()
    assert result["conversations"] == 1 and result["finished"]
    assert Conversation.objects.count() == 0


def test_beat_schedule_runs_the_purge_every_few_minutes(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["purge-expired"]
    assert entry["task"] == "chatwidget.tasks.purge_expired"
    assert entry["schedule"] <= timedelta(minutes=10)


# --- analytics: counts only ------------------------------------------------------------------------


def test_daily_stats_count_conversations_turns_and_redactions_without_text(site):
    conv, _ = conversation_start(site_id=site.pk)
    turn_append(
        conversation_id=conv.pk,
        role="visitor",
        text="my card 4539 1488 0343 6467, mail jane@example.org",
    )
    turn_append(conversation_id=conv.pk, role="assistant", text="Please use the checkout.")
    turn_append(conversation_id=conv.pk, role="visitor", text="ok")
    stat = DailyStat.objects.get(site=site)
    assert (stat.conversations, stat.visitor_turns, stat.assistant_turns) == (1, 2, 1)
    assert stat.redactions == {"card": 1, "email": 1}
    row = str(list(DailyStat.objects.values()))
    assert "jane" not in row and "4539" not in row and "checkout" not in row
    # analytics survive the purge: no person in them
    Conversation.objects.filter(pk=conv.pk).update(
        last_activity_at=timezone.now() - timedelta(days=2)
    )
    retention_purge_expired()
    assert DailyStat.objects.get(site=site).visitor_turns == 2


@pytest.mark.django_db(transaction=True)
async def test_open_tab_of_a_purged_conversation_is_told_and_closes(site, connect):
    from channels.db import database_sync_to_async

    c = await connect(site.key)
    await c.hello()
    ack = await c.say("Is the mint kurta in stock?", "m1")
    await c.recv_until("message", role="assistant")  # demo mode answers
    conv = await database_sync_to_async(Conversation.objects.get)()
    await database_sync_to_async(Conversation.objects.filter(pk=conv.pk).update)(
        last_activity_at=timezone.now() - timedelta(hours=30)
    )
    counts = await database_sync_to_async(retention_purge_expired)()
    assert counts.conversations == 1
    await c.recv_until("forgotten")
    assert (await c.c.receive_output(timeout=2))["type"] == "websocket.close"
    fresh = await connect(site.key, client=("10.0.0.8", 1))
    assert (await fresh.hello(session=ack["session"]))["resumed"] is False


# --- retention as seen from the handover side ------------------------------------------------


def test_case_page_hides_an_expired_case_transcript_before_the_purge(site):
    from handover.selectors import case_page

    conv, _ = make_conversation(site, hours_ago=24 * 40)
    case = Case.objects.create(
        site=site,
        conversation=conv,
        trigger="visitor",
        status="resolved",
        resolved_at=timezone.now() - timedelta(days=31),
        contact=[{"kind": "email", "value": "k@example.org"}],
        core={"request": "broken lid"},
        note="replacement sent",
    )
    page = case_page(case_id=case.pk)
    assert (page.turns, page.contacts, page.core_empty, page.transcript_gone) == (
        [],
        [],
        True,
        True,
    )


def test_daily_stats_count_handovers(site):
    from handover.services import handover_request

    conv, _ = make_conversation(site)
    handover_request(conversation_id=conv.pk, trigger="visitor")
    assert DailyStat.objects.get(site=site).handovers == 1
