"""An uploaded knowledge file, imported end to end by two processes that share only what a
deployment shares (issue 31): the database, the broker (Redis) and the upload storage. The
web process (Daphne) and the Celery worker each run in a working folder of their own, with
their own RUN_DIR (the embedded defaults' files), as two containers or pods would: the owner
uploads through the admin over HTTP, the worker reads the file through the storage API."""

import json
import os
import secrets
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from chatwidget.shop.models.knowledge import KnowledgeDocument, KnowledgeSource
from tests.integration.cluster import Daphne, Worker, admin_login, database_url
from tests.procs import started_together

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

FEED = "\n".join(
    json.dumps({"id": f"SKU-{i}", "title": f"Wool sock {i}", "text": f"Merino wool sock {i}."})
    for i in range(5)
).encode()


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = secrets.token_hex(12)
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    for name, (filename, content) in files.items():
        head = (
            f"--{boundary}\r\nContent-Disposition: form-data; "
            f'name="{name}"; filename="{filename}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        )
        parts.append(head.encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def process_env(folder: Path, storage: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEST_", "CELERY_"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "chatwidget.settings.local",
            "DATABASE_URL": database_url(connection.settings_dict),
            "REDIS_URL": settings.TEST_REDIS_URL,  # channel layer, cache and broker
            "RUN_DIR": str(folder / "run"),
            "KNOWLEDGE_UPLOAD_DIR": str(storage),  # the one shared volume (or S3 bucket)
            "TIKTOKEN_CACHE_DIR": settings.TIKTOKEN_CACHE_DIR,
            "PYTHONUNBUFFERED": "1",
            "DEBUG": "0",
        }
    )
    return env


def test_upload_on_web_imported_by_a_worker_in_another_folder(site, django_user_model, tmp_path):
    if connection.vendor != "postgresql" or not settings.TEST_REDIS_URL:
        pytest.skip("needs PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL)")
    # the processes hash with PBKDF2 (the test settings' MD5 is theirs only)
    encoded = PBKDF2PasswordHasher().encode("pw-owner-31", secrets.token_hex(6), iterations=1000)
    django_user_model.objects.create(
        username="owner", password=encoded, is_staff=True, is_superuser=True
    )
    storage = tmp_path / "storage"
    folders = {name: tmp_path / name for name in ("web", "worker")}
    for folder in folders.values():
        folder.mkdir()
    # DEBUG: the admin's pages name unhashed static files (no collectstatic for this test)
    web_env = {**process_env(folders["web"], storage), "DEBUG": "1"}
    web = Daphne("web", web_env, tmp_path, cwd=folders["web"])
    worker = Worker(process_env(folders["worker"], storage), tmp_path, cwd=folders["worker"])
    try:
        started_together(web.start, worker.start)  # side by side: a start is mostly waiting
        opener, csrf = admin_login(web.http, username="owner", password="pw-owner-31")
        body, ctype = multipart(
            {"site": str(site.pk), "url": "", "csrfmiddlewaretoken": csrf},
            {"file": ("socks.jsonl", FEED)},
        )
        request = urllib.request.Request(
            f"{web.http}/admin/shop/knowledgesource/add/",
            data=body,
            headers={"Content-Type": ctype, "Referer": f"{web.http}/admin/"},
        )
        with opener.open(request, timeout=30) as response:
            assert response.status == 200 and "/add/" not in response.url, response.read()[-2000:]
        source = KnowledgeSource.objects.get(site=site)
        deadline = time.monotonic() + 90
        while source.status not in ("done", "errors", "failed") and time.monotonic() < deadline:
            time.sleep(0.3)
            source.refresh_from_db()
        assert source.status == "done", (source.status, source.errors, worker.log_text()[-3000:])
        assert KnowledgeDocument.objects.filter(source=source).count() == 5
        assert "memory.knowledge.import_source" in worker.log_text()
        # the file lives in the shared storage only, under its storage name
        assert (storage / source.upload.name).read_bytes() == FEED
        for folder in folders.values():
            assert not list(folder.rglob("socks*.jsonl"))
    finally:
        worker.stop()
        web.process.kill()
