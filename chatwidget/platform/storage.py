"""Where uploaded files live, readable by every process (issue 31).

The web process saves an upload and the Celery worker reads it, often in another container,
pod or machine. Both go through Django's storage API with the alias `knowledge` of
`settings.STORAGES` (chatwidget/settings/operations.py): a local folder on one machine
(`UploadFolderStorage`, `KNOWLEDGE_UPLOAD_DIR`), S3-compatible object storage beyond it
(django-storages, `STORAGE_S3_BUCKET`). Nobody hands a local path to another process.

`KnowledgeStorage` is what a model's FileField holds: a Storage that asks the registry for
the configured backend at each call, so the field (built once, at import) follows the
settings, tests that change STORAGES included.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.files.storage import FileSystemStorage, Storage, storages

KNOWLEDGE_ALIAS = "knowledge"
# visitors' photos and files (issue 33): the same backends, their own folder or prefix
VISITOR_UPLOADS_ALIAS = "visitor_uploads"


class UploadFolderStorage(FileSystemStorage):
    """A local folder: KNOWLEDGE_UPLOAD_DIR, else `.run/knowledge-uploads` beside the embedded
    defaults. Read at each use, not once at start-up, so settings changed later apply."""

    @property
    def base_location(self) -> str:
        return str(
            getattr(settings, "KNOWLEDGE_UPLOAD_DIR", "") or settings.RUN_DIR / "knowledge-uploads"
        )

    @property
    def location(self) -> str:
        return os.path.abspath(self.base_location)


def knowledge_backend() -> Storage:
    """The configured backend (the registry caches one instance per alias)."""
    return storages[KNOWLEDGE_ALIAS]


class KnowledgeStorage(Storage):
    """Forwards every call to `knowledge_backend()`. Deconstructs to itself, so migrations
    name no backend and switching backends needs none."""

    def _backend(self) -> Storage:
        return knowledge_backend()

    def open(self, name: str, mode: str = "rb") -> Any:
        return self._backend().open(name, mode)

    def save(self, name: str | None, content: Any, max_length: int | None = None) -> str:
        return self._backend().save(name, content, max_length=max_length)

    def delete(self, name: str) -> None:
        self._backend().delete(name)

    def exists(self, name: str) -> bool:
        return self._backend().exists(name)

    def size(self, name: str) -> int:
        return self._backend().size(name)

    def url(self, name: str | None) -> str:
        return self._backend().url(name)

    def path(self, name: str) -> str:
        # Only local backends have one; nothing in the project asks (the worker may not share it).
        return self._backend().path(name)

    def listdir(self, path: str) -> tuple[list[str], list[str]]:
        return self._backend().listdir(path)

    def generate_filename(self, filename: str | os.PathLike[str]) -> str:
        return self._backend().generate_filename(filename)

    def get_available_name(self, name: str, max_length: int | None = None) -> str:
        return self._backend().get_available_name(name, max_length=max_length)

    def get_valid_name(self, name: str) -> str:
        return self._backend().get_valid_name(name)

    def get_modified_time(self, name: str) -> Any:
        return self._backend().get_modified_time(name)

    def deconstruct(self) -> tuple[str, tuple, dict]:
        return ("chatwidget.platform.storage.KnowledgeStorage", (), {})


def knowledge_storage() -> Storage:
    return KnowledgeStorage()


class VisitorUploadFolderStorage(UploadFolderStorage):
    """A local folder for visitors' uploads: VISITOR_UPLOAD_DIR, else `.run/visitor-uploads`."""

    @property
    def base_location(self) -> str:
        return str(
            getattr(settings, "VISITOR_UPLOAD_DIR", "") or settings.RUN_DIR / "visitor-uploads"
        )


class VisitorUploadStorage(KnowledgeStorage):
    """What memory.Attachment's FileField holds: forwards to the `visitor_uploads` alias."""

    def _backend(self) -> Storage:
        return storages[VISITOR_UPLOADS_ALIAS]

    def deconstruct(self) -> tuple[str, tuple, dict]:
        return ("chatwidget.platform.storage.VisitorUploadStorage", (), {})
