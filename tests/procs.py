"""Helpers for tests that start real processes on 127.0.0.1."""

import hashlib
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = ("chatwidget", "memory", "handover")  # the packages whose migrations make a schema
# Settings modules whose migrated schema is another's: one template serves both.
SAME_SCHEMA = {"tests.e2e.stack_settings": "chatwidget.settings.local"}


PORTS_FROM = 20000  # the lowest port a test server is given (free_port)


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on, for a server a test starts later.

    Chosen below the kernel's ephemeral range: a port from bind(0) is free again once the
    probe closes, and until the server binds it, any outgoing connection of the suite (the
    database, Redis, the fake model, another xdist worker's clients) may take it as its
    local port; the server then fails to start. The suite's own connections never use a port
    below that range. Where the range is unknown or starts low, bind(0) as before."""
    low = _ephemeral_low()
    if low > PORTS_FROM + 1000:
        rng = random.SystemRandom()
        for _ in range(64):
            port = rng.randrange(PORTS_FROM, low)
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen | None = None, timeout: float = 30) -> None:
    """Wait until something listens on `port`; fail early if `proc` exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited early with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"port {port} not ready after {timeout}s")


def schema_key(settings_module: str) -> str:
    """What the migrated schema depends on: every migration file, Django's version and the
    settings module (a data migration may read settings)."""
    import django

    digest = hashlib.sha256(f"{django.__version__} {settings_module}".encode())
    for package in MIGRATIONS:
        for path in sorted((ROOT / package).rglob("migrations/*.py")):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def migrated_sqlite(path: Path, env: dict) -> None:
    """A migrated SQLite database at `path` for processes started with `env`: a copy of a
    template that `manage.py migrate` made once for these migrations (a file in the temp
    folder named by their hash), so no stack or module of the suite runs `migrate` again.
    Under pytest-xdist the first process that needs it makes it (the file appears whole, by
    rename), the others copy it; a changed migration gets a template of its own."""
    settings_module = env.get("DJANGO_SETTINGS_MODULE", "chatwidget.settings.local")
    settings_module = SAME_SCHEMA.get(settings_module, settings_module)
    folder = Path(tempfile.gettempdir()) / "chatwidget-test-schemas"
    folder.mkdir(exist_ok=True)
    template = folder / f"migrated-{schema_key(settings_module)}.sqlite3"
    if not template.exists():
        fd, making = tempfile.mkstemp(dir=folder, suffix=".part")
        os.close(fd)
        try:
            done = subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=ROOT,
                env={**env, "DATABASE_URL": f"sqlite:///{making}"},
                capture_output=True,
                text=True,
                timeout=300,
            )
            if done.returncode:
                raise RuntimeError(f"migrate failed:\n{done.stdout}{done.stderr}")
            os.replace(making, template)
        finally:
            Path(making).unlink(missing_ok=True)
    shutil.copyfile(template, path)


def _static_key() -> str:
    """What `collectstatic` makes depends on: the project's static files and the pinned
    packages (Django's admin files, WhiteNoise's compression)."""
    digest = hashlib.sha256((ROOT / "deploy" / "requirements.lock").read_bytes())
    for path in sorted(p for p in (ROOT / "static").rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def collected_static(env: dict) -> Path:
    """A STATIC_ROOT as a release's `collectstatic` makes it (hashed, compressed files and
    their manifest) for processes that only read it: made once for these files (a folder in
    the temp folder named by their hash, renamed into place whole), then the same folder."""
    folder = Path(tempfile.gettempdir()) / "chatwidget-test-static"
    folder.mkdir(exist_ok=True)
    target = folder / f"static-{_static_key()}"
    if not target.is_dir():
        making = Path(tempfile.mkdtemp(dir=folder, prefix="part-"))
        try:
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                cwd=ROOT,
                env={**env, "STATIC_ROOT": str(making)},
                check=True,
                timeout=300,
            )
            making.rename(target)
        except OSError:  # another process made it meanwhile
            if not target.is_dir():
                raise
        finally:
            shutil.rmtree(making, ignore_errors=True)
    return target


def started_together(*starts) -> None:
    """Call each of `starts` at once, each in a thread of its own (a process start is mostly
    waiting for it to listen), and re-raise the first failure once all have returned."""
    with ThreadPoolExecutor(max_workers=max(len(starts), 1)) as pool:
        for started in [pool.submit(start) for start in starts]:
            started.result()
