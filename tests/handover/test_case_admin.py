"""The staff admin (handover/admin.py): the list, the case page, actions, reveal, roles."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from handover import services
from handover.models import Case
from memory.models import AuditEvent, Conversation, Core, Turn
from tests.factories import OPEN_TIME, ConversationFactory

pytestmark = pytest.mark.django_db

CORE = {
    "request": "a mint cotton kurta in size L for the office",
    "objects": [{"kind": "article", "id": "KU-2291-M", "label": "cotton kurta, mint"}],
    "constraints": [{"what": "size", "value": "L", "turn": 1}],
    "open_points": ["asked for the postcode, no answer yet"],
    "promises": ["send the size chart"],
    "corrections": [{"was": "for the small flat", "now": "for the office", "turn": 3}],
    "settled": ["return label for order 55-1031 sent (turn 5)"],
}


def case_url(case) -> str:
    return reverse("admin:handover_case_change", args=[case.pk])


def action_url(case, action) -> str:
    return reverse("admin:handover_case_action", args=[case.pk, action])


@pytest.fixture
def case(conversation):
    Core.objects.create(
        conversation=conversation, version=1, covers_through_seq=2, source="model", data=CORE
    )
    return services.handover_request(
        conversation_id=conversation.pk,
        trigger="visitor",
        reason="wants to talk about the fit",
        now=OPEN_TIME,
    )


def login(client, user):
    client.force_login(user)
    return client


# --- the list --------------------------------------------------------------------------------


def test_list_shows_waiting_cases_first_oldest_first_with_a_count(client, site, staff_user):
    convs = [ConversationFactory(site=site, texts=[f"visitor {i}"]) for i in range(4)]
    cases = [
        services.handover_request(conversation_id=c.pk, trigger="visitor", now=OPEN_TIME)
        for c in convs
    ]
    services.case_claim(case_id=cases[0].pk, user=staff_user)  # oldest, but not waiting
    now = timezone.now()
    for i, c in enumerate(cases):
        Case.objects.filter(pk=c.pk).update(requested_at=now - timedelta(minutes=60 - i * 10))
    response = login(client, staff_user).get(reverse("admin:handover_case_changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    order = [int(n) for n in re.findall(r"Case (\d+)</a>", html)]
    assert order == [cases[1].pk, cases[2].pk, cases[3].pk, cases[0].pk]
    assert re.search(r'id="handover-waiting-count">3<', html)
    assert 'data-ws-path="/ws/staff/"' in html


def test_list_filters_by_state_site_and_waiting_time(client, site, staff_user):
    from chatwidget.sites.services import site_create

    other = site_create(name="Other shop", origins=["http://other.test"])
    old = services.handover_request(
        conversation_id=ConversationFactory(site=site, texts=["a"]).pk,
        trigger="visitor",
        now=OPEN_TIME,
    )
    new = services.handover_request(
        conversation_id=ConversationFactory(site=other, texts=["b"]).pk,
        trigger="visitor",
        now=OPEN_TIME,
    )
    Case.objects.filter(pk=old.pk).update(requested_at=timezone.now() - timedelta(minutes=45))
    client = login(client, staff_user)
    url = reverse("admin:handover_case_changelist")

    def ids(query):
        html = client.get(url + query).content.decode()
        return {int(n) for n in re.findall(r"Case (\d+)</a>", html)}

    assert ids("?waited=gt30") == {old.pk}
    assert ids("?waited=lt5") == {new.pk}
    assert ids(f"?site__id__exact={other.pk}") == {new.pk}
    services.case_claim(case_id=new.pk, user=staff_user)
    assert ids("?status__exact=human") == {new.pk}


# --- the case page ----------------------------------------------------------------------------


def test_case_page_shows_reason_core_contact_then_collapsed_transcript_masked(
    client, case, staff_user
):
    response = login(client, staff_user).get(case_url(case))
    assert response.status_code == 200
    html = response.content.decode()
    positions = [
        html.index(marker)
        for marker in (
            'id="case-reason"',
            'id="case-core"',
            'id="case-live"',
            'id="reply-form"',
            'id="case-actions"',
            'id="case-contact"',
            'id="case-transcript"',
        )
    ]
    assert positions == sorted(positions), (
        "the work above the fold: reason, core, the last turns, the reply box, the actions; "
        "then contact details and the transcript"
    )
    assert "wants to talk about the fit" in html
    for shown in (
        "a mint cotton kurta in size L for the office",
        "KU-2291-M",
        "cotton kurta, mint",
        "size: L",
        "asked for the postcode",
        "send the size chart",
        "for the small flat \u2192 for the office",
    ):
        assert shown in html, shown
    transcript = html[html.index('<details id="transcript">') :]
    assert '<details id="transcript">' in html and '<details id="transcript" open' not in html
    assert "I need the mint kurta KU-2291-M in size L." in transcript
    assert "anna@example.com" not in html and "1234567" not in html, "masked everywhere"
    assert "a\u2022\u2022\u2022@e\u2022\u2022\u2022.com" in html
    assert "no-store" in response["Cache-Control"]


def test_the_live_section_shows_the_last_turns_and_keeps_the_rest_one_click_away(
    client, site, staff_user
):
    conv = ConversationFactory(site=site, texts=[f"visitor line {i}" for i in range(10)])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
    html = login(client, staff_user).get(case_url(case)).content.decode()
    live = html[html.index('id="case-live"') : html.index('id="reply-form"')]
    shown = live[live.index('id="live-turns"') :]
    earlier = live[live.index('<details id="live-earlier">') : live.index('id="live-turns"')]
    assert shown.count('class="turn ') == 6 and "visitor line 9" in shown
    assert "visitor line 0" in earlier and "visitor line 0" not in shown
    assert "Show all" in earlier


def test_a_button_handover_is_not_quoted_as_the_visitors_words(client, site, staff_user):
    conv = ConversationFactory(site=site, texts=["hello"])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
    html = login(client, staff_user).get(case_url(case)).content.decode()
    reason = html[html.index('id="case-reason"') : html.index('id="case-core"')]
    assert "own words" not in reason and "<q>" not in reason
    assert "gave no reason" in reason


def test_staff_sees_no_reveal_and_cannot_reveal(client, case, staff_user):
    client = login(client, staff_user)
    html = client.get(case_url(case)).content.decode()
    assert 'name="reason"' not in html
    response = client.post(
        reverse("admin:handover_case_reveal", args=[case.pk]),
        {"target": "contact:0", "reason": "customer called back"},
    )
    assert response.status_code == 403
    assert "anna@example.com" not in response.content.decode()
    assert not AuditEvent.objects.filter(action="reveal").exists()
    assert client.get(reverse("admin:handover_revealevent_changelist")).status_code == 403


def test_owner_reveals_one_field_with_a_reason_and_it_is_logged(client, case, owner_user):
    client = login(client, owner_user)
    assert 'name="reason"' in client.get(case_url(case)).content.decode()
    refused = client.post(
        reverse("admin:handover_case_reveal", args=[case.pk]), {"target": "contact:0", "reason": ""}
    )
    assert "anna@example.com" not in refused.content.decode()
    assert not AuditEvent.objects.exists(), "no reason, no reveal"

    response = client.post(
        reverse("admin:handover_case_reveal", args=[case.pk]),
        {"target": "contact:0", "reason": "calling the customer back"},
    )
    html = response.content.decode()
    assert response.status_code == 200 and "anna@example.com" in html
    assert "1234567" not in html, "only the field asked for"
    assert "no-store" in response["Cache-Control"]
    event = AuditEvent.objects.get()
    assert (event.action, event.actor, event.reason) == (
        "reveal",
        owner_user,
        "calling the customer back",
    )
    assert event.target == f"case {case.pk} / contact 0"
    assert event.conversation_ref == case.conversation_id and event.at
    assert "anna" not in str(event.details), "the log holds no values"

    log = client.get(reverse("admin:handover_revealevent_changelist")).content.decode()
    assert "calling the customer back" in log and "olga" in log


def test_owner_reveals_the_transcript(client, case, owner_user):
    client = login(client, owner_user)
    response = client.post(
        reverse("admin:handover_case_reveal", args=[case.pk]),
        {"target": "transcript", "reason": "dispute about the order"},
    )
    html = response.content.decode()
    assert "Please write to anna@example.com or call +49 30 1234567." in html
    assert AuditEvent.objects.get().details["field"] == "transcript"


def test_reveal_log_is_read_only(client, case, owner_user):
    services.plaintext_reveal(
        case_id=case.pk, user=owner_user, target="contact:1", reason="verify the phone number"
    )
    client = login(client, owner_user)
    event = AuditEvent.objects.get()
    url = reverse("admin:handover_revealevent_change", args=[event.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"reason": "changed"})
    event.refresh_from_db()
    assert event.reason == "verify the phone number"
    assert (
        client.get(reverse("admin:handover_revealevent_delete", args=[event.pk])).status_code == 403
    )


def test_user_without_a_role_sees_no_cases(client, case, outsider):
    client = login(client, outsider)
    assert client.get(reverse("admin:handover_case_changelist")).status_code == 403
    assert client.get(case_url(case)).status_code == 403
    assert client.post(action_url(case, "claim")).status_code == 403
    assert client.post(action_url(case, "reply"), {"text": "hi"}).status_code == 403
    assert Turn.objects.filter(role="staff").count() == 0


def test_anonymous_is_sent_to_login(client, case):
    response = client.get(case_url(case))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


# --- actions from the case page ------------------------------------------------------------------


def test_claim_reply_and_resolve_from_the_case_page(client, case, staff_user):
    client = login(client, staff_user)
    response = client.post(action_url(case, "claim"))
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.status == "human" and case.claimed_by == staff_user

    response = client.post(
        action_url(case, "reply"), {"text": "The kurta ships today."}, HTTP_X_REQUESTED_WITH="fetch"
    )
    assert response.status_code == 200 and response.json()["ok"]
    staff_turn = Turn.objects.get(role="staff")
    assert staff_turn.text == "The kurta ships today." and staff_turn.author == staff_user

    response = client.post(action_url(case, "resolve"), {"note": ""})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    response = client.post(action_url(case, "resolve"), {"note": "Shipping date given."})
    case.refresh_from_db()
    assert case.status == "resolved" and case.note == "Shipping date given."
    assert Conversation.objects.get(pk=case.conversation_id).state == "closed"
    html = client.get(case_url(case)).content.decode()
    assert 'id="reply-form"' not in html and "Shipping date given." in html


def test_reply_to_a_closed_case_is_refused(client, case, staff_user):
    services.case_release(case_id=case.pk, user=staff_user)
    client = login(client, staff_user)
    response = client.post(
        action_url(case, "reply"), {"text": "hello"}, HTTP_X_REQUESTED_WITH="fetch"
    )
    assert response.status_code == 409 and not response.json()["ok"]
    assert not Turn.objects.filter(role="staff").exists()


def test_release_and_assign_from_the_case_page(client, case, staff_user, owner_user):
    client = login(client, staff_user)
    client.post(action_url(case, "assign"), {"assignee": owner_user.pk})
    case.refresh_from_db()
    assert case.claimed_by == owner_user and case.status == "human"
    client.post(action_url(case, "release"))
    case.refresh_from_db()
    assert case.status == "released"
    assert Conversation.objects.get(pk=case.conversation_id).state == "bot"


def test_take_over_a_live_conversation_from_admin(client, site, staff_user):
    conv = ConversationFactory(site=site, texts=["just browsing"])
    client = login(client, staff_user)
    page = client.get(reverse("admin:handover_case_take_over")).content.decode()
    assert f"#{conv.pk}" in page
    response = client.post(reverse("admin:handover_case_take_over"), {"conversation": conv.pk})
    case = Case.objects.get()
    assert response.status_code == 302 and response["Location"] == case_url(case)
    assert case.trigger == "staff" and case.claimed_by == staff_user
    assert Conversation.objects.get(pk=conv.pk).state == "human"


def test_case_page_queries_do_not_grow_with_the_transcript(client, site, staff_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = login(client, staff_user)
    counts = []
    for n in (2, 20):
        conv = ConversationFactory(
            site=site, texts=[f"message {i} from anna@example.com" for i in range(n)]
        )
        case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(case_url(case)).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
