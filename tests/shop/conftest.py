"""The shop-action tests' fake shop API (tests/shop/shopapi.py) and a model that obeys the
tool messages it is sent; the egress tests' stubbed network and HTTP server on 127.0.0.1."""

import pytest

from tests.egress_stubs import egress_net, http_server  # noqa: F401
from tests.fakellm import FakeLLM
from tests.shop.shopapi import ENV, SECRET, FakeShop, obeying_model


@pytest.fixture(scope="module")
def shop_server():
    server = FakeShop().start()
    yield server
    server.stop()


@pytest.fixture
def shop(shop_server, monkeypatch):
    shop_server.requests.clear()
    shop_server.slow_seconds = 2.0
    monkeypatch.setenv(ENV, SECRET)
    return shop_server


@pytest.fixture
def obeying(fake_llm):
    fake_llm.default = obeying_model
    yield fake_llm
    fake_llm.default = FakeLLM().default
