"""A stubbed network for the egress tests: names resolve to what a test says (metadata,
private, loopback addresses), and no connection leaves 127.0.0.0/8 even when the code under
test is broken: every connect is recorded, and one to any other address fails before a
packet is sent. Import `egress_net` into a conftest to use it.

    egress_net.names["internal.test"] = ["10.0.0.1"]
    ... the code under test ...
    assert egress_net.connects == []      # nothing was even tried
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Net:
    names: dict[str, list[str]] = field(default_factory=dict)
    lookups: list[str] = field(default_factory=list)
    connects: list[str] = field(default_factory=list)  # every address a socket tried

    def outside(self) -> list[str]:
        return [a for a in self.connects if not ipaddress.ip_address(a).is_loopback]


@pytest.fixture
def egress_net(monkeypatch):
    net = Net()
    real_getaddrinfo = socket.getaddrinfo
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode() if isinstance(host, bytes) else str(host)
        net.lookups.append(name)
        if name in net.names:
            infos = []
            for address in net.names[name]:
                if ":" in address:
                    infos.append(
                        (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))
                    )
                else:
                    infos.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)))
            return infos
        try:
            ipaddress.ip_address(name)
        except ValueError:
            if name != "localhost":  # never ask a real DNS server in these tests
                raise socket.gaierror(socket.EAI_NONAME, f"{name} (stubbed: unknown)") from None
        return real_getaddrinfo(host, port, family, type, proto, flags)

    def guard(address) -> None:
        if isinstance(address, tuple):
            net.connects.append(str(address[0]))
            if not ipaddress.ip_address(str(address[0]).split("%")[0]).is_loopback:
                raise OSError(101, f"test network: {address[0]} is outside 127.0.0.0/8")

    def connect(self, address):
        guard(address)
        return real_connect(self, address)

    def connect_ex(self, address):
        guard(address)
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    return net


class Server:
    """An HTTP server on 127.0.0.1 whose answers a test writes: `routes[path] = handler`,
    a function of the request handler that sends the answer. Records every path asked."""

    def __init__(self) -> None:
        self.routes: dict = {}
        self.paths: list[str] = []
        self.stop = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.paths.append(self.path)
                route = server.routes.get(self.path.split("?")[0])
                if route is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                route(self)

            do_POST = do_GET

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_port
        threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def redirect(location: str, status: int = 302):
    def send(handler) -> None:
        handler.send_response(status)
        handler.send_header("Location", location)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    return send


def answer(body: bytes, ctype: str = "text/html", status: int = 200):
    def send(handler) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", ctype)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    return send


@pytest.fixture
def http_server():
    server = Server()
    yield server
    server.close()
