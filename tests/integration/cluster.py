"""Real processes for the multi-process tests: redis-server, Daphne, a Celery worker, a TCP
proxy in front of PostgreSQL, and a websocket visitor. Every wait is bounded; every child
runs in its own process group and is killed (the whole group) when the test is done.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlencode

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from tests.procs import free_port

ROOT = Path(__file__).resolve().parents[2]
SHOP = "http://shop.test"
START_TIMEOUT = 90.0  # seconds for a process to come up on a busy 2-core machine


def wait_until(predicate, *, timeout: float, interval: float = 0.2, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(interval)


async def await_until(predicate, *, timeout: float, interval: float = 0.3, what: str = "condition"):
    """`predicate` is an async callable; polled until truthy (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        await asyncio.sleep(interval)


def database_url(settings_dict: dict) -> str:
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{quote(settings_dict['NAME'], safe='')}"


class Process:
    """One child process in its own session (process group), logging to a file."""

    def __init__(
        self,
        name: str,
        args: list[str],
        env: dict[str, str],
        log_dir: Path,
        *,
        cwd: Path | None = None,
    ) -> None:
        self.name = name
        self.args = args
        self.env = env
        self.cwd = cwd or ROOT  # a deployment's process may share no folder with another
        self.log_path = log_dir / f"{name}.log"
        self.popen: subprocess.Popen | None = None
        self._log_offset = 0

    def start(self) -> Process:
        log = self.log_path.open("ab")
        self.popen = subprocess.Popen(
            self.args,
            cwd=self.cwd,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        return self

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal(self, sig: int) -> None:
        if self.alive:
            os.killpg(self.popen.pid, sig)

    def kill(self) -> None:
        """SIGKILL the whole group (a Celery worker's pool children too)."""
        if self.popen is None:
            return
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def wait_exit(self, timeout: float) -> int:
        assert self.popen is not None
        return self.popen.wait(timeout=timeout)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def new_log(self) -> str:
        text = self.log_text()
        new, self._log_offset = text[self._log_offset :], len(text)
        return new


class RedisServer:
    def __init__(self, log_dir: Path, name: str = "redis") -> None:
        self.port = free_port()
        self.name = name
        self.log_dir = log_dir
        self.process: Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        # No persistence: a restart forgets everything (groups, queues, locks), the worst case.
        self.process = Process(
            self.name,
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            dict(os.environ),
            self.log_dir,
        ).start()
        wait_until(self.ping, timeout=20, what=f"redis-server on {self.port}")

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.signal(signal.SIGTERM)
            try:
                self.process.wait_exit(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Daphne:
    def __init__(
        self, name: str, env: dict[str, str], log_dir: Path, *, cwd: Path | None = None
    ) -> None:
        self.name = name
        self.port = free_port()
        self.process = Process(
            name,
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "chatwidget.asgi:application",
            ],
            env,
            log_dir,
            cwd=cwd,
        )

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, site_key: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/chat/{site_key}/"

    def start(self) -> Daphne:
        self.process.start()
        wait_until(
            self._healthy, timeout=START_TIMEOUT, interval=0.3, what=f"daphne {self.name} /healthz"
        )
        return self

    def _healthy(self) -> bool:
        if not self.process.alive:
            raise AssertionError(f"daphne {self.name} exited:\n{self.process.log_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{self.http}/healthz", timeout=2) as response:
                return response.status == 200
        except (OSError, urllib.error.URLError):
            return False

    def readyz(self) -> tuple[int, dict]:
        try:
            with urllib.request.urlopen(f"{self.http}/readyz", timeout=15) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


class Worker:
    """`celery -A chatwidget worker` in its own process group, the one way the integration
    tests start a worker. `args` go after `worker` (queues, pool, `-B`); gossip, mingle and
    heartbeat are off (no other worker to talk to). `start(wait=True)` returns once the
    worker logs " ready."; `stop()` asks the main process for a warm shutdown (it stops its
    own pool and beat), `kill()` SIGKILLs the whole group."""

    def __init__(
        self,
        env: dict[str, str],
        log_dir: Path,
        *,
        name: str = "worker",
        args=("--concurrency", "1"),
        broker: str | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.env = env
        self.cwd = cwd
        self.broker = broker  # `-b`: over the settings' broker (the test settings' is memory://)
        self.log_dir = log_dir
        self.name = name
        self.args = list(args)
        self.process: Process | None = None
        self.starts = 0

    def start(self, *, wait: bool = True) -> Worker:
        self.starts += 1
        # the tests read the worker's "received" and " ready." lines: Celery's INFO lines on
        # (the demo's local settings turn them off)
        env = {**self.env, "SERVER_LOG_LEVEL": "INFO"}
        self.process = Process(
            f"{self.name}-{self.starts}",
            [
                sys.executable,
                *("-m", "celery", "-A", "chatwidget"),
                *(("-b", self.broker) if self.broker else ()),
                *("worker", "-l", "info"),
                *self.args,
                *("--without-gossip", "--without-mingle", "--without-heartbeat"),
                *("-n", f"{self.name}{self.starts}-{os.getpid()}@%h"),
            ],
            env,
            self.log_dir,
            cwd=self.cwd,
        ).start()
        if wait:
            wait_until(self._ready, timeout=START_TIMEOUT, what="celery worker ready")
        return self

    def _ready(self) -> bool:
        assert self.process is not None
        if not self.process.alive:
            raise AssertionError(f"worker exited:\n{self.process.log_text()[-3000:]}")
        return " ready." in self.process.log_text()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.alive

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"{self.name}-{max(self.starts, 1)}.log"

    def log_text(self) -> str:
        return self.process.log_text() if self.process else ""

    def stop(self, timeout: float = 15) -> None:
        """Warm shutdown: SIGTERM to the main process only (a SIGTERM to the whole group
        kills the pool under it, and the shutdown then waits seconds for nothing)."""
        if not self.alive:
            return
        assert self.process is not None and self.process.popen is not None
        self.process.popen.send_signal(signal.SIGTERM)
        try:
            self.process.wait_exit(timeout)
        except subprocess.TimeoutExpired:
            pass
        self.process.kill()  # whatever is left of the group

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()


class TcpProxy:
    """A TCP proxy (its own thread and event loop) between a Daphne and PostgreSQL.

    Modes: "pass"; "down" (every connection cut, new ones refused); "cut_on_commit" (pass
    until a client sends COMMIT: that connection and every other is cut before the COMMIT
    reaches the server, then "down")."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self.mode = "pass"
        self.commits_cut = 0
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._ready = threading.Event()

    def start(self) -> TcpProxy:
        def run() -> None:
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self._serve())

        threading.Thread(target=run, daemon=True, name="pg-proxy").start()
        assert self._ready.wait(10), "proxy did not start"
        return self

    async def _serve(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)
        self._ready.set()
        try:
            async with self._server:
                await self._server.serve_forever()
        except asyncio.CancelledError:
            pass

    def set_mode(self, mode: str) -> None:
        assert self._loop is not None
        done = threading.Event()

        def apply() -> None:
            self.mode = mode
            if mode == "down":
                self._cut_all()
            done.set()

        self._loop.call_soon_threadsafe(apply)
        assert done.wait(5)

    def stop(self) -> None:
        if self._loop is not None and self._server is not None:

            def close() -> None:
                self._cut_all()
                self._server.close()

            self._loop.call_soon_threadsafe(close)

    def _cut_all(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.mode == "down":
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers.update({writer, up_writer})

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, upstream: bool):
            try:
                while data := await src.read(65536):
                    if self.mode == "down":
                        break
                    if upstream and self.mode == "cut_on_commit" and b"COMMIT" in data:
                        self.commits_cut += 1
                        self.mode = "down"
                        self._cut_all()
                        break
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer, True), pipe(up_reader, writer, False))
        self._writers.difference_update({writer, up_writer})


def admin_login(base: str, *, username: str, password: str):
    """Log in to the admin over HTTP (CSRF included): (opener, csrf token)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def cookie(name: str) -> str:
        return next(c.value for c in jar if c.name == name)

    opener.open(f"{base}/admin/login/", timeout=20).read()
    login = urlencode(
        {
            "username": username,
            "password": password,
            "next": "/admin/",
            "csrfmiddlewaretoken": cookie("csrftoken"),
        }
    ).encode()
    opener.open(
        urllib.request.Request(f"{base}/admin/login/?next=/admin/", data=login), timeout=20
    ).read()
    assert any(c.name == "sessionid" for c in jar), "staff login failed"
    return opener, cookie("csrftoken")


def admin_staff_reply(base: str, *, username: str, password: str, path: str, text: str) -> dict:
    """Post a staff reply as the case page's script does (`X-Requested-With: fetch`), logged
    in to the admin over HTTP. Returns the JSON answer."""
    opener, csrf = admin_login(base, username=username, password=password)
    request = urllib.request.Request(
        f"{base}{path}",
        data=urlencode({"text": text}).encode(),
        headers={"X-CSRFToken": csrf, "X-Requested-With": "fetch"},
    )
    with opener.open(request, timeout=20) as response:
        return json.loads(response.read())


class Visitor:
    """The widget's side of the protocol over a real websocket (Origin: the shop)."""

    def __init__(self) -> None:
        self.ws = None
        self.session: str | None = None
        self.complete: dict[int, dict] = {}  # seq -> complete turn seen (welcome/ack/message)
        self.frames: list[dict] = []

    @classmethod
    async def resume(cls, previous: Visitor, url: str) -> Visitor:
        """The widget after a lost connection: a new socket, hello with its session and the
        newest seq it holds completely."""
        visitor = cls()
        visitor.session = previous.session
        visitor.complete = dict(previous.complete)
        await visitor.open(url)
        await visitor.hello(last_seq=previous.last_complete_seq)
        return visitor

    async def open(self, url: str) -> Visitor:
        self.ws = await asyncio.wait_for(ws_connect(url, origin=SHOP, open_timeout=15), 20)
        return self

    async def send(self, frame: dict) -> None:
        await self.ws.send(json.dumps(frame))

    async def recv(self, timeout: float = 15) -> dict:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(frame)
        if frame.get("type") == "welcome":
            for turn in frame.get("turns", []):
                self.complete[turn["seq"]] = turn
        elif frame.get("type") == "message":
            self.complete[frame["seq"]] = frame
        return frame

    async def recv_until(self, kind: str, timeout: float = 20, **match) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"no {kind} frame {match} within {timeout:.0f}s; "
                    f"last frames: {self.frames[-5:]}"
                )
            frame = await self.recv(left)
            if frame.get("type") == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def hello(self, *, last_seq: int | None = None) -> dict:
        await self.send({"type": "hello", "session": self.session, "last_seq": last_seq})
        welcome = await self.recv_until("welcome")
        return welcome

    async def say(self, text: str, cid: str) -> dict:
        await self.send({"type": "message", "id": cid, "text": text})
        while True:
            frame = await self.recv_until_any(("ack", "error"), id=cid)
            if frame["type"] == "ack":
                self.session = frame["session"]
                self.complete.setdefault(
                    frame["seq"], {"seq": frame["seq"], "role": "visitor", "text": text}
                )
            return frame

    async def recv_until_any(self, kinds: tuple[str, ...], timeout: float = 20, **match) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"no {kinds} frame {match} within {timeout:.0f}s; "
                    f"last frames: {self.frames[-5:]}"
                )
            frame = await self.recv(left)
            if frame.get("type") in kinds and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def answer(self, timeout: float = 30) -> dict:
        return await self.recv_until("message", timeout=timeout, role="assistant")

    async def closed(self, timeout: float = 30):
        """Read until the server closes; returns the ConnectionClosed exception."""
        deadline = time.monotonic() + timeout
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the socket stayed open for {timeout:.0f}s")
                await self.recv(left)
        except ConnectionClosed as exc:
            return exc

    @property
    def last_complete_seq(self) -> int | None:
        """What a widget should resume from: the newest turn it holds completely (a reply
        seen only as deltas is not complete)."""
        return max(self.complete) if self.complete else None

    async def close(self) -> None:
        if self.ws is not None:
            try:
                await asyncio.wait_for(self.ws.close(), 5)
            except Exception:
                pass


def wait_for(check, *, what: str, worker: Worker, timeout: float = 60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{worker.log_text()[-4000:]}")
