"""Knowledge sources, documents and chunks of a site.

A source is where documents come from (a file, a folder, a URL, an upload); re-importing it
replaces changed documents and deletes the ones it no longer holds. A document is one
product or page, identified per site by its `external_id`; a chunk is the unit that is
searched and sent as an excerpt. The full-text index lives beside the chunk table (a
`tsvector` column with a GIN index on PostgreSQL, an FTS5 table on SQLite; see
chatwidget/shop/knowledge/backends.py), written in the same transaction as the chunks.
"""

from django.core.files.storage import Storage
from django.db import models
from django.utils.translation import gettext_lazy as _

from chatwidget.platform.storage import knowledge_storage


def upload_storage() -> Storage:
    """The storage alias `knowledge` (chatwidget/platform/storage.py): a local folder or object
    storage, read by the worker through the same API, never by a path."""
    return knowledge_storage()


class KnowledgeSource(models.Model):
    class Kind(models.TextChoices):
        PATH = "path", _("File or folder")
        URL = "url", _("Web page or sitemap")
        UPLOAD = "upload", _("Uploaded file")
        PLATFORM = "platform", _("Shop platform")

    class Status(models.TextChoices):
        NEW = "new", _("Not imported yet")
        QUEUED = "queued", _("Waiting for the worker")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Imported")
        ERRORS = "errors", _("Imported with errors")
        FAILED = "failed", _("Failed")

    site = models.ForeignKey(
        "sites.Site", on_delete=models.CASCADE, related_name="knowledge_sources"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    location = models.CharField(
        _("location"), max_length=1000, help_text=_("A path on the server or an http(s) URL.")
    )
    upload = models.FileField(
        _("uploaded file"), upload_to="knowledge/", blank=True, storage=upload_storage
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.NEW
    )
    progress_done = models.PositiveIntegerField(_("documents read"), default=0)
    errors = models.JSONField(_("errors"), default=list, blank=True)  # ["line 3: ...", ...]
    summary = models.JSONField(default=dict, blank=True)  # counts of the last run
    imported_at = models.DateTimeField(_("last import"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resync_hours = models.PositiveIntegerField(
        _("re-sync every (hours)"),
        default=0,
        help_text=_(
            "Import this source again on a schedule: 0 off, 1 hourly, 24 daily, 168 weekly, "
            "or any number of hours. Pages no longer in the sitemap, or answering 404 or 410, "
            "are removed; a page that fails for a while (5xx, timeout) is kept."
        ),
    )
    next_sync_at = models.DateTimeField(_("next re-sync"), null=True, blank=True)

    class Meta:
        db_table = "memory_knowledgesource"  # the table keeps its name from before the move
        verbose_name = _("knowledge source")
        verbose_name_plural = _("knowledge sources")
        ordering = ["site", "location"]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "location"], name="knowledge_source_unique_location"
            )
        ]

    def __str__(self) -> str:
        return self.location


class KnowledgeDocument(models.Model):
    site = models.ForeignKey(
        "sites.Site", on_delete=models.CASCADE, related_name="knowledge_documents"
    )
    source = models.ForeignKey(KnowledgeSource, on_delete=models.CASCADE, related_name="documents")
    external_id = models.CharField(_("id"), max_length=500)
    title = models.CharField(_("title"), max_length=500)
    url = models.CharField(_("URL"), max_length=1000, blank=True)
    identifiers = models.JSONField(_("identifiers"), default=list, blank=True)
    content_hash = models.CharField(max_length=64)
    token_count = models.PositiveIntegerField(_("tokens"), default=0)
    chunk_count = models.PositiveIntegerField(_("chunks"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # a page's HTTP validators, sent back on the next import: a 304 keeps the document
    etag = models.CharField(max_length=200, blank=True, default="")
    last_modified = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        db_table = "memory_knowledgedocument"  # the table keeps its name from before the move
        verbose_name = _("knowledge document")
        verbose_name_plural = _("knowledge documents")
        ordering = ["site", "title"]
        constraints = [
            models.UniqueConstraint(
                fields=["site", "external_id"], name="knowledge_document_unique_id"
            )
        ]

    def __str__(self) -> str:
        return self.title


class KnowledgeChunk(models.Model):
    """One excerpt: its text plus the document's title, URL and identifiers, denormalised so
    a search reads one table and an excerpt needs no join."""

    site = models.ForeignKey("sites.Site", on_delete=models.CASCADE, related_name="+")
    document = models.ForeignKey(KnowledgeDocument, on_delete=models.CASCADE, related_name="chunks")
    ordinal = models.PositiveIntegerField()
    title = models.CharField(max_length=500)
    url = models.CharField(max_length=1000, blank=True)
    identifiers = models.JSONField(default=list, blank=True)
    text = models.TextField()
    token_count = models.PositiveIntegerField(_("tokens"))  # of the excerpt as it is sent
    embedding = models.BinaryField(null=True, blank=True)  # float32, when EMBEDDING_MODEL is set

    class Meta:
        db_table = "memory_knowledgechunk"  # the table keeps its name from before the move
        verbose_name = _("knowledge chunk")
        verbose_name_plural = _("knowledge chunks")
        ordering = ["document", "ordinal"]
        indexes = [models.Index(fields=["site"], name="knowledge_chunk_site")]

    def __str__(self) -> str:
        return f"{self.title} #{self.ordinal}"


class KnowledgeTrace(models.Model):
    """What retrieval gave one model call: chunk ids with their final score, bonus, whether
    they were sent and, if not, why. Ids and numbers only, never text (as ContextTrace)."""

    trace = models.OneToOneField(
        "memory.ContextTrace", on_delete=models.CASCADE, related_name="knowledge"
    )
    chunks = models.JSONField(default=list)  # [{"chunk", "score", "bonus", "sent", "why"?}]
    tokens = models.PositiveIntegerField(default=0)  # the excerpts' share of the call
    room = models.PositiveIntegerField(default=0)  # what the budget could give them
    # the service topics the message asked about (knowledge/topics.py: names), which led
    # retrieval to their pages
    topics = models.JSONField(default=list, blank=True)

    class Meta:
        db_table = "memory_knowledgetrace"  # the table keeps its name from before the move
        verbose_name = _("knowledge retrieval")
        verbose_name_plural = _("knowledge retrievals")

    def __str__(self) -> str:
        return f"knowledge of trace {self.trace_id}"
