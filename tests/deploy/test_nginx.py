"""nginx configuration: `nginx -t` on both variants, and a live nginx in front of a stand-in
backend (websocket upgrade, forwarded headers, gzip, static caching).

Skipped with a message when nginx is not installed. No Django.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import shutil
import socket
import socketserver
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.procs import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX_DIR = ROOT / "deploy" / "nginx"
HOST = "chat.example.com"


def _nginx() -> str:
    binary = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )
    if not binary:
        pytest.skip("nginx is not installed: deploy/nginx/*.conf not checked")
    return binary


def _replace(text: str, old: str, new: str) -> str:
    assert old in text, f"expected {old!r} in the configuration"
    return text.replace(old, new)


def _wrapper(tmp: Path, include: str, *, extra_main: str = "") -> Path:
    """A main configuration whose pid, logs and temp files all live in tmp."""
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp / name).mkdir(exist_ok=True)
    main = tmp / "conf" / "nginx.conf"
    main.write_text(f"""
{extra_main}
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log info;
events {{ worker_connections 64; }}
http {{
    types {{ application/javascript js; text/css css; application/json json; }}
    default_type application/octet-stream;
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {include};
}}
""")
    return main


def _copy_conf(tmp: Path) -> Path:
    conf = tmp / "conf"
    shutil.copytree(NGINX_DIR, conf)
    for name, cache in (
        ("compose.conf", "/var/cache/nginx/chatwidget"),  # the official image's folder
        ("chatwidget.conf", "/var/lib/nginx/chatwidget-cache"),  # Debian's
    ):  # config.json's cache, in tmp
        path = conf / name
        path.write_text(_replace(path.read_text(), cache, f"{tmp}/cache"))
    return conf


def _test_config(
    nginx: str, main: Path, prefix: Path, *globals_: str
) -> subprocess.CompletedProcess:
    args = ["-g", " ".join(globals_)] if globals_ else []
    return subprocess.run(
        [nginx, "-t", "-e", "stderr", "-c", str(main), "-p", str(prefix), *args],
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_bare_metal_nginx_conf_passes_nginx_t(tmp_path):
    nginx = _nginx()
    if os.geteuid() != 0:
        pytest.skip(
            "nginx -t on the complete nginx.conf opens the system log and temp "
            "paths: run as root (the live tests below need no root)"
        )
    # nginx.conf sets no pid on purpose (the package default applies): point it at tmp_path.
    result = _test_config(
        nginx, NGINX_DIR / "nginx.conf", tmp_path, f"pid {tmp_path}/nginx.pid;", "error_log stderr;"
    )
    assert result.returncode == 0, result.stderr


def test_compose_conf_passes_nginx_t(tmp_path):
    nginx = _nginx()
    conf = _copy_conf(tmp_path)
    # "web" resolves only inside the compose network; here it is the loopback address.
    compose = conf / "compose.conf"
    compose.write_text(_replace(compose.read_text(), "web:8000", "127.0.0.1:8000"))
    result = _test_config(nginx, _wrapper(tmp_path, "compose.conf"), tmp_path)
    assert result.returncode == 0, result.stderr


# --- a live nginx in front of a stand-in backend ------------------------------------------------


class _Backend(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        self.seen: list[dict] = []
        super().__init__(("127.0.0.1", 0), _BackendHandler)


class _BackendHandler(socketserver.StreamRequestHandler):
    """Answers with the request it received (as JSON); accepts websocket upgrades and then
    echoes raw bytes, which is all a proxy test needs."""

    def handle(self):
        request_line = self.rfile.readline().decode("latin-1").strip()
        if not request_line:
            return
        headers: dict[str, str] = {}
        while True:
            line = self.rfile.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            key, _, value = line.decode("latin-1").partition(":")
            headers[key.strip().lower()] = value.strip()
        method, target, _version = request_line.split()
        self.server.seen.append({"method": method, "path": target, "headers": headers})
        if headers.get("upgrade", "").lower() == "websocket":
            self.wfile.write(
                b"HTTP/1.1 101 Switching Protocols\r\n"
                b"Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
            )
            self.wfile.flush()
            while data := self.request.recv(1024):
                self.request.sendall(b"echo:" + data)
            return
        body = json.dumps({"path": target, "headers": headers, "pad": "x" * 4000}).encode()
        self.wfile.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body
        )


@pytest.fixture
def backend():
    server = _Backend()
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _run_nginx(nginx: str, main: Path, prefix: Path, port: int):
    process = subprocess.Popen(
        [
            nginx,
            "-e",
            "stderr",
            "-c",
            str(main),
            "-p",
            str(prefix),
            "-g",
            "daemon off; master_process off;",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read().decode(errors="replace")
            log = (prefix / "error.log").read_text() if (prefix / "error.log").exists() else ""
            pytest.fail(f"nginx exited: {output}\n{log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    pytest.fail("nginx did not start listening")


def _stop(process):
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def compose_nginx(tmp_path, backend):
    """compose.conf as compose runs it, with "web:8000" pointed at the stand-in backend."""
    nginx = _nginx()
    conf = _copy_conf(tmp_path)
    port = free_port()
    compose = conf / "compose.conf"
    text = _replace(compose.read_text(), "web:8000", f"127.0.0.1:{backend.server_address[1]}")
    text = _replace(text, "listen 80 default_server;", f"listen 127.0.0.1:{port} default_server;")
    compose.write_text(text)
    process = _run_nginx(nginx, _wrapper(tmp_path, "compose.conf"), tmp_path, port)
    yield port
    _stop(process)


@pytest.fixture
def bare_metal_nginx(tmp_path, backend):
    """chatwidget.conf as installed on a host: upstream ports pointed at the stand-in
    backend, /static/ aliased to a folder of collected files."""
    nginx = _nginx()
    conf = _copy_conf(tmp_path)
    port = free_port()
    backend_port = backend.server_address[1]
    site = conf / "chatwidget.conf"
    text = _replace(site.read_text(), "server 127.0.0.1:8000 ", f"server 127.0.0.1:{backend_port} ")
    text = _replace(text, "server 127.0.0.1:8001 ", f"server 127.0.0.1:{backend_port} ")
    text = _replace(text, "    listen 80;", f"    listen 127.0.0.1:{port};")
    site.write_text(text)
    static = tmp_path / "staticfiles"
    (static / "widget").mkdir(parents=True)
    (static / "widget" / "app.0123456789ab.js").write_text("console.log('hashed');\n")
    (static / "widget" / "loader.js").write_text("console.log('loader');\n")
    snippet = conf / "snippets" / "chatwidget-static-files.conf"
    snippet.write_text(_replace(snippet.read_text(), "/opt/chatwidget/staticfiles/", f"{static}/"))
    process = _run_nginx(nginx, _wrapper(tmp_path, "chatwidget.conf"), tmp_path, port)
    yield port
    _stop(process)


def _get(port: int, path: str, headers: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", path, headers={"Host": HOST, **(headers or {})})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.getheader("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return response, body


def _websocket_roundtrip(port: int) -> tuple[str, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(
            f"GET /ws/chat/abc123/ HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\nOrigin: https://shop.example\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1024)
            assert chunk, f"connection closed during the handshake: {head!r}"
            head += chunk
        status = head.split(b"\r\n", 1)[0].decode()
        sock.sendall(b"hello through the tunnel")
        echoed = b""
        while len(echoed) < len(b"echo:hello through the tunnel"):
            chunk = sock.recv(1024)
            if not chunk:
                break
            echoed += chunk
    return status, echoed


@pytest.mark.parametrize("proxy", ["compose_nginx", "bare_metal_nginx"])
def test_websocket_upgrade_is_proxied_both_ways(proxy, backend, request):
    port = request.getfixturevalue(proxy)
    status, echoed = _websocket_roundtrip(port)
    assert " 101 " in f"{status} ", status
    assert echoed == b"echo:hello through the tunnel"
    (seen,) = [r for r in backend.seen if r["path"] == "/ws/chat/abc123/"]
    assert seen["headers"]["upgrade"] == "websocket"
    assert seen["headers"]["connection"].lower() == "upgrade"
    assert seen["headers"]["host"] == HOST
    assert seen["headers"]["origin"] == "https://shop.example", "Origin is checked by the app"


@pytest.mark.parametrize("proxy", ["compose_nginx", "bare_metal_nginx"])
def test_forwarded_headers_are_set_by_the_proxy_not_the_client(proxy, backend, request):
    port = request.getfixturevalue(proxy)
    response, body = _get(
        port, "/healthz", {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    )
    assert response.status == 200
    headers = json.loads(body)["headers"]
    assert headers["host"] == HOST
    # A visitor must not choose the address the per-address rate limit counts, nor claim https.
    assert headers["x-forwarded-for"] == "127.0.0.1"
    assert headers["x-forwarded-proto"] == "http"
    assert "upgrade" not in headers


@pytest.mark.parametrize("proxy", ["compose_nginx", "bare_metal_nginx"])
def test_json_is_gzipped(proxy, request):
    port = request.getfixturevalue(proxy)
    response, body = _get(port, "/widget/v1/key/config.json", {"Accept-Encoding": "gzip"})
    assert response.status == 200
    assert response.getheader("Content-Encoding") == "gzip"
    assert json.loads(body)["path"] == "/widget/v1/key/config.json"


def test_bare_metal_static_files_hashed_cached_for_a_year(bare_metal_nginx, backend):
    response, body = _get(bare_metal_nginx, "/static/widget/app.0123456789ab.js")
    assert response.status == 200 and b"hashed" in body
    (cache_control,) = response.headers.get_all("Cache-Control")  # one header, not two
    assert "immutable" in cache_control and "max-age=31536000" in cache_control
    assert response.getheader("Content-Type") == "application/javascript"

    response, body = _get(bare_metal_nginx, "/static/widget/loader.js")
    assert response.status == 200 and b"loader" in body
    cache_control = response.getheader("Cache-Control")
    assert "immutable" not in cache_control
    assert int(re.search(r"max-age=(\d+)", cache_control).group(1)) <= 3600
    assert not [r for r in backend.seen if r["path"].startswith("/static/")], (
        "static files are served from disk, not proxied"
    )


@pytest.mark.parametrize("variant", ["compose_nginx", "bare_metal_nginx"])
def test_config_json_is_cached_per_origin(variant, backend, request):
    port = request.getfixturevalue(variant)
    path = "/widget/v1/key/config.json"
    shop = {"Origin": "https://shop.example"}
    first, _ = _get(port, path, shop)
    second, _ = _get(port, path, shop)
    other, _ = _get(port, path, {"Origin": "https://other.example"})
    assert [r.getheader("X-Cache-Status") for r in (first, second, other)] == [
        "MISS",
        "HIT",
        "MISS",
    ]
    assert len([r for r in backend.seen if r["path"] == path]) == 2


def test_ws_location_keeps_idle_conversations_open():
    snippet = (NGINX_DIR / "snippets" / "chatwidget-server.conf").read_text()
    ws = snippet[snippet.index("location /ws/") :]
    ws = ws[: ws.index("}")]
    assert re.search(r"proxy_read_timeout\s+(1h|3600s?);", ws)
    assert re.search(r"proxy_send_timeout\s+(1h|3600s?);", ws)
    gzip_types = re.search(r"gzip_types([^;]+);", snippet).group(1).split()
    assert {"application/javascript", "text/css", "application/json"} <= set(gzip_types)
