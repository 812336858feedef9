"""The client's address, from trusted proxies only (issue 15).

Daphne's `--proxy-headers` believes X-Forwarded-For from anyone: a client that reaches
Daphne directly chose its own address and walked around every per-address limit. This ASGI
middleware replaces it: the headers count only when the connection comes from an address in
TRUSTED_PROXIES (addresses or networks, e.g. "127.0.0.1,10.0.0.0/8"); then the client is the
rightmost X-Forwarded-For entry that is not itself a trusted proxy. From anyone else the
headers X-Forwarded-For and X-Forwarded-Proto are removed, so neither Django nor a consumer
sees them. Runs for HTTP and websockets (chatwidget.asgi).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings

_FORWARDED = (b"x-forwarded-for", b"x-forwarded-proto")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in spec if item.strip())


def is_trusted_proxy(address: str | None) -> bool:
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_address(peer: str | None, forwarded_for: str | None) -> str | None:
    """The client: the peer, or, when the peer is a trusted proxy, the rightmost address in
    X-Forwarded-For that is not a trusted proxy (proxies append; the left is the client's
    own claim)."""
    if not forwarded_for or not is_trusted_proxy(peer):
        return peer
    for item in reversed(forwarded_for.split(",")):
        candidate = item.strip()
        try:
            ipaddress.ip_address(candidate)
        except ValueError:
            return peer  # garbage from the proxy chain: keep the peer
        if not is_trusted_proxy(candidate):
            return candidate
    return peer


class TrustedProxyMiddleware:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            scope = dict(scope)
            headers = scope.get("headers") or []
            client = scope.get("client")
            peer = client[0] if client else None
            if is_trusted_proxy(peer):
                forwarded = [v.decode("latin-1") for k, v in headers if k == b"x-forwarded-for"]
                address = client_address(peer, ",".join(forwarded) if forwarded else None)
                proto = next(
                    (v.decode("latin-1") for k, v in headers if k == b"x-forwarded-proto"), None
                )
                if address != peer:
                    scope["client"] = (address, 0)
                if proto in ("http", "https"):
                    scope["scheme"] = (
                        ("wss" if proto == "https" else "ws")
                        if scope["type"] == "websocket"
                        else proto
                    )
            else:
                scope["headers"] = [(k, v) for k, v in headers if k not in _FORWARDED]
        return await self.app(scope, receive, send)


def address_key(address: str) -> str:
    """What limits count: an IPv4 address, or an IPv6 address's /64 (one subscriber's
    network: a single line gets 2^64 addresses)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
