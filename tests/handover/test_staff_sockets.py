"""Staff websockets (handover/consumers.py): who may connect, masking, the live badge."""

import pytest
from channels.db import database_sync_to_async

from handover import services
from handover.models import Case
from tests.factories import ConversationFactory, UserFactory
from tests.handover.sockets import recv_json, staff_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def open_case(site, texts=("I need KU-2291-M in L",)):
    site.staff_hours = ""
    site.save(update_fields=["staff_hours"])
    conv = ConversationFactory(site=site, texts=list(texts))
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", reason="r")
    return case, conv


@pytest.mark.parametrize(
    ("role", "origin", "allowed"),
    [
        (None, "http://testserver", False),  # not logged in
        ("outsider", "http://testserver", False),  # staff flag, but no role
        ("Staff", "http://evil.example", False),  # another site's page with the cookie
        ("Staff", None, False),  # no Origin header
        ("Staff", "http://testserver:8081", False),  # the same host, another port
        ("Staff", "https://testserver", False),  # the same host, another scheme
        ("Staff", "http://testserver", True),
        ("Owner", "http://testserver", True),
    ],
)
async def test_who_may_open_the_case_socket(site, role, origin, allowed):
    case, _ = await open_case(site)
    user = None
    if role:
        user = await database_sync_to_async(UserFactory)(
            username="u", role=None if role == "outsider" else role
        )
    comm, connected, _ = await staff_socket(user, f"/ws/staff/case/{case.pk}/", origin=origin)
    assert connected is allowed
    await comm.disconnect()


async def test_case_socket_shows_visitor_messages_live_and_masked(site, connect):
    staff = await database_sync_to_async(UserFactory)(username="sam", role="Staff")
    visitor = await connect(site.key)
    await visitor.hello()
    ack = await visitor.say("Hello", "m1")
    await visitor.answer()
    await visitor.send({"type": "handover", "reason": "person please"})
    await visitor.recv_until("state", state="waiting")
    case = await database_sync_to_async(Case.objects.get)()
    comm, connected, _ = await staff_socket(staff, f"/ws/staff/case/{case.pk}/")
    assert connected
    await visitor.say("Mail me at anna@example.com, IBAN DE89 3704 0044 0532 0130 00", "m2")
    frame = await recv_json(comm)
    assert frame["type"] == "message" and frame["role"] == "visitor" and frame["seq"] > ack["seq"]
    assert "anna@example.com" not in frame["text"] and "0532" not in frame["text"]
    assert "@" in frame["text"], "masked, not dropped"
    own, _ = await visitor.recv_until("message", role="visitor")
    assert "anna@example.com" in own["text"], "the visitor sees what they typed"

    await database_sync_to_async(services.staff_reply)(case_id=case.pk, user=staff, text="Hi!")
    seen = []
    while not (seen and seen[-1].get("role") == "staff"):
        seen.append(await recv_json(comm))
    assert {"type": "state", "state": "human"} in seen
    assert seen[-1]["text"] == "Hi!" and seen[-1]["author"] == "sam"
    await comm.disconnect()


async def test_case_socket_of_an_unknown_case_is_refused(site):
    staff = await database_sync_to_async(UserFactory)(username="sam", role="Staff")
    comm, connected, _ = await staff_socket(staff, "/ws/staff/case/999/")
    assert not connected


async def test_waiting_badge_counts_live(site):
    staff = await database_sync_to_async(UserFactory)(username="sam", role="Staff")
    comm, connected, _ = await staff_socket(staff, "/ws/staff/")
    assert connected
    assert await recv_json(comm) == {"type": "cases", "waiting": 0}
    case, _ = await open_case(site)
    assert await recv_json(comm) == {"type": "cases", "waiting": 1}
    await open_case(site, texts=("second visitor",))
    assert await recv_json(comm) == {"type": "cases", "waiting": 2}
    await database_sync_to_async(services.case_claim)(case_id=case.pk, user=staff)
    assert await recv_json(comm) == {"type": "cases", "waiting": 1}
    await comm.disconnect()


async def test_badge_socket_needs_a_role(site):
    outsider = await database_sync_to_async(UserFactory)(username="otto")
    _, connected, _ = await staff_socket(outsider, "/ws/staff/")
    assert not connected
