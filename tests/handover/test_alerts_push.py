"""Web Push alerts (issue 32) against a push service stand-in on 127.0.0.1: the request is
signed with the server's VAPID key for the stand-in's origin, the payload decrypts with the
browser's key and holds no conversation text, a 410 removes the subscription, and the
subscription endpoint takes only staff, with the CSRF token, and no private address."""

import json

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from chatwidget.sites.services import site_create
from handover import services
from handover.models import AlertPreference, PushSubscription, StaffAlert
from handover.services.webpush import vapid_keys_generate
from tests.factories import OPEN_TIME, ConversationFactory, UserFactory
from tests.handover.pushservice import Browser, push_service_start

pytestmark = pytest.mark.django_db

PRIVATE_WORDS = ("mint kurta", "KU-2291-M", "anna@example.com", "1234567", "size L")


@pytest.fixture
def eager_celery():
    from chatwidget.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def vapid(settings):
    public, private = vapid_keys_generate()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_SUBJECT = "mailto:ops@shop.test"
    return public


@pytest.fixture
def push_service():
    service = push_service_start()
    yield service
    service.server.shutdown()


def _subscribe(user, service, name="phone"):
    browser = Browser.new()
    sub = PushSubscription.objects.create(
        user=user,
        endpoint=f"{service.origin}/push/{name}",
        p256dh=browser.p256dh,
        auth=browser.auth_b64,
        device=name,
    )
    return browser, sub


def test_a_waiting_case_is_pushed_signed_and_encrypted_without_message_text(
    conversation, staff_user, vapid, push_service, eager_celery, django_capture_on_commit_callbacks
):
    AlertPreference.objects.create(user=staff_user, by_push=True, language="de")
    phone, _ = _subscribe(staff_user, push_service, "phone")
    laptop, _ = _subscribe(staff_user, push_service, "laptop")
    with django_capture_on_commit_callbacks(execute=True):
        case = services.handover_request(
            conversation_id=conversation.pk, trigger="visitor", reason="size L", now=OPEN_TIME
        )
    assert sorted(r.path for r in push_service.received) == ["/push/laptop", "/push/phone"]
    for got, browser in zip(
        sorted(push_service.received, key=lambda r: r.path), (laptop, phone), strict=True
    ):
        assert got.vapid_ok, "the JWT verifies with the public key, audience = the origin"
        assert got.vapid_key == vapid
        assert got.claims["sub"] == "mailto:ops@shop.test"
        assert got.headers["content-encoding"] == "aes128gcm"
        assert int(got.headers["ttl"]) > 0
        for word in PRIVATE_WORDS:
            assert word.encode() not in got.body
        payload = browser.decrypt(got.body)
        assert set(payload) == {"kind", "case", "site", "title", "body", "url"}
        assert payload["kind"] == "new_case" and payload["case"] == case.pk
        assert payload["site"] == "Test shop"
        assert payload["url"] == f"/admin/handover/case/{case.pk}/change/"
        assert (
            payload["title"] == "Eine besuchende Person wartet auf einen Menschen"
        )  # German, as chosen
        text = json.dumps(payload, ensure_ascii=False)
        for word in PRIVATE_WORDS:
            assert word not in text
    alert = StaffAlert.objects.get(user=staff_user, case=case)
    assert alert.pushed_at is not None


def test_a_gone_subscription_is_removed_and_the_others_still_get_it(
    conversation, staff_user, vapid, push_service, eager_celery, django_capture_on_commit_callbacks
):
    AlertPreference.objects.create(user=staff_user, by_push=True)
    _subscribe(staff_user, push_service, "old")
    _subscribe(staff_user, push_service, "new")
    push_service.answers["/push/old"] = 410
    with django_capture_on_commit_callbacks(execute=True):
        services.handover_request(conversation_id=conversation.pk, trigger="visitor", now=OPEN_TIME)
    assert len(push_service.received) == 2
    assert list(PushSubscription.objects.values_list("device", flat=True)) == ["new"]
    assert PushSubscription.objects.get().last_sent_at is not None


def test_no_push_to_a_user_without_rights_to_the_site(
    vapid, push_service, eager_celery, django_capture_on_commit_callbacks
):
    kurta = site_create(name="Kurta shop", origins=["http://shop.test"])
    tea = site_create(name="Tea shop", origins=["http://shop.test"])
    limited = UserFactory(username="lena", role="Staff")
    limited.groups.add(Group.objects.get_or_create(name=f"site:{kurta.key}")[0])
    AlertPreference.objects.create(user=limited, by_push=True)
    _subscribe(limited, push_service)
    conv = ConversationFactory(site=tea, texts=["A question about green tea."])
    with django_capture_on_commit_callbacks(execute=True):
        services.handover_request(conversation_id=conv.pk, trigger="visitor", now=OPEN_TIME)
    assert push_service.received == []
    assert not StaffAlert.objects.exists()


def _subscription_json(browser, endpoint):
    return json.dumps(
        {
            "endpoint": endpoint,
            "keys": {"p256dh": browser.p256dh, "auth": browser.auth_b64},
            "device": "Firefox, Android",
        }
    )


def test_the_subscription_endpoint_takes_staff_with_csrf_only(staff_user, outsider, vapid):
    url = reverse("admin:handover_alert_push")
    body = _subscription_json(Browser.new(), "https://push.example.net/wpush/v2/abc")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(staff_user)
    assert strict.post(url, body, content_type="application/json").status_code == 403
    strict.get(reverse("admin:handover_alertpreference_changelist"))  # sets the CSRF cookie
    token = strict.cookies["csrftoken"].value
    response = strict.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200, response.content
    sub = PushSubscription.objects.get()
    assert sub.user == staff_user and sub.device == "Firefox, Android"
    anonymous = Client()
    assert anonymous.post(url, body, content_type="application/json").status_code == 302
    nobody = Client()
    nobody.force_login(UserFactory(username="visitor", is_staff=False))
    assert nobody.post(url, body, content_type="application/json").status_code == 302
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.net/wpush/abc",  # not https
        "https://10.0.0.5/wpush/abc",  # a private address
        "https://169.254.169.254/latest/meta-data",  # cloud metadata
        "https://localhost/wpush/abc",
    ],
)
def test_a_push_endpoint_on_a_private_address_or_over_http_is_refused(
    client, staff_user, vapid, settings, endpoint, egress_net
):
    settings.EGRESS_ALLOW_HOSTS = []  # as in production
    client.force_login(staff_user)
    response = client.post(
        reverse("admin:handover_alert_push"),
        _subscription_json(Browser.new(), endpoint),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert not PushSubscription.objects.exists()
    assert egress_net.outside() == [], "nothing was even tried outside 127.0.0.0/8"


def test_the_service_worker_is_served_for_the_admin_scope(client):
    response = client.get(reverse("handover:service-worker"))
    assert response.status_code == 200
    assert response["Service-Worker-Allowed"] == "/admin/"
    assert b"showNotification" in response.content and b"openWindow" in response.content


def test_the_vapid_keys_command_prints_a_working_pair(capsys):
    from django.core.management import call_command
    from py_vapid import Vapid

    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines() if "=" in line)
    signer = Vapid.from_string(lines["VAPID_PRIVATE_KEY"])
    headers = signer.sign({"sub": "mailto:ops@shop.test", "aud": "https://push.example.net"})
    assert lines["VAPID_PUBLIC_KEY"] in headers["Authorization"]
    assert Vapid.verify(headers["Authorization"])


def test_an_unreachable_push_service_is_logged_and_the_other_devices_still_get_it(
    conversation, staff_user, vapid, push_service, eager_celery, django_capture_on_commit_callbacks
):
    from tests.procs import free_port

    AlertPreference.objects.create(user=staff_user, by_push=True)
    PushSubscription.objects.create(
        user=staff_user,
        endpoint=f"http://127.0.0.1:{free_port()}/push/off",  # nothing listens
        p256dh=Browser.new().p256dh,
        auth=Browser.new().auth_b64,
    )
    _subscribe(staff_user, push_service, "phone")
    with django_capture_on_commit_callbacks(execute=True):
        services.handover_request(conversation_id=conversation.pk, trigger="visitor", now=OPEN_TIME)
    assert [r.path for r in push_service.received] == ["/push/phone"]
    assert PushSubscription.objects.count() == 2, "unreachable is not gone: the row stays"
