"""Erasure (Art. 17): the visitor's `forget` over the websocket and the staff erase in admin.
Both remove everything of the conversation and leave an audit event with counts only."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Permission, User
from django.core.cache import cache

from handover.models import Case
from memory.models import AuditEvent, ContextTrace, Conversation, Core, Turn
from memory.selectors import token_hash

SENTENCE = "My parcel with the green teapot went to my neighbour Mrs Quill"


def everything_of(conv_id: int) -> dict[str, int]:
    return {
        "conversation": Conversation.objects.filter(pk=conv_id).count(),
        "turns": Turn.objects.filter(conversation_id=conv_id).count(),
        "cores": Core.objects.filter(conversation_id=conv_id).count(),
        "traces": ContextTrace.objects.filter(conversation_id=conv_id).count(),
    }


def cache_keys_of(conv_id: int) -> list[str]:
    # LocMemCache in the test settings: raw keys are ":<version>:<key>"
    keys = [k.split(":", 2)[2] for k in cache._cache]
    return [
        k
        for k in keys
        if k in (f"condense:lock:{conv_id}", f"sess:{conv_id}")
        or k.startswith(f"rl:sess:{conv_id}:")
    ]


def add_core_and_case(conv_id: int) -> Case:
    conv = Conversation.objects.get(pk=conv_id)
    version = 1 + max(conv.cores.values_list("version", flat=True), default=0)
    Core.objects.create(
        conversation=conv,
        version=version,
        data={"request": "teapot parcel"},
        covers_through_seq=1,
        source="extractive",
    )
    cache.set(f"condense:lock:{conv_id}", "worker", 60)
    case = Case.objects.filter(conversation=conv).first() or Case.objects.create(
        site_id=conv.site_id, conversation=conv, trigger="visitor"
    )
    Case.objects.filter(pk=case.pk).update(
        contact=[{"kind": "email", "value": "quill@example.org"}],
        core={"request": "teapot parcel"},
        note="call back",
        reason="parcel",
    )
    return case


# --- the visitor, from the widget ----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_visitor_forget_erases_everything_and_closes_every_tab(site, connect, fake_llm):
    first = await connect(site.key)
    await first.hello()
    ack = await first.say(SENTENCE, "m1")
    await first.answer()
    token = ack["session"]
    conv = await database_sync_to_async(Conversation.objects.get)(token_hash=token_hash(token))
    second = await connect(site.key, client=("10.0.0.2", 1))
    assert (await second.hello(session=token))["resumed"] is True
    await first.send({"type": "handover", "reason": "I want a person"})
    await first.recv_until("state", state="waiting")
    # the handover stores a fresh core with its case in the background: let it finish
    await first.recv_until("message", role="system")
    for _ in range(100):
        if await database_sync_to_async(
            Case.objects.filter(conversation_id=conv.pk, core_version__gt=0).exists
        )():
            break
        await asyncio.sleep(0.05)
    await database_sync_to_async(add_core_and_case)(conv.pk)
    assert await database_sync_to_async(cache_keys_of)(conv.pk), "rate-limit bucket and lock"

    await first.send({"type": "forget"})
    await first.recv_until("forgotten")
    await second.recv_until("forgotten")
    assert (await first.c.receive_output(timeout=2))["type"] == "websocket.close"
    assert (await second.c.receive_output(timeout=2))["type"] == "websocket.close"

    assert await database_sync_to_async(everything_of)(conv.pk) == {
        "conversation": 0,
        "turns": 0,
        "cores": 0,
        "traces": 0,
    }
    assert not await database_sync_to_async(Case.objects.filter(site=site).exists)()
    assert await database_sync_to_async(cache_keys_of)(conv.pk) == []
    event = await database_sync_to_async(AuditEvent.objects.get)(action="erase")
    assert event.reason == "visitor request" and event.actor_id is None
    assert event.conversation_ref == conv.pk
    assert event.details["turns"] >= 2 and event.details["cases_deleted"] == 1
    assert "teapot" not in str(event.details) and "Quill" not in event.target

    again = await connect(site.key, client=("10.0.0.3", 1))
    assert await again.hello(session=token) == {
        "type": "welcome",
        "session": None,
        "resumed": False,
        "state": "bot",
        "turns": [],
        "earlier": False,
    }


@pytest.mark.django_db(transaction=True)
async def test_forget_before_any_message_just_confirms(site, connect):
    c = await connect(site.key)
    await c.hello()
    await c.send({"type": "forget"})
    assert (await c.recv())["type"] == "forgotten"
    assert not await database_sync_to_async(AuditEvent.objects.exists)()


# --- staff, from admin --------------------------------------------------------------------------


def staff_user(*codenames: str, name: str = "staff") -> User:
    user = User.objects.create_user(name, password="pw", is_staff=True)
    for codename in ("memory.view_conversation", *codenames):
        app, _, code = codename.partition(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app, codename=code)
        )
    return User.objects.get(pk=user.pk)


@pytest.fixture
def conversation(site, django_capture_on_commit_callbacks):
    from memory.services import conversation_start, turn_append

    conv, _ = conversation_start(site_id=site.pk)
    turn_append(conversation_id=conv.pk, role="visitor", text=SENTENCE)
    turn_append(conversation_id=conv.pk, role="assistant", text="I am sorry to hear that.")
    ContextTrace.objects.create(
        conversation=conv, request_seq=1, budget=8000, reserve=500, total_tokens=99
    )
    add_core_and_case(conv.pk)
    return conv


@pytest.mark.django_db
def test_staff_without_erase_permission_cannot_erase(conversation, client):
    client.force_login(staff_user("memory.export_conversation"))
    url = f"/admin/memory/conversation/{conversation.pk}/erase/"
    assert client.get(url).status_code == 403
    assert (
        client.post(url, {"confirm": "yes", "reason": "visitor asked by e-mail"}).status_code == 403
    )
    listing = client.get("/admin/memory/conversation/")
    assert "erase_conversations" not in dict(
        listing.context["action_form"].fields["action"].choices
    )
    assert "export_conversations" in dict(listing.context["action_form"].fields["action"].choices)
    assert everything_of(conversation.pk)["turns"] == 2


@pytest.mark.django_db
def test_staff_erase_requires_a_reason(conversation, client):
    client.force_login(staff_user("memory.erase_conversation", name="owner"))
    url = f"/admin/memory/conversation/{conversation.pk}/erase/"
    form_page = client.get(url)
    assert form_page.status_code == 200 and b'name="reason"' in form_page.content
    assert SENTENCE.encode() not in form_page.content, "the form shows ids, not text"
    response = client.post(url, {"confirm": "yes", "reason": ""})
    assert response.status_code == 200 and response.context["form"].errors
    assert everything_of(conversation.pk)["turns"] == 2
    assert not AuditEvent.objects.exists()


@pytest.mark.django_db
def test_staff_erase_removes_transcript_keeps_case_note_and_logs_actor_and_reason(
    conversation, client, django_capture_on_commit_callbacks
):
    owner = staff_user("memory.erase_conversation", name="owner")
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/admin/memory/conversation/{conversation.pk}/erase/",
            {"confirm": "yes", "reason": "Art. 17 request by e-mail #4411"},
        )
    assert response.status_code == 302
    assert everything_of(conversation.pk) == {
        "conversation": 0,
        "turns": 0,
        "cores": 0,
        "traces": 0,
    }
    case = Case.objects.get()
    assert (case.conversation_id, case.core, case.contact) == (None, {}, [])
    assert (case.reason, case.note) == ("parcel", "call back")
    assert case.transcript_purged_at is not None
    assert cache_keys_of(conversation.pk) == []
    event = AuditEvent.objects.get(action="erase")
    assert (event.actor, event.actor_label, event.reason) == (
        owner,
        "owner",
        "Art. 17 request by e-mail #4411",
    )
    assert {k: event.details[k] for k in ("turns", "cores", "traces", "cases_cleared")} == {
        "turns": 2,
        "cores": 1,
        "traces": 1,
        "cases_cleared": 1,
    }
    assert all(isinstance(v, int) for v in event.details.values()), "counts only"


@pytest.mark.django_db
def test_staff_erase_can_delete_the_case_records_too(conversation, client):
    client.force_login(staff_user("memory.erase_conversation", name="owner"))
    client.post(
        f"/admin/memory/conversation/{conversation.pk}/erase/",
        {"confirm": "yes", "reason": "visitor asked by phone", "delete_cases": "on"},
    )
    assert not Case.objects.exists()
    assert AuditEvent.objects.get(action="erase").details["cases_deleted"] == 1


@pytest.mark.django_db
def test_staff_erase_several_from_the_list_action(site, conversation, client):
    from memory.services import conversation_start, turn_append

    other, _ = conversation_start(site_id=site.pk)
    turn_append(conversation_id=other.pk, role="visitor", text="hello")
    keep, _ = conversation_start(site_id=site.pk)
    turn_append(conversation_id=keep.pk, role="visitor", text="keep me")
    client.force_login(staff_user("memory.erase_conversation", name="owner"))
    chosen = [str(conversation.pk), str(other.pk)]
    confirm = client.post(
        "/admin/memory/conversation/", {"action": "erase_conversations", "_selected_action": chosen}
    )
    assert confirm.status_code == 200 and b'name="reason"' in confirm.content
    assert Conversation.objects.count() == 3, "nothing erased before the reason is given"
    done = client.post(
        "/admin/memory/conversation/",
        {
            "action": "erase_conversations",
            "_selected_action": chosen,
            "confirm": "yes",
            "reason": "two requests from the same visitor",
        },
    )
    assert done.status_code == 302
    assert list(Conversation.objects.values_list("pk", flat=True)) == [keep.pk]
    assert AuditEvent.objects.filter(action="erase").count() == 2
