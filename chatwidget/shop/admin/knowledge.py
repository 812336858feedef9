"""Admin: the Knowledge section, per site (filter by site). Sources are added as a URL or
an uploaded file (paths on the server only through `manage.py knowledge_import`), imported
on the Celery worker with their progress on the source's page, re-imported and deleted
with a list action, re-synced on the schedule the owner sets on the source's page (last and
next sync shown); documents and their chunks are listed with their token counts.

Thin: the form parses, one service call writes, the task runs the import.
"""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Count
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from chatwidget.platform.egress import url_problem
from chatwidget.shop.knowledge.services import knowledge_source_ensure
from chatwidget.shop.knowledge.sources import (
    RESYNC_KINDS,
    RESYNC_MAX_HOURS,
    knowledge_document_delete,
    knowledge_import_queued,
    knowledge_resync_set,
    knowledge_source_delete,
    knowledge_source_upload,
)
from chatwidget.shop.knowledge.topics import topic_labels
from chatwidget.shop.models.knowledge import (
    KnowledgeChunk,
    KnowledgeDocument,
    KnowledgeSource,
    KnowledgeTrace,
)
from chatwidget.shop.tasks import knowledge_import_source
from chatwidget.sites.models import Site


def _enqueue(sources: list[KnowledgeSource]) -> None:
    for source in sources:
        knowledge_import_queued(source=source)
        transaction.on_commit(lambda pk=source.pk: knowledge_import_source.delay(pk))


class SourceAddForm(forms.ModelForm):
    url = forms.URLField(label=_("Web page or sitemap URL"), required=False, assume_scheme="https")
    file = forms.FileField(label=_("File (.jsonl, .md or .html)"), required=False)

    class Meta:
        model = KnowledgeSource
        fields = ["site"]

    def clean(self) -> dict:
        data = super().clean()
        if bool(data.get("url")) == bool(data.get("file")):
            raise forms.ValidationError(_("Give either a URL or a file."))
        upload = data.get("file")
        if upload and not upload.name.lower().endswith(
            (".jsonl", ".md", ".markdown", ".html", ".htm")
        ):
            raise forms.ValidationError(_("The file must be .jsonl, .md or .html."))
        if upload and upload.size > settings.KNOWLEDGE_UPLOAD_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(mb)d MB.")
                % {"mb": settings.KNOWLEDGE_UPLOAD_MAX_BYTES // (1024 * 1024)}
            )
        url = self.cleaned_data.get("url")
        problem = url_problem(url) if url else None
        if problem:  # said now; the import's guard refuses it again after resolving
            self.add_error("url", problem)
        return data


CUSTOM = -1
RESYNC_CHOICES = [
    (0, _("Off")),
    (1, _("Hourly")),
    (24, _("Daily")),
    (168, _("Weekly")),
    (CUSTOM, _("Every … hours (below)")),
]


class SourceScheduleForm(forms.ModelForm):
    """The owner's re-sync schedule for a URL or path source: a preset or any hours."""

    every = forms.TypedChoiceField(label=_("Re-sync"), choices=RESYNC_CHOICES, coerce=int)
    hours = forms.IntegerField(
        label=_("Hours between re-syncs"),
        min_value=1,
        max_value=RESYNC_MAX_HOURS,
        required=False,
        help_text=_(
            "With “Every … hours”. A re-sync removes pages no longer in the sitemap or "
            "answering 404 or 410, and keeps a page that fails for a while (5xx, timeout)."
        ),
    )

    class Meta:
        model = KnowledgeSource
        fields: list[str] = []

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        hours = self.instance.resync_hours if self.instance.pk else 0
        preset = hours in dict(RESYNC_CHOICES)
        self.fields["every"].initial = hours if preset else CUSTOM
        self.fields["hours"].initial = None if preset else hours

    def clean(self) -> dict:
        data = super().clean() or {}
        every = data.get("every")
        if every == CUSTOM and not data.get("hours"):
            self.add_error("hours", _("Give the hours between re-syncs."))
        data["resync_hours"] = (data.get("hours") or 0) if every == CUSTOM else (every or 0)
        return data


@admin.register(KnowledgeSource)
class KnowledgeSourceAdmin(admin.ModelAdmin):
    list_display = (
        "location",
        "site",
        "kind",
        "status",
        "progress_done",
        "document_count",
        "imported_at",
        "next_sync",
    )
    list_filter = ("site", "status", "kind")
    search_fields = ("location",)
    actions = ["reimport"]
    change_form_template = "admin/shop/knowledgesource_change_form.html"
    readonly_fields = (
        "site",
        "kind",
        "location",
        "status",
        "progress_done",
        "errors",
        "summary",
        "imported_at",
        "next_sync",
    )

    def get_queryset(self, request: HttpRequest):
        return (
            super().get_queryset(request).select_related("site").annotate(n_docs=Count("documents"))
        )

    @admin.display(description=_("documents"), ordering="n_docs")
    def document_count(self, obj: KnowledgeSource) -> int:
        return obj.n_docs

    @admin.display(description=_("next re-sync"), ordering="next_sync_at")
    def next_sync(self, obj: KnowledgeSource) -> str:
        if not obj.resync_hours or obj.next_sync_at is None:
            return str(_("off"))
        return date_format(timezone.localtime(obj.next_sync_at), "DATETIME_FORMAT")

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = SourceAddForm if obj is None else SourceScheduleForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["site", "url", "file"]
        schedule = ["every", "hours"] if obj.kind in RESYNC_KINDS else []
        return schedule + list(self.readonly_fields)

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def save_model(self, request, obj, form, change) -> None:
        if change:  # only the schedule is editable
            if "resync_hours" in form.cleaned_data:
                knowledge_resync_set(source=obj, hours=form.cleaned_data["resync_hours"])
            return
        site: Site = form.cleaned_data["site"]
        if form.cleaned_data.get("url"):
            source = knowledge_source_ensure(site=site, location=form.cleaned_data["url"])
        else:
            upload = form.cleaned_data["file"]
            source = knowledge_source_upload(site=site, name=upload.name, content=upload)
        obj.pk, obj.site, obj.location, obj.kind = source.pk, site, source.location, source.kind
        _enqueue([source])

    @admin.action(description=_("Re-import the selected sources"))
    def reimport(self, request: HttpRequest, queryset) -> None:
        sources = list(queryset)
        _enqueue(sources)
        self.message_user(
            request,
            ngettext(
                "%(n)d source queued for import.", "%(n)d sources queued for import.", len(sources)
            )
            % {"n": len(sources)},
            messages.SUCCESS,
        )

    def delete_model(self, request: HttpRequest, obj: KnowledgeSource) -> None:
        knowledge_source_delete(source=obj)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for source in queryset:
            knowledge_source_delete(source=source)


class ChunkInline(admin.TabularInline):
    model = KnowledgeChunk
    fields = ("ordinal", "token_count", "text")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(KnowledgeDocument)
class KnowledgeDocumentAdmin(admin.ModelAdmin):
    list_display = (
        "title",
        "external_id",
        "site",
        "source",
        "chunk_count",
        "token_count",
        "updated_at",
    )
    list_filter = ("site", "source")
    search_fields = ("title", "external_id", "url")
    list_select_related = ("site", "source")
    readonly_fields = (
        "site",
        "source",
        "external_id",
        "title",
        "url",
        "identifiers",
        "chunk_count",
        "token_count",
        "content_hash",
        "updated_at",
    )
    fields = readonly_fields
    inlines = [ChunkInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # documents come from sources

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # read-only: change the source and re-import

    def delete_model(self, request: HttpRequest, obj: KnowledgeDocument) -> None:
        knowledge_document_delete(document=obj)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for document in queryset:
            knowledge_document_delete(document=document)


LEFT_OUT_REASONS = {
    "knowledge_low_score": _("far below the best match (under 0.3 times its score)"),
    "knowledge_over_budget": _("did not fit the knowledge share of the context budget"),
}


@admin.register(KnowledgeTrace)
class KnowledgeTraceAdmin(admin.ModelAdmin):
    """What retrieval gave each model call: chunk ids, scores, bonus, sent or why not."""

    list_display = ("trace", "conversation", "tokens", "room", "sent", "left_out")
    list_select_related = ("trace",)
    readonly_fields = ("trace", "tokens", "room", "service_topics", "retrieved")
    fields = readonly_fields

    @admin.display(description=_("service topics asked"))
    def service_topics(self, obj: KnowledgeTrace) -> str:
        """What led retrieval to a service page in other words than the visitor's."""
        return ", ".join(topic_labels(obj.topics or [])) or "–"

    @admin.display(description=_("retrieved"))
    def retrieved(self, obj: KnowledgeTrace) -> str:
        """Each excerpt as staff read it: title and link, score, sent or why it was left out
        (an excerpt deleted since shows its id)."""
        found: dict[int, dict[str, str]] = {
            c["pk"]: {"title": c["title"], "url": c["url"]}
            for c in KnowledgeChunk.objects.filter(
                pk__in=[r.get("chunk") for r in obj.chunks]
            ).values("pk", "title", "url")
        }
        rows = [
            {
                "title": found.get(r.get("chunk"), {}).get("title")
                or _("excerpt %(id)s (deleted since)") % {"id": r.get("chunk")},
                "url": found.get(r.get("chunk"), {}).get("url", ""),
                "score": r.get("score", 0) + r.get("bonus", 0),
                "sent": bool(r.get("sent")),
                "kept": bool(r.get("kept")),
                "why": LEFT_OUT_REASONS.get(r.get("why", ""), r.get("why", "")),
            }
            for r in obj.chunks
        ]
        return render_to_string("admin/shop/knowledge_trace_rows.html", {"rows": rows})

    @admin.display(description=_("conversation"))
    def conversation(self, obj: KnowledgeTrace) -> int:
        return obj.trace.conversation_id

    @admin.display(description=_("sent"))
    def sent(self, obj: KnowledgeTrace) -> int:
        return sum(1 for c in obj.chunks if c.get("sent"))

    @admin.display(description=_("left out"))
    def left_out(self, obj: KnowledgeTrace) -> int:
        return sum(1 for c in obj.chunks if not c.get("sent"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
