"""Outbound HTTP to addresses owners type in (shop actions, webhooks, knowledge URLs): one
guard, so that none of them reaches the server's own network.

An owner's URL, a sitemap's entries and every redirect may name a host that resolves to this
machine, the cluster's network or the cloud's metadata service, whose answers would then land
in a transcript or in the searchable knowledge. So every connection goes through
`GuardedBackend` (httpcore's network backend, below httpx): it resolves the host itself,
refuses the connection when any address is loopback, private, link-local, multicast, reserved
or unspecified (IPv4 and IPv6, IPv4 inside IPv6 included), and connects to exactly the
address it checked. DNS rebinding (one answer for the check, another for the connection)
cannot pass, and a redirect is checked like the first request because it opens its own
connection. Only http and https are spoken; proxies from the environment are ignored.

The operator may allow hosts (`EGRESS_ALLOW_HOSTS`: `shop.internal`, `*.corp.example`,
`127.0.0.1:8001`), e.g. a shop API on the private network. Cloud metadata addresses are
refused even then: nothing an owner configures needs them.

A deadline (`deadline_s`) bounds the whole request, reads included: a server that sends a
byte every few seconds cannot keep a read alive past it.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import socket
import ssl
import time
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

try:  # the openai SDK's HTTP library (httpx; from openai 3 on, its fork httpx2)
    import httpcore2 as httpcore
    import httpx2 as httpx
except ImportError:  # pragma: no cover - older SDKs
    import httpcore  # type: ignore[no-redef]
    import httpx  # type: ignore[no-redef]

SCHEMES = ("http", "https")
MAX_REDIRECTS = 5
# Instance metadata services (AWS, GCP, Azure, OpenStack; ECS task credentials; AWS IPv6;
# Alibaba; Oracle). Most are link-local or private anyway; these are refused even when allowed.
METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "169.254.170.2",
        "169.254.169.123",
        "fd00:ec2::254",
        "100.100.100.200",
        "192.0.0.192",
    )
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class EgressRefused(Exception):
    """No connection was opened: `str(exc)` says why, for a person."""


def _embedded(ip: Address) -> list[Address]:
    """The address and every IPv4 address it carries (mapped, 6to4, Teredo, NAT64)."""
    found: list[Address] = [ip]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            found.append(ip.ipv4_mapped)
        if ip.sixtofour:
            found.append(ip.sixtofour)
        if ip.teredo:
            found.extend(ip.teredo)
        if ip in _NAT64:
            found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def address_problem(address: str, *, allowed: bool = False) -> str | None:
    """Why a connection to `address` is refused, or None. `allowed`: the operator allowed
    the host, so only metadata addresses are refused."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone id is not the address
    carried = _embedded(ip)
    if any(one in METADATA for one in carried):
        return _("a cloud metadata address")
    if allowed:
        return None
    for one in reversed(carried):  # what an IPv6 address carries says more than its prefix
        if one.is_loopback:
            return _("a loopback address")
        if one.is_link_local:
            return _("a link-local address")
        if one.is_multicast:
            return _("a multicast address")
        if one.is_unspecified or one.is_reserved:
            return _("a reserved address")
        if one.is_private or not one.is_global:
            return _("a private address")
    return None


def _entry_split(entry: str) -> tuple[str, int | None]:
    """`host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 address."""
    entry = entry.strip().lower()
    if entry.startswith("["):
        host, _sep, rest = entry[1:].partition("]")
        return host, int(rest[1:]) if rest.startswith(":") and rest[1:].isdigit() else None
    if entry.count(":") == 1:
        host, _sep, port = entry.partition(":")
        return host, int(port) if port.isdigit() else None
    return entry, None


def _same_host(a: str, b: str) -> bool:
    try:
        return ipaddress.ip_address(a) == ipaddress.ip_address(b)
    except ValueError:
        return a == b


def host_allowed(host: str, port: int | None = None) -> bool:
    """Whether the operator allowed this host (and port) in EGRESS_ALLOW_HOSTS."""
    host = host.strip("[]").lower().rstrip(".")
    for entry in getattr(settings, "EGRESS_ALLOW_HOSTS", []):
        allowed_host, allowed_port = _entry_split(entry)
        if allowed_port is not None and allowed_port != port:
            continue
        if allowed_host.startswith("*.") and host.endswith(allowed_host[1:]):
            return True
        if _same_host(host, allowed_host):
            return True
    return False


def _resolve(host: str, port: int) -> list[str]:
    try:
        return [str(ipaddress.ip_address(host.strip("[]")))]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise httpcore.ConnectError(f"{host}: {exc}") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def addresses_checked(host: str, port: int) -> list[str]:
    """The addresses of `host`, every one of them fit to connect to; else EgressRefused."""
    allowed = host_allowed(host, port)
    addresses = _resolve(host, port)
    for address in addresses:
        problem = address_problem(address, allowed=allowed)
        if problem:
            raise EgressRefused(
                _("%(host)s is %(problem)s (%(address)s); not contacted")
                % {"host": host, "problem": problem, "address": address}
                if host.strip("[]") == address
                else _("%(host)s resolves to %(problem)s (%(address)s); not contacted")
                % {"host": host, "problem": problem, "address": address}
            )
    return addresses


def url_problem(url: str) -> str | None:
    """What can be said of a URL without resolving it (at save time): its scheme, and a host
    that is an address the guard refuses (or `localhost`). None: it may still be refused when
    the name resolves."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES or not parts.hostname:
        return _("An http:// or https:// URL with a host.")
    try:
        port = parts.port
    except ValueError:
        return _("The port is not a number.")
    host = parts.hostname
    if host_allowed(host, port):
        return None
    if host == "localhost" or host.endswith(".localhost"):
        return _("%(host)s is this server; not contacted") % {"host": host}
    try:
        problem = address_problem(host)
    except ValueError:
        return None
    if problem:
        return _("%(host)s is %(problem)s; not contacted") % {"host": host, "problem": problem}
    return None


def _left(deadline: float | None, timeout: float | None) -> float | None:
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the request's deadline passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, inner: Any, deadline: float | None) -> None:
        self._inner, self._deadline = inner, deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(self._deadline, timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(self._deadline, timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context, server_hostname=None, timeout=None) -> _DeadlineStream:
        tls = self._inner.start_tls(ssl_context, server_hostname, _left(self._deadline, timeout))
        return _DeadlineStream(tls, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _AsyncDeadlineStream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: Any, deadline: float | None) -> None:
        self._inner, self._deadline = inner, deadline

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # noqa: ASYNC109
        return await self._inner.read(max_bytes, _left(self._deadline, timeout))

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109
        await self._inner.write(buffer, _left(self._deadline, timeout))

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context,
        server_hostname=None,
        timeout=None,  # noqa: ASYNC109 - httpcore's interface
    ) -> _AsyncDeadlineStream:
        left = _left(self._deadline, timeout)
        tls = await self._inner.start_tls(ssl_context, server_hostname, left)
        return _AsyncDeadlineStream(tls, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class GuardedBackend(httpcore.NetworkBackend):
    """Resolve, check, connect to the checked address (TLS still verifies the host name:
    httpcore passes the URL's host as the server name)."""

    def __init__(self, *, deadline: float | None = None) -> None:
        self._inner = httpcore.SyncBackend()
        self._deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        error: Exception | None = None
        for address in addresses_checked(host, port):
            try:
                stream = self._inner.connect_tcp(
                    address, port, _left(self._deadline, timeout), local_address, socket_options
                )
            except httpcore.ConnectError as exc:  # the next address, as browsers do
                error = exc
                continue
            return _DeadlineStream(stream, self._deadline)
        raise error or httpcore.ConnectError(host)

    def connect_unix_socket(self, path, timeout=None, socket_options=None):
        raise EgressRefused(_("only http and https"))

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """GuardedBackend for asyncio (the name is resolved in a thread)."""

    def __init__(self, *, deadline: float | None = None) -> None:
        self._inner = httpcore.AnyIOBackend()
        self._deadline = deadline

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's interface
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        addresses = await loop.run_in_executor(None, addresses_checked, host, port)
        error: Exception | None = None
        for address in addresses:
            try:
                stream = await self._inner.connect_tcp(
                    address, port, _left(self._deadline, timeout), local_address, socket_options
                )
            except httpcore.ConnectError as exc:
                error = exc
                continue
            return _AsyncDeadlineStream(stream, self._deadline)
        raise error or httpcore.ConnectError(host)

    async def connect_unix_socket(self, path, timeout=None, socket_options=None):  # noqa: ASYNC109
        raise EgressRefused(_("only http and https"))

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def _scheme_check(request: httpx.Request) -> None:
    if request.url.scheme not in SCHEMES:
        raise EgressRefused(
            _("%(scheme)s: is not http or https; not contacted") % {"scheme": request.url.scheme}
        )


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """The default verification (certifi's roots), built once per process: loading the
    roots costs milliseconds, and a client is made per request."""
    return httpx.create_ssl_context(trust_env=False)


class _Transport(httpx.HTTPTransport):
    def __init__(self, *, deadline: float | None) -> None:
        super().__init__(verify=_ssl_context(), trust_env=False)
        self._pool = httpcore.ConnectionPool(
            ssl_context=_ssl_context(),
            network_backend=GuardedBackend(deadline=deadline),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        _scheme_check(request)  # every request, so every redirect too
        return super().handle_request(request)


class _AsyncTransport(httpx.AsyncHTTPTransport):
    def __init__(self, *, deadline: float | None) -> None:
        super().__init__(verify=_ssl_context(), trust_env=False)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=_ssl_context(),
            network_backend=AsyncGuardedBackend(deadline=deadline),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        _scheme_check(request)
        return await super().handle_async_request(request)


def _deadline(deadline_s: float | None) -> float | None:
    return None if deadline_s is None else time.monotonic() + deadline_s


def egress_client(
    *, timeout: float, deadline_s: float | None = None, follow_redirects: bool = False
) -> httpx.Client:
    """An httpx client whose every connection (redirects included) passes the guard.
    `deadline_s` bounds everything the client does from now on: use one client per request."""
    return httpx.Client(
        transport=_Transport(deadline=_deadline(deadline_s)),
        timeout=timeout,
        follow_redirects=follow_redirects,
        max_redirects=MAX_REDIRECTS,
        trust_env=False,
    )


def egress_async_client(
    *, timeout: float, deadline_s: float | None = None, follow_redirects: bool = False
) -> httpx.AsyncClient:
    """`egress_client` for asyncio."""
    return httpx.AsyncClient(
        transport=_AsyncTransport(deadline=_deadline(deadline_s)),
        timeout=timeout,
        follow_redirects=follow_redirects,
        max_redirects=MAX_REDIRECTS,
        trust_env=False,
    )
