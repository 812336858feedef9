"""E-mail alerts (issue 32): several alerts to one user within the delay come in one e-mail
(the first event's task, queued ALERT_EMAIL_DELAY_SECONDS later, takes them all; the later
tasks find nothing left), each user gets only the events and sites they chose and may see,
"a visitor wrote" goes to the case's assignee, a due call back alerts once, and the single
HANDOVER_NOTIFY_EMAIL is told only when no user is."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core import mail

from chatwidget.sites.services import site_create
from handover import services
from handover.models import AlertPreference, StaffAlert
from handover.services.alerts import alert_dispatch, alert_promises_due
from memory.models import TurnRole
from memory.services import turn_append
from tests.factories import CLOSED_TIME, OPEN_TIME, ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db

PRIVATE_WORDS = ("mint kurta", "KU-2291-M", "anna@example.com", "1234567", "green tea")


@pytest.fixture
def queued(monkeypatch):
    """The alert e-mail tasks as the broker would get them: (user id, countdown)."""
    from handover import tasks

    calls: list[tuple[tuple, float | None]] = []

    def apply_async(args=(), countdown=None, **kwargs):
        calls.append((tuple(args), countdown))

    monkeypatch.setattr(tasks.alert_email, "apply_async", apply_async)
    return calls


def _run_email_tasks(queued):
    from handover.tasks import alert_email

    for args, _countdown in queued:
        alert_email.apply(args=args).get()


def _case(site, text="A question about my order."):
    conv = ConversationFactory(site=site, texts=[text])
    return services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)


def test_several_alerts_within_the_delay_come_in_one_email(
    site, staff_user, settings, queued, django_capture_on_commit_callbacks
):
    settings.PUBLIC_URL = "https://chat.shop.test"
    settings.ALERT_EMAIL_DELAY_SECONDS = 180
    AlertPreference.objects.create(user=staff_user, by_email=True)
    cases = [_case(site, t) for t in ("The mint kurta KU-2291-M?", "anna@example.com", "Tea?")]
    with django_capture_on_commit_callbacks(execute=True):
        for case in cases:
            alert_dispatch(case_id=case.pk, kind="new_case")
    assert [c for _args, c in queued] == [180, 180, 180], "each waits for the batch"
    assert mail.outbox == []
    _run_email_tasks(queued)
    assert len(mail.outbox) == 1, "three alerts, one e-mail"
    message = mail.outbox[0]
    assert message.to == ["sam@shop.test"]
    assert message.subject == "3 chat alerts"
    for case in cases:
        assert f"https://chat.shop.test/admin/handover/case/{case.pk}/change/" in message.body
    for word in PRIVATE_WORDS:
        assert word not in message.body + message.subject
    assert not StaffAlert.objects.filter(emailed_at__isnull=True).exists()
    # a later alert starts a new batch
    queued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        alert_dispatch(case_id=_case(site).pk, kind="new_case")
    _run_email_tasks(queued)
    assert len(mail.outbox) == 2 and mail.outbox[1].subject == "1 chat alert"


def test_the_email_is_in_the_users_language(site, staff_user, queued):
    AlertPreference.objects.create(user=staff_user, by_email=True, language="de")
    alert_dispatch(case_id=_case(site).pk, kind="new_case")
    from handover.tasks import alert_email

    alert_email.apply(args=[staff_user.pk]).get()
    assert mail.outbox[0].subject == "1 Chat-Benachrichtigung"


def test_each_user_gets_only_the_sites_and_events_they_chose_and_may_see(queued):
    kurta = site_create(name="Kurta shop", origins=["http://shop.test"])
    tea = site_create(name="Tea shop", origins=["http://shop.test"])
    limited = UserFactory(username="lena", role="Staff")
    limited.groups.add(Group.objects.get_or_create(name=f"site:{kurta.key}")[0])
    AlertPreference.objects.create(user=limited, by_email=True)
    picky = UserFactory(username="pia", role="Staff")
    AlertPreference.objects.create(user=picky, by_email=True).sites.add(tea)
    quiet = UserFactory(username="quinn", role="Staff")
    AlertPreference.objects.create(user=quiet, by_email=True, new_case=False)
    no_role = UserFactory(username="otto")  # logged into admin, in neither role
    AlertPreference.objects.create(user=no_role, by_email=True)
    everyone = UserFactory(username="eve", role="Owner")
    AlertPreference.objects.create(user=everyone, by_email=True)

    tea_case = _case(tea)
    kurta_case = _case(kurta)
    told = {
        case.pk: sorted(a.user.username for a in alert_dispatch(case_id=case.pk, kind="new_case"))
        for case in (tea_case, kurta_case)
    }
    assert told[tea_case.pk] == ["eve", "pia"], "lena has no right to the tea shop"
    assert told[kurta_case.pk] == ["eve", "lena"], "pia chose the tea shop only"


def test_a_visitor_reply_alerts_the_assignee_only_once_within_the_interval(
    site, staff_user, owner_user, settings, queued, django_capture_on_commit_callbacks
):
    AlertPreference.objects.create(user=staff_user, by_email=True)
    AlertPreference.objects.create(user=owner_user, by_email=True)
    case = _case(site)
    services.case_claim(case_id=case.pk, user=staff_user)
    for text in ("Are you there?", "Hello?"):
        turn = turn_append(
            conversation_id=case.conversation_id, role=TurnRole.VISITOR, text=text, client_id=text
        ).turn
        with django_capture_on_commit_callbacks(execute=False) as pending:
            services.handover_visitor_message(conversation_id=case.conversation_id, seq=turn.seq)
        assert pending, "the visitor's message starts the alert after commit"
        alert_dispatch(case_id=case.pk, kind="visitor_replied")
    alerts = StaffAlert.objects.filter(case=case, kind="visitor_replied")
    assert [a.user for a in alerts] == [staff_user], "once, and not to the colleague"
    # unassigned again (a new case): everyone who chose it hears of it
    other = _case(site)
    made = alert_dispatch(case_id=other.pk, kind="visitor_replied")
    assert sorted(a.user.username for a in made) == ["olga", "sam"]


def test_a_promised_call_back_alerts_once_when_the_hours_begin(site, staff_user, queued):
    AlertPreference.objects.create(user=staff_user, by_email=True)
    conv = ConversationFactory(site=site, texts=["Call me at +49 30 1234567."])
    case = services.handover_request(conversation_id=conv.pk, trigger="visitor", now=CLOSED_TIME)
    assert case.callback_requested
    assert alert_promises_due(now=CLOSED_TIME + timedelta(minutes=5)) == 0, "still closed"
    assert alert_promises_due(now=OPEN_TIME + timedelta(days=7)) == 1
    assert alert_promises_due(now=OPEN_TIME + timedelta(days=7, minutes=5)) == 0, "once"
    assert StaffAlert.objects.get(case=case, kind="promise_due").user == staff_user


def test_the_single_notify_address_is_the_fallback(
    site, staff_user, settings, queued, django_capture_on_commit_callbacks
):
    from handover.tasks import case_notify

    settings.HANDOVER_NOTIFY_EMAIL = "team@shop.test"
    case = _case(site)
    assert case_notify.apply(args=[case.pk]).get() is True, "nobody chose alerts: the address"
    AlertPreference.objects.create(user=staff_user, by_email=True)
    assert case_notify.apply(args=[_case(site).pk]).get() is False, "sam is told instead"
    assert [m.to for m in mail.outbox] == [["team@shop.test"]]
