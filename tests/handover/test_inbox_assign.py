"""Assigning from the inbox and the "mine" / "unassigned" filters (issue 32), in the inbox
page and the case list; and the Alerts page a staff user reaches from the inbox."""

import re

import pytest
from django.urls import reverse

from handover import services
from handover.models import AlertPreference, Case
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db


def _case(site, text) -> Case:
    conv = ConversationFactory(site=site, texts=[text])
    return services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)


def _inbox_cases(client, show="") -> list[int]:
    url = reverse("admin:handover_case_inbox") + (f"?show={show}" if show else "")
    response = client.get(url)
    assert response.status_code == 200
    return [int(n) for n in re.findall(r'<tr data-case="(\d+)"', response.content.decode())]


def test_assign_to_me_and_to_a_colleague_from_the_inbox_and_filter(client, site, staff_user):
    colleague = UserFactory(username="kim", role="Staff", first_name="Kim")
    mine, theirs, open_ = (_case(site, t) for t in ("One?", "Two?", "Three?"))
    client.force_login(staff_user)
    page = client.get(reverse("admin:handover_case_inbox")).content.decode()
    assert "Assign to me" in page and 'data-assign="other"' in page
    assert reverse("admin:handover_alertpreference_changelist") in page

    # the inbox's buttons post as the case page's fetch does (X-Requested-With: fetch)
    claim = reverse("admin:handover_case_action", args=[mine.pk, "claim"])
    response = client.post(claim, HTTP_X_REQUESTED_WITH="fetch")
    assert response.json() == {"ok": True}
    assign = reverse("admin:handover_case_action", args=[theirs.pk, "assign"])
    response = client.post(assign, {"assignee": colleague.pk}, HTTP_X_REQUESTED_WITH="fetch")
    assert response.json() == {"ok": True}
    assert Case.objects.get(pk=theirs.pk).claimed_by == colleague

    assert _inbox_cases(client) == [mine.pk, theirs.pk, open_.pk]
    assert _inbox_cases(client, "mine") == [mine.pk]
    assert _inbox_cases(client, "unassigned") == [open_.pk]
    assert _inbox_cases(client, "nonsense") == [mine.pk, theirs.pk, open_.pk]


def test_the_case_list_filters_mine_and_unassigned(client, site, staff_user):
    mine, other = _case(site, "One?"), _case(site, "Two?")
    services.case_claim(case_id=mine.pk, user=staff_user)
    client.force_login(staff_user)
    url = reverse("admin:handover_case_changelist")
    listed = client.get(url, {"assigned": "mine"}).content.decode()
    assert f"/case/{mine.pk}/change/" in listed and f"/case/{other.pk}/change/" not in listed
    listed = client.get(url, {"assigned": "nobody"}).content.decode()
    assert f"/case/{other.pk}/change/" in listed and f"/case/{mine.pk}/change/" not in listed


def test_a_staff_user_edits_their_own_alerts_only(client, site, staff_user, owner_user):
    AlertPreference.objects.create(user=owner_user, by_push=True, by_email=True)
    client.force_login(staff_user)
    url = reverse("admin:handover_alertpreference_changelist")
    page = client.get(url)
    assert page.status_code == 200
    assert "manifest.webmanifest" in page.content.decode()
    response = client.post(
        url,
        {
            "new_case": "on",
            "promise_due": "on",
            "sites": [site.pk],
            "by_email": "on",
            "language": "de",
        },
    )
    assert response.status_code == 302
    pref = AlertPreference.objects.get(user=staff_user)
    assert (pref.new_case, pref.visitor_replied, pref.promise_due) == (True, False, True)
    assert (pref.by_push, pref.by_email, pref.language) == (False, True, "de")
    assert list(pref.sites.all()) == [site]
    owner = AlertPreference.objects.get(user=owner_user)
    assert owner.by_push and owner.by_email, "the owner's settings are untouched"


def test_the_alerts_page_offers_only_the_sites_the_user_may_see(client, site, staff_user):
    from django.contrib.auth.models import Group

    from chatwidget.sites.services import site_create

    other = site_create(name="Tea shop", origins=["http://shop.test"])
    staff_user.groups.add(Group.objects.get_or_create(name=f"site:{other.key}")[0])
    client.force_login(staff_user)
    url = reverse("admin:handover_alertpreference_changelist")
    assert "Test shop" not in client.get(url).content.decode()
    response = client.post(url, {"new_case": "on", "sites": [site.pk], "language": "en"})
    assert response.status_code == 200, "a site the user may not see is refused"
    assert not AlertPreference.objects.get(user=staff_user).sites.exists()


def test_a_case_is_offered_and_assigned_only_to_colleagues_who_may_see_its_site(
    client, site, staff_user
):
    from django.contrib.auth.models import Group

    from chatwidget.sites.services import site_create

    tea = site_create(name="Tea shop", origins=["http://shop.test"])
    lena = UserFactory(username="lena", role="Staff", first_name="Lena")
    lena.groups.add(Group.objects.get_or_create(name=f"site:{tea.key}")[0])
    case = _case(site, "One?")
    client.force_login(staff_user)
    page = client.get(reverse("admin:handover_case_inbox")).content.decode()
    row = page[page.index(f'<tr data-case="{case.pk}"') :]
    row = row[: row.index("</tr>")]
    assert f'<option value="{staff_user.pk}">' in row
    assert f'<option value="{lena.pk}">' not in row, "Lena may not see this site"
    assign = reverse("admin:handover_case_action", args=[case.pk, "assign"])
    response = client.post(assign, {"assignee": lena.pk}, HTTP_X_REQUESTED_WITH="fetch")
    assert response.status_code == 409
    assert Case.objects.get(pk=case.pk).claimed_by is None
