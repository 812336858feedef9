"""Shop platform fixtures: contract fakes on 127.0.0.1 and the stubbed network (nothing
leaves 127.0.0.0/8 even when the code under test is broken)."""

import pytest

from tests.egress_stubs import egress_net  # noqa: F401
from tests.shop.platforms import shopware_fake, woocommerce_fake
from tests.shop.platforms.shopify_fake import SECRET, TOKEN, FakeShopify
from tests.shop.platforms.shopware_fake import FakeShopware
from tests.shop.platforms.woocommerce_fake import FakeWooCommerce


@pytest.fixture(autouse=True)
def _network(egress_net):  # noqa: F811
    yield
    assert egress_net.outside() == []


@pytest.fixture
def shopify(monkeypatch):
    fake = FakeShopify(products=60)
    monkeypatch.setenv("SHOPIFY_TOKEN", TOKEN)
    monkeypatch.setenv("SHOPIFY_SECRET", SECRET)
    yield fake
    fake.close()


@pytest.fixture
def no_waiting(monkeypatch):
    """Waits the platform asks for are recorded, not slept."""
    waits: list[float] = []
    monkeypatch.setattr("chatwidget.shop.platforms.http.time.sleep", waits.append)
    return waits


@pytest.fixture
def woo(monkeypatch):
    fake = FakeWooCommerce(products=150)
    monkeypatch.setenv("WOO_KEY", woocommerce_fake.KEY)
    monkeypatch.setenv("WOO_SECRET", woocommerce_fake.SECRET)
    yield fake
    fake.close()


@pytest.fixture
def shopware(monkeypatch):
    fake = FakeShopware(products=130)
    monkeypatch.setenv("SW_CLIENT_ID", shopware_fake.CLIENT_ID)
    monkeypatch.setenv("SW_CLIENT_SECRET", shopware_fake.CLIENT_SECRET)
    yield fake
    fake.close()
