"""A connection's platform client, with its credentials read from the environment at each
use (the connection stores only the variables' names)."""

from __future__ import annotations

import os
from typing import Any

from chatwidget.shop.models.connections import Connection
from chatwidget.shop.platforms.base import Platform, PlatformError
from chatwidget.shop.platforms.shopify import Shopify
from chatwidget.shop.platforms.shopware import Shopware
from chatwidget.shop.platforms.woocommerce import WooCommerce

# Which variables each platform needs (the command's options).
NEEDED_ENV = {
    Connection.Platform.SHOPIFY: ("token_env",),
    Connection.Platform.WOOCOMMERCE: ("key_env", "secret_env"),
    Connection.Platform.SHOPWARE: ("key_env", "secret_env"),
}


def env_value(name: str) -> str:
    value = os.environ.get(name, "") if name else ""
    if not value:
        raise PlatformError(PlatformError.UNSET, name or "?")
    return value


def platform_build(
    *,
    platform: str,
    base_url: str,
    token_env: str = "",
    key_env: str = "",
    secret_env: str = "",
    **session: Any,
) -> Platform:
    """A client for these settings; raises PlatformError when a variable is not set."""
    if platform == Connection.Platform.SHOPIFY:
        secret = os.environ.get(secret_env, "") if secret_env else ""
        return Shopify(base_url=base_url, token=env_value(token_env), secret=secret, **session)
    if platform == Connection.Platform.WOOCOMMERCE:
        return WooCommerce(
            base_url=base_url, key=env_value(key_env), secret=env_value(secret_env), **session
        )
    if platform == Connection.Platform.SHOPWARE:
        return Shopware(
            base_url=base_url,
            client_id=env_value(key_env),
            client_secret=env_value(secret_env),
            **session,
        )
    raise PlatformError(PlatformError.URL, f"unknown platform {platform}")


def platform_for(connection: Connection, **session: Any) -> Platform:
    return platform_build(
        platform=connection.platform,
        base_url=connection.base_url,
        token_env=connection.token_env,
        key_env=connection.key_env,
        secret_env=connection.secret_env,
        **session,
    )
