"""Run a few child processes as one unit (`manage.py demo`): all start, all stop.

Each child runs in its own process group, so stopping it reaches its own children too (the
Celery worker's pool and beat), and Ctrl-C in the terminal reaches only the supervisor, which
then stops every group once, in order. A child that dies stops the others with a message
naming it and why; on Linux a child also gets SIGTERM if the supervisor itself is killed, so
nothing is left holding the ports.
"""

import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import psutil

_PR_SET_PDEATHSIG = 1
try:  # resolved before any fork: the child may call nothing that takes a lock
    _prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform == "linux" else None
except (OSError, AttributeError):
    _prctl = None


def _die_with_parent() -> None:
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """True when a server could listen on `port` (SO_REUSEADDR as servers set it, so
    connections of a previous run in TIME_WAIT do not count)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def port_holder(port: int) -> str:
    """Which process listens on `port`, in words, for the message that says why we stop."""
    try:
        for conn in psutil.net_connections(kind="inet"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port:
                if not conn.pid:
                    return "a process of another user"
                try:
                    proc = psutil.Process(conn.pid)
                    command = " ".join(proc.cmdline()) or proc.name()
                except psutil.Error:
                    return f"process {conn.pid}"
                return f"process {conn.pid} ({command[:160]})"
    except psutil.AccessDenied:
        pass
    return f"another process (`lsof -i :{port}` shows which)"


def exit_reason(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit code {returncode}"


@dataclass
class Child:
    name: str  # short, prefixes every output line: "web", "shop", "worker"
    what: str  # for messages: "Daphne (widget, admin)"
    argv: list[str]
    proc: subprocess.Popen | None = None
    tail: deque = field(default_factory=lambda: deque(maxlen=8))


class Supervisor:
    """Starts children, pumps their output (prefixed with their name) to `say`, notices the
    first one that exits, and stops them all."""

    def __init__(self, *, say: Callable[[str], None], env: dict, cwd: str | None = None):
        self._say = say
        self._lock = threading.Lock()
        self.env = env
        self.cwd = cwd
        self.children: list[Child] = []
        self.stop_requested = threading.Event()
        self.stop_signal: str | None = None
        self._width = 6

    def say(self, text: str) -> None:
        with self._lock:
            self._say(text)

    def start(self, children: list[Child]) -> None:
        self._width = max(len(c.name) for c in children)
        for child in children:
            child.proc = subprocess.Popen(
                child.argv,
                env=self.env,
                cwd=self.cwd,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
            self.children.append(child)
        # Pumps start after every fork, so no fork happens while a pump holds a lock.
        for child in children:
            threading.Thread(target=self._pump, args=(child,), daemon=True).start()

    def _pump(self, child: Child) -> None:
        assert child.proc is not None and child.proc.stdout is not None
        for line in child.proc.stdout:
            line = line.rstrip()
            if line.strip():
                child.tail.append(line)
                self.say(f"{child.name:<{self._width}} | {line}")

    def handle_signals(self) -> None:
        """SIGINT and SIGTERM ask for a stop; the waiting loops see it."""

        def handler(signum: int, frame) -> None:
            self.stop_signal = signal.Signals(signum).name
            self.stop_requested.set()

        signal.signal(signal.SIGINT, handler)
        signal.signal(signal.SIGTERM, handler)

    def dead(self) -> Child | None:
        return next((c for c in self.children if c.proc and c.proc.poll() is not None), None)

    def wait_ready(self, checks: dict[str, Callable[[], bool]], timeout: float) -> str | None:
        """Wait until every check passes. Returns None when all are ready, else why not."""
        deadline = time.monotonic() + timeout
        pending = dict(checks)
        while pending:
            if self.stop_requested.is_set():
                return f"stopped by {self.stop_signal}"
            if (child := self.dead()) is not None:
                return self.death_message(child)
            pending = {name: ok for name, ok in pending.items() if not ok()}
            if pending and time.monotonic() > deadline:
                return f"not ready after {timeout:.0f} s: {', '.join(pending)}"
            if pending:
                self.stop_requested.wait(0.2)
        return None

    def watch(self) -> Child | None:
        """Block until a stop is requested (None) or a child exits (that child)."""
        while not self.stop_requested.wait(0.3):
            if (child := self.dead()) is not None:
                return child
        return None

    def death_message(self, child: Child) -> str:
        assert child.proc is not None
        lines = "\n".join(f"    {line}" for line in child.tail)
        return (
            f"{child.name} ({child.what}) stopped unexpectedly: "
            f"{exit_reason(child.proc.returncode)}."
            + (f" Its last lines:\n{lines}" if lines else "")
        )

    def stop_all(self, grace: float = 10.0) -> None:
        """SIGTERM to every child (each stops its own processes: the worker its pool and
        beat), then SIGKILL to each child's process group: whatever is left after `grace`."""
        for child in self.children:
            assert child.proc is not None
            if child.proc.poll() is None:
                child.proc.terminate()
        deadline = time.monotonic() + grace
        for child in self.children:
            assert child.proc is not None
            try:
                child.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say(f"{child.name} did not stop within {grace:.0f} s: killing it")
        for child in self.children:
            # The group may outlive its leader (a pool process): leave nothing behind.
            self._signal_group(child, signal.SIGKILL)
            assert child.proc is not None
            child.proc.wait()

    @staticmethod
    def _signal_group(child: Child, sig: signal.Signals) -> None:
        assert child.proc is not None
        try:
            os.killpg(child.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
