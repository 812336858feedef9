"""A knowledge import whose worker process dies mid-run finishes once (issue 31).

A real Celery worker (prefork, one pool process) on a real Redis broker imports a sitemap
served slowly on 127.0.0.1. While the import runs, the pool process is SIGKILLed, as the
kernel's OOM killer would. Celery rejects the task back to the queue (reject on worker lost),
the worker's new pool process gets the same message again, finds the source's lock held under
that message's own id (the dead run's), takes it over and imports: every page once in the
catalogue, the source done, no run skipped. Before, the redelivery found the dead run's lock,
was skipped as "already running", and the source stayed "Importing" for good.

Needs PostgreSQL (TEST_DATABASE_URL, shared with the worker) and the redis-server binary;
skips with a message otherwise."""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import psutil
import pytest
from celery import Celery
from django.db import connection

from chatwidget.shop.knowledge.services import knowledge_source_ensure
from chatwidget.shop.models.knowledge import KnowledgeDocument, KnowledgeSource
from tests.conftest import ROOT
from tests.integration.cluster import RedisServer, Worker, database_url, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PAGES = 8
PAGE_DELAY = 0.4  # seconds per page: the import takes a few seconds, long enough to kill it
TASK = "memory.knowledge.import_source"


class SlowShop:
    """A sitemap of PAGES pages on 127.0.0.1; each page answers after PAGE_DELAY."""

    def __init__(self) -> None:
        self.pages_served: list[str] = []
        shop = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                return

            def do_GET(self) -> None:
                if self.path == "/sitemap.xml":
                    locs = "".join(
                        f"<url><loc>{shop.url(f'/p{i}.html')}</loc></url>" for i in range(PAGES)
                    )
                    body = (
                        '<?xml version="1.0"?><urlset '
                        f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
                    ).encode()
                    ctype = "application/xml"
                else:
                    time.sleep(PAGE_DELAY)
                    shop.pages_served.append(self.path)
                    n = self.path.strip("/").split(".")[0]
                    body = f"<title>Page {n}</title><p>Wool care, page {n}.</p>".encode()
                    ctype = "text/html; charset=utf-8"
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def worker_env(broker_url: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("TEST_", "CELERY_", "OPENAI_"))
        and k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS"}
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
            "DATABASE_URL": database_url(dict(connection.settings_dict)),
            "REDIS_URL": broker_url,
            "CELERY_BROKER_URL": broker_url,
            "EGRESS_ALLOW_HOSTS": "127.0.0.1",  # the shop listens on loopback
            "PYTHONUNBUFFERED": "1",
            "TIKTOKEN_CACHE_DIR": os.environ.get(
                "TIKTOKEN_CACHE_DIR", str(ROOT.parent / "shared" / "tiktoken")
            ),
        }
    )
    return env


def test_an_import_whose_pool_process_is_killed_completes_once(site, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set TEST_DATABASE_URL): the worker shares the database")
    if shutil.which("redis-server") is None:
        pytest.skip("needs the redis-server binary (apt install redis-server)")
    broker = RedisServer(tmp_path, "broker")
    broker.start()
    shop = SlowShop()
    worker = Worker(worker_env(broker.url), tmp_path, name="importer", args=("-c", "1"))
    sender = Celery("test-sender", broker=broker.url, set_as_current=False)
    source = knowledge_source_ensure(site=site, location=shop.url("/sitemap.xml"))
    try:
        worker.start()
        sender.send_task(TASK, args=[source.pk])
        wait_until(lambda: len(shop.pages_served) >= 2, timeout=60, what="the import under way")
        source.refresh_from_db()
        assert source.status == KnowledgeSource.Status.RUNNING
        assert worker.process is not None and worker.process.popen is not None
        (pool,) = psutil.Process(worker.process.popen.pid).children()
        os.kill(pool.pid, signal.SIGKILL)  # the OOM killer's way: the main process lives on

        def finished() -> bool:
            source.refresh_from_db()
            return source.status not in {
                KnowledgeSource.Status.RUNNING,
                KnowledgeSource.Status.QUEUED,
                KnowledgeSource.Status.NEW,
            }

        wait_until(finished, timeout=90, what="the import, redelivered after the kill")
        log = worker.log_text()
        assert source.status == KnowledgeSource.Status.DONE, log[-3000:]
        assert "WorkerLostError" in log or "exited with 'signal 9" in log, log[-3000:]
        assert "already running; skipped" not in log
        assert "resumed after its run died" in log
        titles = sorted(KnowledgeDocument.objects.filter(site=site).values_list("title", flat=True))
        assert titles == sorted(f"Page p{i}" for i in range(PAGES)), "each page once"
        assert worker.alive, "the worker itself lived on"
    finally:
        sender.close()
        worker.kill()
        broker.stop()
        shop.close()
