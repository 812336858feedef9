"""The interface every shop platform implements, and the data it returns.

Platforms return plain data (never their API's shapes) so the sync, the order action and the
webhook endpoint do not know which platform they talk to. Every request goes through the
egress guard (chatwidget.shop.platforms.http).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Variant:
    id: str
    title: str = ""
    sku: str = ""
    gtin: str = ""
    price: str = ""  # as the shop writes it, e.g. "19.90"
    currency: str = ""
    stock: int | None = None  # None: the shop does not track it
    available: bool = True


@dataclass(frozen=True)
class Translation:
    """A product's title and description in one of the shop's other languages (the
    platform's own code: Shopify's "fr", Shopware's "fr-FR"). Identifiers, variants, prices
    and stock are the default language's."""

    language: str
    title: str = ""
    description: str = ""  # HTML or text


@dataclass(frozen=True)
class Product:
    id: str
    title: str
    handle: str = ""  # Shopify's handle, WooCommerce's slug, Shopware's product number
    description: str = ""  # HTML or text
    url: str = ""
    vendor: str = ""
    kind: str = ""  # product type or categories
    tags: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = ()
    translations: tuple[Translation, ...] = ()  # only the languages the shop translated


@dataclass(frozen=True)
class ContentPage:
    id: str
    title: str
    text: str  # HTML or text
    url: str = ""


@dataclass(frozen=True)
class Order:
    """What an order lookup may use. `email` is the second factor the visitor's must equal;
    the answer the model sees is `public()`: no address, no payment."""

    number: str
    email: str
    status: str
    items: tuple[dict, ...] = ()  # {"title", "quantity", "sku"}
    tracking: tuple[dict, ...] = ()  # {"company", "number", "url"}
    placed_at: str = ""

    def answer(self) -> dict:
        return {
            "order_number": self.number,
            "email": self.email,
            "status": self.status,
            "placed_at": self.placed_at,
            "items": list(self.items),
            "tracking": list(self.tracking),
        }


T = TypeVar("T")


@dataclass(frozen=True)
class Batch(Generic[T]):
    """One page of a listing; `cursor` continues it (None: this was the last page)."""

    items: list[T] = field(default_factory=list)
    cursor: str | None = None


class PlatformError(Exception):
    """A request the platform did not answer as it should; `code` says which kind."""

    URL = "url"
    CREDENTIAL = "credential"
    UNSET = "unset"
    SCOPE = "scope"
    THROTTLED = "throttled"
    NETWORK = "network"
    MALFORMED = "malformed"

    MESSAGES = {
        URL: _("The shop URL does not answer as a %(platform)s API (check the address)."),
        CREDENTIAL: _("The shop refused the credentials (wrong or expired: %(names)s)."),
        UNSET: _("%(detail)s is not set in this server's environment."),
        SCOPE: _("The credentials lack a permission the assistant needs (%(detail)s)."),
        THROTTLED: _("The shop is limiting requests (429); try again in a minute."),
        NETWORK: _("The shop could not be reached (%(detail)s)."),
        MALFORMED: _("The shop's answer could not be read (%(detail)s)."),
    }

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail

    def explain(self, *, platform: str, names: str) -> str:
        """A sentence for the person who connects the shop (never a credential's value)."""
        return str(self.MESSAGES[self.code]) % {
            "platform": platform,
            "names": names,
            "detail": self.detail,
        }


class Platform(Protocol):
    """One shop. Listings are paged by an opaque cursor (None for the first page)."""

    @property
    def requests(self) -> int:
        """How many HTTP requests this instance made."""
        ...

    def check(self) -> None:
        """Raise PlatformError when the URL, the credentials or a needed scope is wrong."""

    def products(self, cursor: str | None) -> Batch[Product]:
        """A page of products, each with its translations into the shop's other languages."""
        ...

    def products_by_ids(self, ids: list[str]) -> list[Product]:
        """The products of these ids that exist now (a missing one was deleted)."""
        ...

    def pages(self, cursor: str | None) -> Batch[ContentPage]: ...

    def order(self, number: str) -> Order | None: ...

    def webhook_verify(self, *, body: bytes, headers: Mapping[str, str]) -> bool:
        """Whether the raw body carries the platform's signature (False without a secret)."""
        ...

    def webhook_product_id(self, body: bytes) -> str | None:
        """The product a verified webhook is about (None: a ping or another topic)."""
        ...
