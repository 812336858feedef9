"""What an Owner's action may send, and where (issue 25): environment variables only from
the operator's allow-list and never the platform's own secrets, no typed-in keys in any
header, no argument in the host, path arguments that cannot change the path, and the egress
guard in front of every request (a stubbed resolver maps names inward; the fake shop listens
on 127.0.0.1)."""

import logging

import pytest
from django.core.exceptions import ValidationError

from chatwidget.shop.actions.http import action_request
from chatwidget.shop.models.actions import Action, ActionCall
from tests.shop.shopapi import FakeShop

Outcome = ActionCall.Outcome
SCHEMA = {
    "type": "object",
    "properties": {"order_number": {"type": "string"}, "host": {"type": "string"}},
}


@pytest.fixture
def shop(monkeypatch):
    server = FakeShop().start()
    monkeypatch.setenv("TEST_SHOP_API_KEY", "shop-key-4711")
    monkeypatch.setenv("SECRET_KEY", "the-django-secret-key")
    monkeypatch.setenv("DATABASE_URL", "postgres://app:hunter2@db/app")
    yield server
    server.stop()


def config(url: str, headers: dict | None = None) -> dict:
    return {"method": "GET", "url": url, "headers": headers or {}, "timeout": 2.0}


def action(site, **changes) -> Action:
    fields = {
        "site": site,
        "name": "order_status",
        "description": "An order's status.",
        "parameters": SCHEMA,
        "url_template": "https://shop.example.com/api/orders/{order_number}",
        "headers": {"X-Api-Key": "{env:TEST_SHOP_API_KEY}"},
        "customer_data": False,  # the second factor is tested in test_action_protect.py
    }
    return Action(**{**fields, **changes})


def refused(site, field: str, **changes) -> str:
    with pytest.raises(ValidationError) as error:
        action(site, **changes).full_clean()
    return " ".join(error.value.message_dict[field])


@pytest.mark.django_db
def test_a_variable_outside_the_operators_list_is_refused_on_save(site, settings):
    action(site).full_clean()  # listed: fine
    message = refused(site, "headers", headers={"X-Api-Key": "{env:SHOP_OTHER_KEY}"})
    assert "SHOP_OTHER_KEY" in message and "SHOP_ACTION_ENV_ALLOW" in message
    message = refused(
        site, "url_template", url_template="https://shop.example.com/o?key={env:UNLISTED}"
    )
    assert "UNLISTED" in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["SECRET_KEY", "DATABASE_URL", "OPENAI_API_KEY", "EMAIL_URL", "REDIS_URL"]
)
def test_the_platforms_own_secrets_are_refused_even_when_listed(site, settings, name):
    settings.SHOP_ACTION_ENV_ALLOW = [*settings.SHOP_ACTION_ENV_ALLOW, name]
    message = refused(site, "headers", headers={"X-Api-Key": f"{{env:{name}}}"})
    assert "server's own secrets" in message


@pytest.mark.django_db
def test_a_literal_key_in_any_header_is_refused(site):
    for headers in (
        {"X-Shop-Key": "3f9a2c1e8b7d4f60a1b2c3d4e5f60718"},
        {"X-Client": "sk_live_51HqLyjWDarjtT1zdp7dc"},
        {"Accept": "application/json", "X-Store": "AbCdEf0123456789XyZ"},
        {"X-Shop-Key": "plainpassword"},  # named like a credential: a variable only
    ):
        assert "secret" in refused(site, "headers", headers=headers), headers
    action(  # ordinary values stay
        site,
        headers={
            "Accept": "application/json",
            "User-Agent": "MyShop-Client/2.1.0",
            "X-Store-Id": "12345",
            "Authorization": "Bearer {env:TEST_SHOP_API_KEY}",
        },
    ).full_clean()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "https://{host}/api/orders/{order_number}",
        "https://{host}.example.com/api/orders",
        "https://shop.example.com:{order_number}/api",
    ],
)
def test_no_argument_before_the_path(site, url):
    assert refused(site, "url_template", url_template=url)


@pytest.mark.django_db
def test_an_inward_host_is_refused_on_save_unless_the_operator_allows_it(site, settings):
    settings.EGRESS_ALLOW_HOSTS = []
    assert "loopback" in refused(site, "url_template", url_template="http://127.0.0.1:8001/x")
    assert "metadata" in refused(
        site, "url_template", url_template="http://169.254.169.254/latest/meta-data/"
    )
    settings.EGRESS_ALLOW_HOSTS = ["127.0.0.1:8001"]
    action(site, url_template="http://127.0.0.1:8001/api/orders/{order_number}").full_clean()


@pytest.mark.asyncio
async def test_a_denied_variable_is_not_sent_at_call_time(shop, settings):
    """A row saved before the rule (or a list shortened since): no request at all."""
    settings.SHOP_ACTION_ENV_ALLOW = ["SECRET_KEY", "TEST_SHOP_API_KEY"]
    for headers, url in (
        ({"X-Api-Key": "{env:SECRET_KEY}"}, shop.url + "/orders/10452"),
        ({}, shop.url + "/orders/10452?dsn={env:DATABASE_URL}"),
        ({"X-Api-Key": "{env:NOT_LISTED}"}, shop.url + "/orders/10452"),
    ):
        result = await action_request(config=config(url, headers), arguments={})
        assert result.outcome == Outcome.NOT_CONFIGURED
    assert shop.requests == [], "nothing reached the shop"


@pytest.mark.asyncio
async def test_an_argument_in_the_host_is_refused_at_call_time(shop, egress_net):
    result = await action_request(
        config=config("http://{host}:" + shop.url.rsplit(":", 1)[1] + "/orders/10452"),
        arguments={"host": "127.0.0.1"},
    )
    assert result.outcome == Outcome.NOT_CONFIGURED
    assert shop.requests == [] and egress_net.connects == []


@pytest.mark.asyncio
async def test_a_path_argument_cannot_change_the_path(shop):
    for value in ("..", "../admin", "10452?all=1#x", "a/b"):
        await action_request(
            config=config(shop.url + "/orders/{order_number}"), arguments={"order_number": value}
        )
    assert [r["path"] for r in shop.requests] == [
        "/orders/%2E%2E",  # not resolved to "/" by the HTTP client
        "/orders/%2E%2E%2Fadmin",
        "/orders/10452%3Fall%3D1%23x",
        "/orders/a%2Fb",
    ]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("name", "address"),
    [("metadata.test", "169.254.169.254"), ("internal.test", "10.0.0.1"), ("six.test", "::1")],
)
async def test_an_action_whose_host_resolves_inward_is_not_made(egress_net, caplog, name, address):
    egress_net.names[name] = [address]
    caplog.set_level(logging.WARNING)
    result = await action_request(
        config=config(f"http://{name}:8080/orders/{{order_number}}"),
        arguments={"order_number": "10452"},
    )
    assert result.outcome == Outcome.NETWORK
    assert egress_net.connects == [], "no connection was even tried"
    assert "egress guard" in caplog.text


@pytest.mark.asyncio
async def test_the_shop_on_loopback_needs_the_operators_allowance(shop, settings, egress_net):
    settings.EGRESS_ALLOW_HOSTS = []
    result = await action_request(
        config=config(shop.url + "/orders/10452?postcode=10115"), arguments={}
    )
    assert result.outcome == Outcome.NOT_CONFIGURED and shop.requests == []
    settings.EGRESS_ALLOW_HOSTS = ["127.0.0.1"]
    result = await action_request(
        config=config(shop.url + "/orders/10452?postcode=10115"), arguments={}
    )
    assert result.outcome == Outcome.OK
