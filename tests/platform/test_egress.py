"""The egress guard (chatwidget/platform/egress.py): names the stubbed resolver maps to
metadata, private and loopback addresses are refused before any connection; redirects are
checked like the first request; the connection goes to the address that was checked; the
operator's allow-list; a deadline that a drip-feeding server cannot stretch."""

import socket
import ssl
import subprocess
import threading
import time

import pytest

from chatwidget.platform.egress import (
    EgressRefused,
    address_problem,
    egress_async_client,
    egress_client,
    host_allowed,
    httpx,
    url_problem,
)
from tests.egress_stubs import answer, redirect


@pytest.mark.parametrize(
    ("address", "refused"),
    [
        ("169.254.169.254", "metadata"),
        ("fd00:ec2::254", "metadata"),
        ("100.100.100.200", "metadata"),
        ("10.0.0.1", "private"),
        ("172.16.5.4", "private"),
        ("192.168.1.1", "private"),
        ("100.64.0.1", "private"),  # carrier-grade NAT
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
        ("::ffff:10.0.0.1", "private"),
        ("::ffff:169.254.169.254", "metadata"),
        ("64:ff9b::a00:1", "private"),  # NAT64 of 10.0.0.1
        ("2002:a00:1::1", "private"),  # 6to4 of 10.0.0.1
        ("fe80::1", "link-local"),
        ("169.254.1.1", "link-local"),
        ("fc00::1", "private"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "multicast"),
        ("0.0.0.0", "reserved"),
        ("::", "reserved"),
        ("240.0.0.1", "reserved"),
        ("93.184.216.34", None),
        ("2606:2800:220:1:248:1893:25c8:1946", None),
    ],
)
def test_addresses_that_are_not_the_public_internet_are_refused(address, refused):
    problem = address_problem(address)
    assert (problem is None) if refused is None else (refused in problem), (address, problem)


def test_an_allowed_host_may_be_private_but_never_the_metadata_service():
    assert address_problem("10.0.0.1", allowed=True) is None
    assert "metadata" in address_problem("169.254.169.254", allowed=True)


@pytest.mark.parametrize(
    ("name", "address"),
    [
        ("metadata.test", "169.254.169.254"),
        ("internal.test", "10.0.0.1"),
        ("six.test", "::1"),
        ("mapped.test", "::ffff:10.0.0.1"),
    ],
)
def test_a_name_resolving_inward_is_refused_before_any_connection(egress_net, name, address):
    egress_net.names[name] = [address]
    with pytest.raises(EgressRefused) as refused, egress_client(timeout=2) as client:
        client.get(f"http://{name}:8080/latest/meta-data/")
    assert address in str(refused.value) and name in str(refused.value)
    assert egress_net.lookups == [name] and egress_net.connects == [], "not one packet"


def test_one_inward_address_among_public_ones_refuses_the_name(egress_net):
    egress_net.names["mixed.test"] = ["93.184.216.34", "10.0.0.1"]
    with pytest.raises(EgressRefused), egress_client(timeout=2) as client:
        client.get("http://mixed.test/")
    assert egress_net.connects == []


async def test_the_async_client_is_guarded_too(egress_net):
    egress_net.names["metadata.test"] = ["169.254.169.254"]
    async with egress_async_client(timeout=2) as client:
        with pytest.raises(EgressRefused):
            await client.get("http://metadata.test/latest/meta-data/iam/")
    assert egress_net.connects == []


def test_a_redirect_to_a_private_address_is_refused(egress_net, http_server):
    egress_net.names["internal.test"] = ["10.0.0.1"]
    http_server.routes["/start"] = redirect("http://internal.test/admin")
    with pytest.raises(EgressRefused), egress_client(timeout=2, follow_redirects=True) as client:
        client.get(http_server.url("/start"))
    assert http_server.paths == ["/start"]
    assert egress_net.outside() == [], "the redirect's target was never contacted"


def test_a_redirect_to_another_scheme_is_refused(egress_net, http_server):
    http_server.routes["/start"] = redirect("ftp://127.0.0.1/etc/passwd")
    with pytest.raises(EgressRefused), egress_client(timeout=2, follow_redirects=True) as client:
        client.get(http_server.url("/start"))


def test_the_connection_goes_to_the_address_that_was_checked(egress_net, http_server, settings):
    """DNS rebinding: the first answer is checked and used; a later answer (here private) is
    never asked for, so it cannot be connected to."""
    settings.EGRESS_ALLOW_HOSTS = ["shop.test"]
    answers = iter([["127.0.0.1"], ["10.0.0.1"]])

    class Rebinding(dict):
        def __contains__(self, name):
            return name == "shop.test"

        def __getitem__(self, name):
            return next(answers)

    egress_net.names = Rebinding()
    http_server.routes["/ok"] = answer(b"fine", "text/plain")
    with egress_client(timeout=2) as client:
        assert client.get(f"http://shop.test:{http_server.port}/ok").text == "fine"
    assert egress_net.lookups.count("shop.test") == 1, "resolved once, by the guard"
    assert egress_net.connects == ["127.0.0.1"]


def test_loopback_only_when_the_operator_allows_the_host(egress_net, http_server, settings):
    http_server.routes["/ok"] = answer(b"fine", "text/plain")
    settings.EGRESS_ALLOW_HOSTS = []
    with pytest.raises(EgressRefused), egress_client(timeout=2) as client:
        client.get(http_server.url("/ok"))
    assert http_server.paths == []
    settings.EGRESS_ALLOW_HOSTS = [f"127.0.0.1:{http_server.port}"]
    with egress_client(timeout=2) as client:
        assert client.get(http_server.url("/ok")).status_code == 200
    assert not host_allowed("127.0.0.1", http_server.port + 1), "the port is part of the entry"


def test_allow_list_entries(settings):
    settings.EGRESS_ALLOW_HOSTS = ["shop.internal", "*.corp.example", "[::1]:81"]
    assert host_allowed("SHOP.internal.", 443)
    assert host_allowed("api.corp.example", 80) and not host_allowed("corp.example.evil", 80)
    assert host_allowed("::1", 81) and not host_allowed("::1", 82)
    assert not host_allowed("other.internal", 443)


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("https://shop.example.com/api", None),
        ("http://localhost:8000/x", "this server"),
        ("http://169.254.169.254/latest", "metadata"),
        ("http://[::1]:8000/x", "loopback"),
        ("http://10.1.2.3/x", "private"),
        ("ftp://shop.example.com/x", "http"),
    ],
)
def test_what_a_url_says_before_it_is_resolved(url, problem, settings):
    settings.EGRESS_ALLOW_HOSTS = []
    found = url_problem(url)
    assert (found is None) if problem is None else (problem in found), found


def test_a_server_dripping_bytes_cannot_stretch_the_deadline(http_server):
    def drip(handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", "100")
        handler.end_headers()
        for _ in range(100):
            if http_server.stop.is_set():
                return
            handler.wfile.write(b"x")
            handler.wfile.flush()
            time.sleep(0.5)

    http_server.routes["/drip"] = drip
    started = time.monotonic()
    with pytest.raises(Exception) as failed, egress_client(timeout=5, deadline_s=1.5) as client:
        client.get(http_server.url("/drip"))
    took = time.monotonic() - started
    assert "Timeout" in type(failed.value).__name__
    assert took < 4, f"a 1.5 s deadline held the request {took:.1f} s"


def test_tls_still_verifies_the_name_though_the_address_is_pinned(egress_net, settings, tmp_path):
    """The guard connects to the checked address, yet TLS gets the host name: the server
    sees it as SNI, and a certificate no trusted root signed is refused."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=shop.test"],
        check=True,
        capture_output=True,
    )
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_ctx.load_cert_chain(cert, key)
    names: list[str | None] = []
    server_ctx.sni_callback = lambda sock, name, ctx: names.append(name)
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = listener.accept()
        try:
            with server_ctx.wrap_socket(conn, server_side=True):
                pass
        except (ssl.SSLError, OSError):
            pass

    threading.Thread(target=serve, daemon=True).start()
    settings.EGRESS_ALLOW_HOSTS = ["shop.test"]
    egress_net.names["shop.test"] = ["127.0.0.1"]
    with pytest.raises(httpx.ConnectError) as failed, egress_client(timeout=5) as client:
        client.get(f"https://shop.test:{listener.getsockname()[1]}/")
    listener.close()
    assert names == ["shop.test"] and egress_net.connects == ["127.0.0.1"]
    assert "CERTIFICATE_VERIFY_FAILED" in str(failed.value)
