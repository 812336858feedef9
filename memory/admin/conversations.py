"""Admin of conversations: the current core as a form, its versions, the per-call traces and
the transcript, masked (staff never see contact details here)."""

from django.contrib import admin
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from chatwidget.platform.times import site_time
from memory.admin.common import fragment
from memory.admin.rights import ConversationRightsMixin
from memory.core import core_sections
from memory.models import ContextTrace, Conversation, Core, Turn
from memory.redaction import mask, never_kept_scrub

# --- conversations: the current core, its versions, the per-call traces ---
# and the transcript, MASKED (memory.redaction.mask): staff never see contact details here.

TRANSCRIPT_LIMIT = 200  # newest turns shown on the page (the export has them all)
TRACE_LIMIT = 50  # newest traces shown inline


def core_html(*, data: dict, covers_through: int) -> str:
    """A core as a readable form for staff (labels translated, values as stored)."""
    return fragment("core_form", sections=core_sections(data), covers_through=covers_through)


def _current_object_id(request: HttpRequest) -> str | None:
    match = getattr(request, "resolver_match", None)
    object_id = match.kwargs.get("object_id") if match else None
    return object_id if object_id and str(object_id).isdigit() else None


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class CoreInline(_ReadOnlyInline):
    """Every version of the condensed core, newest first."""

    model = Core
    verbose_name = _("core version")
    verbose_name_plural = _("core versions")
    fields = (
        "version",
        "covers_through_seq",
        "source",
        "token_count",
        "condense_tokens",
        "repairs",
        "created_at",
        "core_form",
    )
    readonly_fields = fields
    ordering = ("-version",)

    @admin.display(description=_("Condensation tokens (prompt / completion)"))
    def condense_tokens(self, core: Core) -> str:
        return f"{core.condense_prompt_tokens} / {core.condense_completion_tokens}"

    @admin.display(description=_("Core"))
    def core_form(self, core: Core) -> str:
        return core_html(data=core.data, covers_through=core.covers_through_seq)


class ContextTraceInline(_ReadOnlyInline):
    """What each model call was sent: tokens per section, turn ids, what was left out."""

    model = ContextTrace
    verbose_name = _("model call")
    verbose_name_plural = _("model calls (newest first; what the model was sent)")
    fields = (
        "created_at",
        "request_seq",
        "mode",
        "model_name",
        "tokens_per_section",
        "budget_line",
        "verbatim",
        "core_line",
        "left_out",
        "inline_condensed",
    )
    readonly_fields = fields
    ordering = ("-request_seq", "-id")

    def get_queryset(self, request: HttpRequest):
        qs = super().get_queryset(request)
        object_id = _current_object_id(request)
        if object_id is None:
            return qs.none()
        newest = list(
            qs.filter(conversation_id=object_id)
            .order_by("-id")
            .values_list("pk", flat=True)[:TRACE_LIMIT]
        )
        return qs.filter(pk__in=newest)

    @admin.display(description=_("Tokens per section"))
    def tokens_per_section(self, trace: ContextTrace) -> str:
        return fragment("lines", lines=[f"{k}: {v}" for k, v in trace.sections.items()])

    @admin.display(description=_("Total / budget (answer reserve)"))
    def budget_line(self, trace: ContextTrace) -> str:
        return f"{trace.total_tokens} / {trace.budget} ({trace.reserve})"

    @admin.display(description=_("Verbatim turns"))
    def verbatim(self, trace: ContextTrace) -> str:
        return _seq_ranges(trace.verbatim_seqs)

    @admin.display(description=_("Core"))
    def core_line(self, trace: ContextTrace) -> str:
        if not trace.core_version:
            return "-"
        return _("v%(v)s, covers turns 1–%(n)s") % {
            "v": trace.core_version,
            "n": trace.core_covers_through,
        }


def _seq_ranges(seqs: list[int]) -> str:
    """[1, 2, 3, 7, 8] -> "1–3, 7–8"."""
    parts, start, prev = [], None, None
    for seq in sorted(seqs):
        if start is None:
            start = prev = seq
        elif seq == prev + 1:
            prev = seq
        else:
            parts.append(f"{start}–{prev}" if prev != start else str(start))
            start = prev = seq
    if start is not None:
        parts.append(f"{start}–{prev}" if prev != start else str(start))
    return ", ".join(parts) or "-"


@admin.register(Conversation)
class ConversationAdmin(ConversationRightsMixin, admin.ModelAdmin):
    """Read-only. List: site, state, started, last activity, turns, core version. Detail: the
    current core as a form, the masked transcript, core versions and model calls inline.
    Extend with `actions` (ConversationRightsMixin adds export and erase)."""

    # Times in the conversation's site's zone, named (chatwidget.platform.times.site_time).
    list_display = ("id", "site", "state", "started", "last_activity", "turn_total", "core_version")
    list_filter = ("state", "site")
    list_select_related = ("site",)
    actions: list = []
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "site",
                    "state",
                    "language",
                    "started",
                    "last_activity",
                    "turn_total",
                    "findings",
                )
            },
        ),
        (_("Current condensed core"), {"fields": ("current_core",)}),
        (_("Transcript (masked)"), {"fields": ("transcript",)}),
    )
    readonly_fields = (
        "site",
        "state",
        "language",
        "started",
        "last_activity",
        "turn_total",
        "findings",
        "current_core",
        "transcript",
    )
    inlines = [CoreInline, ContextTraceInline]

    def get_queryset(self, request: HttpRequest):
        turns = (
            Turn.objects.filter(conversation=OuterRef("pk"))
            .order_by()
            .values("conversation")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return (
            super()
            .get_queryset(request)
            .annotate(turn_count=Coalesce(Subquery(turns, output_field=IntegerField()), 0))
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # erasure is the audited `erase` action

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict | None = None,
    ):
        """The heading says which conversation this is; a link leads to its handover case
        (by URL: memory does not import handover), whose page links back here."""
        conv = (
            Conversation.objects.select_related("site").filter(pk=object_id).first()
            if str(object_id).isdigit()
            else None
        )
        if conv is not None:
            extra_context = {
                **(extra_context or {}),
                "title": gettext("Conversation %(id)s") % {"id": conv.pk},
                "subtitle": gettext("%(site)s, started %(time)s")
                % {
                    "site": conv.site.name,
                    "time": site_time(conv.created_at, time_zone=conv.site.time_zone),
                },
                "cases_url": (
                    f"{reverse('admin:handover_case_changelist')}?conversation__exact={conv.pk}"
                )
                if conv.case_hold or conv.case_resolved_at
                else "",
            }
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description=_("started"), ordering="created_at")
    def started(self, conv: Conversation) -> str:
        return site_time(conv.created_at, time_zone=conv.site.time_zone)

    @admin.display(description=_("last activity"), ordering="last_activity_at")
    def last_activity(self, conv: Conversation) -> str:
        return site_time(conv.last_activity_at, time_zone=conv.site.time_zone)

    @admin.display(description=_("turns"), ordering="turn_count")
    def turn_total(self, conv: Conversation) -> int:
        return getattr(conv, "turn_count", None) or conv.turns.count()

    @admin.display(description=_("Current core"))
    def current_core(self, conv: Conversation) -> str:
        core = conv.cores.filter(version=conv.core_version).first()
        if core is None:
            return _("No condensed core yet: every turn is still sent verbatim.")
        return core_html(data=core.data, covers_through=core.covers_through_seq)

    @admin.display(description=_("Transcript"))
    def transcript(self, conv: Conversation) -> str:
        turns = list(
            conv.turns.order_by("-seq").only(
                "seq", "role", "text", "spans", "health", "token_count", "created_at", "attachments"
            )[:TRANSCRIPT_LIMIT]
        )
        turns.reverse()
        rows = []
        for turn in turns:
            try:
                text = never_kept_scrub(mask(turn.text, turn.spans))  # the second gate
            except ValueError:
                text = str(_("[this turn cannot be shown masked]"))
            rows.append(
                {
                    "seq": turn.seq,
                    "role": turn.get_role_display(),
                    "time": site_time(turn.created_at, time_zone=conv.site.time_zone),
                    "tokens": turn.token_count,
                    "health": " ⚕" if turn.health else "",
                    "text": text,
                    # a visitor's photos and files (issue 33): their names; the files
                    # themselves are on the case page (handover/admin_attachments.py)
                    "attachments": [a.get("name", "") for a in turn.attachments or []],
                }
            )
        total = getattr(conv, "turn_count", None) or len(turns)
        return fragment("transcript", rows=rows, total=total)
