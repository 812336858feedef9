"""What cases mean for retention: every transition records the transcript hold on the
conversation (memory decides expiry from it, never from handover's tables), and a case's raw
copies are cleared once its run-off is over (handover.services.retention)."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from chatwidget.purge import retention_purge_all
from handover import services
from handover.models import Case
from memory.models import Conversation
from tests.factories import OPEN_TIME

pytestmark = pytest.mark.django_db


def hold(conversation):
    conv = Conversation.objects.get(pk=conversation.pk)
    return conv.case_hold, conv.case_resolved_at


def test_open_cases_hold_the_transcript_and_resolution_starts_the_run_off(conversation, staff_user):
    assert hold(conversation) == (False, None)
    case = services.handover_request(
        conversation_id=conversation.pk, trigger="visitor", now=OPEN_TIME
    )
    assert hold(conversation) == (True, None)
    services.case_claim(case_id=case.pk, user=staff_user)
    assert hold(conversation) == (True, None), "claiming changes nothing: still open"
    case = services.case_resolve(case_id=case.pk, user=staff_user, note="Sent the size chart.")
    assert hold(conversation) == (False, case.resolved_at)


def test_release_ends_the_hold_without_a_run_off(conversation, staff_user):
    case = services.handover_request(
        conversation_id=conversation.pk, trigger="visitor", now=OPEN_TIME
    )
    services.case_release(case_id=case.pk, user=staff_user)
    assert hold(conversation) == (False, None)


def test_take_over_holds_the_transcript(conversation, staff_user):
    services.conversation_take_over(conversation_id=conversation.pk, user=staff_user)
    assert hold(conversation) == (True, None)


def test_case_copies_go_after_the_run_off_and_the_note_stays(conversation, staff_user):
    case = services.handover_request(
        conversation_id=conversation.pk, trigger="visitor", now=OPEN_TIME
    )
    services.case_claim(case_id=case.pk, user=staff_user)
    services.case_resolve(case_id=case.pk, user=staff_user, note="Sent the size chart.")
    assert Case.objects.get(pk=case.pk).contact, "the case holds the visitor's contact"
    now = timezone.now()
    assert services.case_copies_purge_expired(now=now + timedelta(days=1)) == 0, "run-off"
    # the visitor chatted on long after the case: the conversation itself is live
    later = now + timedelta(days=400)
    Conversation.objects.filter(pk=conversation.pk).update(last_activity_at=later)
    assert services.case_copies_purge_expired(now=later) == 1
    case = Case.objects.get(pk=case.pk)
    assert (case.core, case.contact, case.conversation_id) == ({}, [], None)
    assert case.note == "Sent the size chart." and case.transcript_purged_at is not None
    counts = retention_purge_all(now=later)
    assert (counts.cases, counts.conversations, counts.finished) == (0, 0, True), "once"
    assert Conversation.objects.filter(pk=conversation.pk).exists()


def test_purge_command_is_chatwidgets_and_prints_the_counts(capsys):
    call_command("purge_expired")
    out = capsys.readouterr().out
    assert "cases: 0" in out and "done" in out


def test_the_reason_goes_at_the_run_off_when_the_conversation_purge_runs_first(
    conversation, staff_user
):
    """The normal order (issue 25): the conversation expires with the run-off, memory's purge
    removes it first (its receiver marks the case), and the case's reason, the visitor's or
    the model's words, must still go; the staff's note stays."""
    case = services.handover_request(
        conversation_id=conversation.pk,
        trigger="visitor",
        reason="My IBAN DE89 3704 0044 0532 0130 00 was charged twice",
        now=OPEN_TIME,
    )
    services.case_claim(case_id=case.pk, user=staff_user)
    services.case_resolve(case_id=case.pk, user=staff_user, note="Refunded.")
    later = timezone.now() + timedelta(days=400)
    counts = retention_purge_all(now=later)
    assert counts.conversations == 1, "the conversation went first, in memory's part"
    case = Case.objects.get(pk=case.pk)
    assert case.reason == ""
    assert (case.core, case.contact, case.conversation_id) == ({}, [], None)
    assert case.note == "Refunded." and case.transcript_purged_at is not None
    again = retention_purge_all(now=later + timedelta(days=1))
    assert again.cases == 0, "a cleared case is not counted again"
