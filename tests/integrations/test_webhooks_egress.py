"""Webhooks through the egress guard (issue 25): a receiver whose name resolves to the
metadata service or the private network is never contacted (the stubbed resolver maps the
names; no connection is even tried), a receiver on loopback only when the operator allows
it, and the Owner hears of an inward receiver when saving it. (Redirects are not followed,
as before; tests/platform/test_egress.py checks the guard's redirects.)"""

import pytest
from django.core.exceptions import ValidationError

from chatwidget.integrations.delivery import Attempt, webhook_attempt
from chatwidget.integrations.models import Webhook, WebhookDelivery, WebhookEvent

pytestmark = pytest.mark.django_db


def delivery(site, url: str) -> WebhookDelivery:
    hook = Webhook.objects.create(site=site, url=url, events=[WebhookEvent.CONVERSATION_STARTED])
    return WebhookDelivery.objects.create(
        hook=hook, event=WebhookEvent.CONVERSATION_STARTED, body='{"id": "x"}'
    )


@pytest.mark.parametrize(
    ("name", "address"),
    [("metadata.test", "169.254.169.254"), ("internal.test", "10.0.0.1"), ("six.test", "::1")],
)
def test_a_receiver_resolving_inward_is_never_contacted(site, egress_net, name, address):
    egress_net.names[name] = [address]
    row = delivery(site, f"http://{name}:8080/hook")
    assert webhook_attempt(delivery_id=str(row.pk), last=True) == Attempt.FAILED
    row.refresh_from_db()
    assert row.error.startswith("refused:") and address in row.error
    assert egress_net.connects == [], "not one connection tried"


def test_a_receiver_on_loopback_needs_the_operators_allowance(site, http_server, settings):
    settings.EGRESS_ALLOW_HOSTS = []
    row = delivery(site, http_server.url("/hook"))
    webhook_attempt(delivery_id=str(row.pk), last=True)
    row.refresh_from_db()
    assert row.error.startswith("refused:") and http_server.paths == []


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9000/hook", "http://169.254.169.254/", "http://10.0.0.7/hook"]
)
def test_an_inward_receiver_is_refused_on_save(site, settings, url):
    settings.EGRESS_ALLOW_HOSTS = []
    with pytest.raises(ValidationError) as error:
        Webhook(site=site, url=url, events=[]).full_clean()
    assert "url" in error.value.message_dict
