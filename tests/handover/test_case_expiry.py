"""Case rows have a retention period (issue 15): after the run-off the reason goes with the
raw copies and the staff note stays; an owner's reveal on an expired case says so and writes
no audit event."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from handover import services
from handover.models import Case
from memory.models import AuditEvent
from tests.factories import OPEN_TIME

pytestmark = pytest.mark.django_db


def resolved_case(conversation, staff_user, *, days_ago: int) -> Case:
    case = services.handover_request(
        conversation_id=conversation.pk,
        trigger="visitor",
        reason="my parcel to Hauptstrasse 5 never came",
        now=OPEN_TIME,
    )
    services.case_claim(case_id=case.pk, user=staff_user)
    services.case_resolve(case_id=case.pk, user=staff_user, note="Resent the parcel.")
    Case.objects.filter(pk=case.pk).update(resolved_at=timezone.now() - timedelta(days=days_ago))
    return Case.objects.get(pk=case.pk)


def test_the_reason_goes_after_the_run_off_and_the_note_stays(conversation, staff_user):
    case = resolved_case(conversation, staff_user, days_ago=31)  # case_days: 30
    assert services.case_copies_purge_expired(now=timezone.now()) == 1
    case = Case.objects.get(pk=case.pk)
    assert (case.reason, case.core, case.contact, case.conversation_id) == ("", {}, [], None)
    assert case.note == "Resent the parcel."


def test_a_case_within_its_run_off_keeps_its_reason(conversation, staff_user):
    case = resolved_case(conversation, staff_user, days_ago=29)
    assert case.reason, "the reason as stored (redacted)"
    assert services.case_copies_purge_expired(now=timezone.now()) == 0
    assert Case.objects.get(pk=case.pk).reason == case.reason


@pytest.mark.parametrize("target", ["transcript", "contact:0"])
def test_reveal_of_an_expired_case_says_so_and_writes_no_audit_event(
    client, conversation, staff_user, owner_user, target
):
    case = resolved_case(conversation, staff_user, days_ago=31)  # not purged yet
    client.force_login(owner_user)
    response = client.post(
        reverse("admin:handover_case_reveal", args=[case.pk]),
        {"target": target, "reason": "customer asked for a copy"},
        follow=True,
    )  # back to the case page, with the message
    html = response.content.decode()
    assert "This case has expired" in html
    assert "anna@example.com" not in html and "KU-2291-M" not in html
    assert not AuditEvent.objects.exists(), "nothing shown, nothing audited"


def test_reveal_within_the_run_off_still_works(client, conversation, staff_user, owner_user):
    case = resolved_case(conversation, staff_user, days_ago=5)
    client.force_login(owner_user)
    response = client.post(
        reverse("admin:handover_case_reveal", args=[case.pk]),
        {"target": "transcript", "reason": "customer asked for a copy"},
    )
    assert "anna@example.com" in response.content.decode()
    assert AuditEvent.objects.count() == 1
