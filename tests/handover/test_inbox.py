"""The live inbox, staff presence, canned replies and resolving with an open promise
(issue 18): the staff sockets through the real ASGI stack, the admin pages through the
test client."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from chatwidget.platform.presence import staff_presence_mark
from chatwidget.sites.services import site_create
from handover import services
from handover.models import CannedReply, Case
from handover.services.presence import staff_available
from memory.models import Turn, TurnRole
from memory.services import turn_append
from tests.factories import CLOSED_TIME, ConversationFactory, UserFactory
from tests.handover.sockets import recv_json, staff_socket

pytestmark = [pytest.mark.django_db(transaction=True)]

NOBODY = "Nobody from our team is free right now."


def _open_case(site, texts=("I need KU-2291-M in L",)) -> Case:
    site.staff_hours = ""  # always inside staff hours
    site.save(update_fields=["staff_hours"])
    conv = ConversationFactory(site=site, texts=list(texts))
    return services.handover_request(conversation_id=conv.pk, trigger="visitor", reason="r")


def _notices(case: Case) -> list[str]:
    return list(
        Turn.objects.filter(conversation_id=case.conversation_id, role=TurnRole.SYSTEM).values_list(
            "text", flat=True
        )
    )


def _limit(user, site) -> None:
    user.groups.add(Group.objects.get_or_create(name=f"site:{site.key}")[0])


# --- presence -------------------------------------------------------------------------------


def test_presence_decides_availability_per_site(site, settings):
    settings.STAFF_PRESENCE_REQUIRED = True
    other = site_create(name="Other shop", origins=["http://other.test"])
    limited = UserFactory(username="lena", role="Staff")
    _limit(limited, other)
    assert not staff_available(site_id=site.pk)
    staff_presence_mark(user_id=limited.pk, channel="c1", present=True)
    assert staff_available(site_id=other.pk)
    assert not staff_available(site_id=site.pk)  # lena may not take this site's cases
    staff_presence_mark(user_id=limited.pk, channel="c1", present=False)
    assert not staff_available(site_id=other.pk)
    staff_presence_mark(user_id=limited.pk, channel="c2", present=True, now=0)  # lapsed
    assert not staff_available(site_id=other.pk)


@pytest.mark.asyncio
async def test_an_open_staff_socket_makes_the_team_available(site, settings):
    settings.STAFF_PRESENCE_REQUIRED = True
    staff = await database_sync_to_async(UserFactory)(username="sam", role="Staff")
    case = await database_sync_to_async(_open_case)(site)
    assert any(NOBODY in t for t in await database_sync_to_async(_notices)(case))
    assert case.outside_hours  # the call-back path: contact details become a promise

    comm, connected, _ = await staff_socket(staff, "/ws/staff/")
    assert connected
    await recv_json(comm)  # the badge
    case = await database_sync_to_async(_open_case)(site, texts=("second visitor",))
    notices = await database_sync_to_async(_notices)(case)
    assert any(n.startswith("A member of the team will reply here.") for n in notices)
    assert not case.outside_hours
    await comm.disconnect()

    case = await database_sync_to_async(_open_case)(site, texts=("third visitor",))
    assert any(NOBODY in t for t in await database_sync_to_async(_notices)(case))


# --- the inbox over the staff socket --------------------------------------------------------


@pytest.mark.asyncio
async def test_inbox_socket_sends_rows_for_new_message_claim_and_resolve(site):
    staff = await database_sync_to_async(UserFactory)(username="sam", role="Staff")
    comm, connected, _ = await staff_socket(staff, "/ws/staff/?inbox=1")
    assert connected
    assert (await recv_json(comm))["type"] == "cases"

    case = await database_sync_to_async(_open_case)(site)
    frames = [await recv_json(comm), await recv_json(comm)]
    row = next(f for f in frames if f["type"] == "inbox")["row"]
    assert row["id"] == case.pk and row["status"] == "waiting" and row["unread"] == 0

    def visitor_writes():
        turn = turn_append(
            conversation_id=case.conversation_id, role=TurnRole.VISITOR, text="Hello? Anyone there?"
        ).turn
        services.handover_visitor_message(conversation_id=case.conversation_id, seq=turn.seq)

    await database_sync_to_async(visitor_writes)()
    frame = await recv_json(comm)
    assert frame["type"] == "inbox" and frame["row"]["unread"] == 1

    await database_sync_to_async(services.case_claim)(case_id=case.pk, user=staff)
    frames = [await recv_json(comm), await recv_json(comm)]
    row = next(f for f in frames if f["type"] == "inbox")["row"]
    assert row["status"] == "human" and row["assignee"] == "sam"

    await database_sync_to_async(services.staff_reply)(case_id=case.pk, user=staff, text="Yes!")
    assert (await recv_json(comm))["row"]["unread"] == 0
    await database_sync_to_async(services.case_resolve)(case_id=case.pk, user=staff, note="ok")
    assert await recv_json(comm) == {"type": "inbox", "case": case.pk, "row": None}
    await comm.disconnect()


@pytest.mark.asyncio
async def test_inbox_socket_drops_cases_of_sites_the_user_may_not_see(site):
    other = await database_sync_to_async(site_create)(name="Other", origins=["http://o.test"])
    limited = await database_sync_to_async(UserFactory)(username="lena", role="Staff")
    await database_sync_to_async(_limit)(limited, other)
    comm, connected, _ = await staff_socket(limited, "/ws/staff/?inbox=1")
    assert connected
    await recv_json(comm)
    await database_sync_to_async(_open_case)(site)
    assert (await recv_json(comm))["type"] == "cases"  # the badge only
    mine = await database_sync_to_async(_open_case)(other)
    frames = [await recv_json(comm), await recv_json(comm)]
    assert [f["row"]["id"] for f in frames if f["type"] == "inbox"] == [mine.pk]
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_badge_socket_gets_no_inbox_rows(site):
    staff = await database_sync_to_async(UserFactory)(username="sam", role="Staff")
    comm, _, _ = await staff_socket(staff, "/ws/staff/")
    await recv_json(comm)
    await database_sync_to_async(_open_case)(site)
    assert (await recv_json(comm))["type"] == "cases"
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


# --- admin pages ----------------------------------------------------------------------------


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_inbox_page_lists_open_cases_with_unread_counts(site):
    staff = UserFactory(username="sam", role="Staff")
    waiting = _open_case(site)
    turn_append(conversation_id=waiting.conversation_id, role=TurnRole.VISITOR, text="still?")
    done = _open_case(site, texts=("other",))
    services.case_claim(case_id=done.pk, user=staff)
    services.case_resolve(case_id=done.pk, user=staff, note="done")
    html = _client(staff).get(reverse("admin:handover_case_inbox")).content.decode()
    assert f'data-case="{waiting.pk}"' in html and f'data-case="{done.pk}"' not in html
    assert 'class="unread" data-n="1"' in html and "/ws/staff/?inbox=1" in html


def test_inbox_times_are_in_the_sites_zone_and_named_as_on_the_case_page(site):
    from datetime import UTC, datetime

    from handover.selectors import inbox_row

    site.time_zone = "Europe/Berlin"
    site.save()
    case = _open_case(site)
    Case.objects.filter(pk=case.pk).update(requested_at=datetime(2026, 1, 15, 13, 2, tzinfo=UTC))
    row = inbox_row(case_id=case.pk)
    assert "14:02" in row["requested_label"] and "CET" in row["requested_label"]
    staff = UserFactory(username="sam", role="Staff")
    html = _client(staff).get(reverse("admin:handover_case_inbox")).content.decode()
    assert row["requested_label"] in html


def test_case_page_shows_what_was_said_before_it_was_opened_and_canned_replies(site):
    staff = UserFactory(username="sam", role="Staff")
    other = site_create(name="Other", origins=["http://o.test"])
    CannedReply.objects.create(site=site, title="Shipping", shortcut="ship", text="Ships today.")
    CannedReply.objects.create(site=None, title="Thanks", shortcut="thx", text="Thank you!")
    CannedReply.objects.create(site=other, title="Elsewhere", shortcut="else", text="Nope.")
    case = _open_case(site, texts=("I need KU-2291-M in L",))
    html = _client(staff).get(reverse("admin:handover_case_change", args=[case.pk])).content
    html = html.decode()
    live = html.split('id="live-turns"', 1)[1].split("</ol>", 1)[0]
    assert "I need KU-2291-M in L" in live and "A member of the team will reply here." in live
    assert '"shortcut": "ship"' in html and '"shortcut": "thx"' in html
    assert "Nope." not in html
    assert "Reload the page" not in html


def test_resolving_with_an_open_call_back_promise_needs_a_confirmation(site):
    staff = UserFactory(username="sam", role="Staff")
    site.staff_hours = "mon-fri 09:00-17:00"
    site.save(update_fields=["staff_hours"])
    conv = ConversationFactory(site=site, texts=["Write to anna@example.com please"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=CLOSED_TIME)
    assert case.callback_requested
    client = _client(staff)
    client.post(reverse("admin:handover_case_action", args=[case.pk, "claim"]))
    url = reverse("admin:handover_case_action", args=[case.pk, "resolve"])
    page = client.get(reverse("admin:handover_case_change", args=[case.pk])).content.decode()
    assert 'id="open-promises"' in page and 'name="confirm_promise"' in page
    refused = client.post(url, {"note": "done"}, HTTP_X_REQUESTED_WITH="fetch")
    assert refused.status_code == 409 and "open promise" in refused.json()["error"]
    case.refresh_from_db()
    assert case.status == "human"
    client.post(url, {"note": "called back", "confirm_promise": "on"})
    case.refresh_from_db()
    assert case.status == "resolved"


def test_owners_manage_canned_replies_and_staff_read_them(site):
    owner = UserFactory(username="olga", role="Owner")
    staff = UserFactory(username="sam", role="Staff")
    assert owner.has_perm("handover.change_cannedreply")
    assert staff.has_perm("handover.view_cannedreply")
    assert not staff.has_perm("handover.change_cannedreply")
    url = reverse("admin:handover_cannedreply_add")
    response = _client(owner).post(
        url, {"site": site.pk, "title": "Hi", "shortcut": "hi", "text": "Hello!", "position": 0}
    )
    assert response.status_code == 302 and CannedReply.objects.get().shortcut == "hi"
