"""Staff users limited to sites (issue 15): a Staff user in the group `site:<key>` sees and
acts on that site's cases, conversations and profiles only - in the admin's lists, the case
page and its actions, the staff socket; Owners and Staff users without a site group see
every site."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Group
from django.urls import reverse

from chatwidget.sites.access import staff_site_ids
from chatwidget.sites.services import site_create
from handover import services
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory
from tests.handover.sockets import recv_json, staff_socket

pytestmark = pytest.mark.django_db(transaction=True)


def two_shops():
    shops, cases = [], []
    for name in ("Kurta shop", "Tea shop"):
        site = site_create(name=name, origins=["http://shop.test"])
        conv = ConversationFactory(site=site, texts=[f"A question for the {name}."])
        cases.append(
            services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
        )
        shops.append(site)
    return shops, cases


def limited_staff(site, username="lena"):
    user = UserFactory(username=username, role="Staff")
    user.groups.add(Group.objects.get_or_create(name=f"site:{site.key}")[0])
    return user


def test_a_limited_staff_user_sees_and_acts_on_their_sites_cases_only(client):
    (kurta, tea), (mine, theirs) = two_shops()
    client.force_login(limited_staff(kurta))
    listing = client.get(reverse("admin:handover_case_changelist")).content.decode()
    assert f"Case {mine.pk}<" in listing and f"Case {theirs.pk}<" not in listing
    assert client.get(reverse("admin:handover_case_change", args=[mine.pk])).status_code == 200
    assert client.get(reverse("admin:handover_case_change", args=[theirs.pk])).status_code == 404
    claim = client.post(reverse("admin:handover_case_action", args=[theirs.pk, "claim"]))
    assert claim.status_code == 404
    conversations = client.get(reverse("admin:memory_conversation_changelist")).content.decode()
    own = reverse("admin:memory_conversation_change", args=[mine.conversation_id])
    other = reverse("admin:memory_conversation_change", args=[theirs.conversation_id])
    assert own in conversations and other not in conversations
    assert client.get(other).status_code in (302, 404), "another site's conversation"


@pytest.mark.parametrize("role", ["Owner", "Staff"])
def test_owners_and_unlimited_staff_see_every_site(client, role):
    (kurta, tea), (one, two) = two_shops()
    user = UserFactory(username="all", role=role)
    assert staff_site_ids(user) is None
    client.force_login(user)
    listing = client.get(reverse("admin:handover_case_changelist")).content.decode()
    assert f"Case {one.pk}<" in listing and f"Case {two.pk}<" in listing


@pytest.mark.asyncio
async def test_the_staff_socket_of_another_sites_case_is_refused():
    (kurta, tea), (mine, theirs) = await database_sync_to_async(two_shops)()
    user = await database_sync_to_async(limited_staff)(kurta)
    comm, connected, _ = await staff_socket(user, f"/ws/staff/case/{theirs.pk}/")
    assert not connected
    comm, connected, _ = await staff_socket(user, f"/ws/staff/case/{mine.pk}/")
    assert connected
    await comm.disconnect()


def test_take_over_lists_and_accepts_only_the_users_sites(client):
    kurta, tea = (site_create(name=n, origins=["http://shop.test"]) for n in ("Kurta", "Tea"))
    live = [ConversationFactory(site=site, texts=["just browsing"]) for site in (kurta, tea)]
    client.force_login(limited_staff(kurta))
    page = client.get(reverse("admin:handover_case_take_over")).content.decode()
    assert f"#{live[0].pk}" in page and f"#{live[1].pk}" not in page
    refused = client.post(reverse("admin:handover_case_take_over"), {"conversation": live[1].pk})
    assert refused.status_code == 403
    taken = client.post(reverse("admin:handover_case_take_over"), {"conversation": live[0].pk})
    assert taken.status_code == 302


def test_a_limited_staff_user_sees_their_sites_shop_action_calls_only(client):
    from chatwidget.shop.models.actions import ActionCall

    (kurta, tea), (mine, theirs) = two_shops()
    calls = {
        case.pk: ActionCall.objects.create(
            conversation_id=case.conversation_id,
            name=name,
            request_seq=1,
            outcome=ActionCall.Outcome.OK,
        )
        for case, name in ((mine, "kurta_order"), (theirs, "tea_order"))
    }
    client.force_login(limited_staff(kurta))
    listing = client.get(reverse("admin:shop_actioncall_changelist"))
    assert list(listing.context["cl"].result_list) == [calls[mine.pk]]
    assert "tea_order" not in listing.content.decode(), "not even in the filters"
    other = reverse("admin:shop_actioncall_change", args=[calls[theirs.pk].pk])
    assert client.get(other).status_code in (302, 404), "another site's call"
    client.force_login(UserFactory(username="olga", role="Owner"))
    listing = client.get(reverse("admin:shop_actioncall_changelist"))
    assert set(listing.context["cl"].result_list) == set(calls.values())


@pytest.mark.asyncio
async def test_the_waiting_badge_counts_the_users_sites_only(client):
    (kurta, tea), (mine, theirs) = await database_sync_to_async(two_shops)()
    user = await database_sync_to_async(limited_staff)(kurta)
    everyone = await database_sync_to_async(UserFactory)(username="olga", role="Owner")
    comm, connected, _ = await staff_socket(user, "/ws/staff/")
    owner_comm, _, _ = await staff_socket(everyone, "/ws/staff/")
    assert connected
    assert await recv_json(comm) == {"type": "cases", "waiting": 1}, "the Tea shop's not"
    assert await recv_json(owner_comm) == {"type": "cases", "waiting": 2}

    # a third case on the other site: the badge stays at the user's count
    other = await database_sync_to_async(ConversationFactory)(site=tea, texts=["Hello?"])
    await database_sync_to_async(services.handover_request)(
        conversation_id=other.pk, trigger="visitor", now=OPEN_TIME
    )
    assert await recv_json(comm) == {"type": "cases", "waiting": 1}
    assert await recv_json(owner_comm) == {"type": "cases", "waiting": 3}
    await comm.disconnect()
    await owner_comm.disconnect()

    # the case list's badge, rendered with the page
    await database_sync_to_async(client.force_login)(user)
    page = await database_sync_to_async(client.get)(reverse("admin:handover_case_changelist"))
    assert page.context["waiting_count"] == 1
