"""Admin of the memory app.

Who owns what in this file (several engineers work on it; edit surgically):
- ConversationAdmin: the memory issue (list, detail, transcript). It must keep
  `ConversationRightsMixin` FIRST in its bases: the mixin adds the data-subject actions
  (export, erase; owner-only permissions, a stated reason, an audit event each) and hides
  expired conversations before the purge has run.
- RetentionPolicyAdmin, AuditEventAdmin, ConversationRightsMixin: the retention issue.
- ProfileAdmin, ProfileFactInline (the section at the end): the recognition issue.

Thin: forms parse and authorise, one service call does the work (memory.services,
memory.retention).
"""

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from memory import profiles
from memory.core import CORE_LABELS
from memory.erasure import conversation_erase
from memory.models import (
    AuditEvent,
    ContextTrace,
    Conversation,
    Core,
    Profile,
    ProfileFact,
    RetentionPolicy,
    Turn,
)
from memory.redaction import mask
from memory.retention import POLICY_FIELDS, retention_policy_update
from memory.selectors import conversations_live
from memory.services import conversation_export_for_staff

EXPORT_PERMISSION = "memory.export_conversation"
ERASE_PERMISSION = "memory.erase_conversation"
REVEAL_PERMISSION = "handover.reveal_plaintext"


# --- retention policy (owner-only changes, every change logged) ---------------------------------


@admin.register(RetentionPolicy)
class RetentionPolicyAdmin(admin.ModelAdmin):
    """Changing needs `memory.change_retentionpolicy` (the Owner group); with only the view
    permission a staff user sees the periods read-only, without it not at all."""

    list_display = ("site", *POLICY_FIELDS, "updated_at", "updated_by")
    fields = ("site", *POLICY_FIELDS, "updated_at", "updated_by")
    readonly_fields = ("site", "updated_at", "updated_by")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # every site gets its policy when it is created

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def save_model(self, request: HttpRequest, obj: RetentionPolicy, form, change: bool) -> None:  # noqa: ANN001
        saved = retention_policy_update(
            site_id=obj.site_id, actor=request.user,
            values={field: form.cleaned_data[field] for field in POLICY_FIELDS},
        )
        obj.updated_at, obj.updated_by = saved.updated_at, saved.updated_by


# --- the audit log (read-only, owners only) -------------------------------------------------------


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Visible with `memory.view_auditevent` (the Owner group); nobody edits or deletes it:
    entries go when the audit period of the retention policy is over."""

    list_display = ("at", "action", "actor_label", "site", "conversation_ref", "target", "reason")
    list_filter = ("action", "site")
    search_fields = ("actor_label", "target", "reason")
    date_hierarchy = "at"
    readonly_fields = ("at", "action", "actor", "actor_label", "site", "conversation_ref",
                       "target", "reason", "details")
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False


# --- data-subject rights on conversations ----------------------------------------------------------


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), min_length=5, max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Why, e.g. the visitor's request and how it reached you. It is logged."),
    )


class ExportForm(ReasonForm):
    plaintext = forms.BooleanField(
        label=_("Include unmasked e-mail addresses, phone numbers, IBANs and addresses"),
        required=False,
    )

    def __init__(self, *args, allow_plaintext: bool, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        if not allow_plaintext:
            del self.fields["plaintext"]


class EraseForm(ReasonForm):
    delete_cases = forms.BooleanField(
        label=_("Also delete the handover case records (reason and case note)"),
        required=False,
    )


class ConversationRightsMixin:
    """Export and erase for ConversationAdmin: list actions and per-conversation pages.

    Both need an owner-only permission (`memory.export_conversation`,
    `memory.erase_conversation`) and a reason; each conversation gets an audit event.
    Exports are masked unless the user also holds `handover.reveal_plaintext` and asks for
    plaintext. Expired conversations are not listed and not exported (reads treat expired
    data as gone before the purge has run)."""

    rights_template = "admin/memory/conversation_rights.html"

    def get_queryset(self, request: HttpRequest):  # noqa: ANN201
        return conversations_live(queryset=super().get_queryset(request))

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        if request.user.has_perm(EXPORT_PERMISSION):
            actions["export_conversations"] = self.get_action("export_conversations")
        if request.user.has_perm(ERASE_PERMISSION):
            actions["erase_conversations"] = self.get_action("erase_conversations")
        return actions

    def get_urls(self) -> list:
        prefix = f"{self.model._meta.app_label}_{self.model._meta.model_name}"
        wrap = self.admin_site.admin_view
        return [
            path("<path:object_id>/export/", wrap(self.export_view), name=f"{prefix}_export"),
            path("<path:object_id>/erase/", wrap(self.erase_view), name=f"{prefix}_erase"),
            *super().get_urls(),
        ]

    # -- per conversation --------------------------------------------------------------------

    def _live_or_404(self, request: HttpRequest, object_id: str) -> Conversation:
        conv = self.get_queryset(request).filter(pk=object_id).first() if object_id.isdigit() else None
        if conv is None:
            raise Http404(_("This conversation does not exist or has expired."))
        return conv

    def export_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if not request.user.has_perm(EXPORT_PERMISSION):
            raise PermissionDenied
        conv = self._live_or_404(request, object_id)
        return self._export(request, [conv], post_to="")

    def erase_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if not request.user.has_perm(ERASE_PERMISSION):
            raise PermissionDenied
        conv = self._live_or_404(request, object_id)
        return self._erase(request, [conv], post_to="")

    # -- list actions ---------------------------------------------------------------------------

    @admin.action(description=_("Export selected conversations (JSON, logged with a reason)"))
    def export_conversations(self, request: HttpRequest, queryset) -> HttpResponse | None:  # noqa: ANN001
        if not request.user.has_perm(EXPORT_PERMISSION):
            raise PermissionDenied
        return self._export(request, list(queryset), post_to="action")

    @admin.action(description=_("Erase selected conversations now (logged with a reason)"))
    def erase_conversations(self, request: HttpRequest, queryset) -> HttpResponse | None:  # noqa: ANN001
        if not request.user.has_perm(ERASE_PERMISSION):
            raise PermissionDenied
        return self._erase(request, list(queryset), post_to="action")

    # -- shared ---------------------------------------------------------------------------------

    def _submitted(self, request: HttpRequest) -> bool:
        return request.method == "POST" and request.POST.get("confirm") == "yes"

    def _export(self, request: HttpRequest, convs: list, *, post_to: str) -> HttpResponse:
        allow_plaintext = request.user.has_perm(REVEAL_PERMISSION)
        form = ExportForm(request.POST if self._submitted(request) else None,
                          allow_plaintext=allow_plaintext)
        if form.is_bound and form.is_valid():
            masked = not (allow_plaintext and form.cleaned_data.get("plaintext"))
            files = [
                conversation_export_for_staff(conversation_id=conv.pk, actor=request.user,
                                              reason=form.cleaned_data["reason"], masked=masked)
                for conv in convs
            ]
            if len(files) == 1:
                content, content_type, filename = files[0]
            else:
                content = json.dumps({"conversations": [json.loads(f[0]) for f in files]},
                                     ensure_ascii=False, indent=2)
                content_type, filename = "application/json", "conversations.json"
            response = HttpResponse(content, content_type=content_type)
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
            response["Cache-Control"] = "no-store"
            return response
        return self._render_rights(request, convs, form, kind="export", post_to=post_to)

    def _erase(self, request: HttpRequest, convs: list, *, post_to: str) -> HttpResponse:
        form = EraseForm(request.POST if self._submitted(request) else None)
        if form.is_bound and form.is_valid():
            for conv in convs:
                conversation_erase(conversation_id=conv.pk, actor=request.user,
                                   reason=form.cleaned_data["reason"],
                                   delete_cases=form.cleaned_data["delete_cases"])
            self.message_user(request, _("Conversations erased: %(n)d.") % {"n": len(convs)},
                              messages.SUCCESS)
            opts = self.model._meta
            return HttpResponseRedirect(reverse(
                f"admin:{opts.app_label}_{opts.model_name}_changelist",
                current_app=self.admin_site.name))
        return self._render_rights(request, convs, form, kind="erase", post_to=post_to)

    def _render_rights(self, request: HttpRequest, convs: list, form, *, kind: str,  # noqa: ANN001
                       post_to: str) -> HttpResponse:
        opts = self.model._meta
        context = {
            **self.admin_site.each_context(request),
            "opts": opts,
            "kind": kind,
            "title": _("Export conversations") if kind == "export" else _("Erase conversations"),
            "conversations": convs,
            "form": form,
            "as_action": post_to == "action",
            "action_name": f"{kind}_conversations",
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return render(request, self.rights_template, context)


# --- conversations (the memory issue): the current core, its versions, the per-call traces ---
# and the transcript, MASKED (memory.redaction.mask): staff never see contact details here.

TRANSCRIPT_LIMIT = 200  # newest turns shown on the page (the export has them all)
TRACE_LIMIT = 50  # newest traces shown inline



def _core_item(key: str, item) -> str:  # noqa: ANN001
    if key == "objects":
        return format_html("{} <strong>{}</strong>{}", item.get("kind", ""), item.get("id", ""),
                           f" ({item['label']})" if item.get("label") else "")
    if key == "constraints":
        return format_html("{}: <strong>{}</strong> ({})", item.get("what", ""),
                           item.get("value", ""),
                           _("turn %(n)s") % {"n": item.get("turn") or "-"})
    if key == "corrections":
        return format_html(
            "{}", _("was “%(was)s”, now “%(now)s” (turn %(n)s)")
            % {"was": item.get("was", ""), "now": item.get("now", ""), "n": item.get("turn") or "-"})
    return format_html("{}", item)


def core_html(*, data: dict, covers_through: int) -> str:
    """A core as a readable form for staff (labels translated, values as stored)."""
    rows = [format_html("<p>{}</p>", _("Condensed from turns 1–%(n)s; newer turns override it.")
                        % {"n": covers_through})]
    for key, label in CORE_LABELS:
        value = data.get(key)
        if not value:
            continue
        if isinstance(value, list):
            body = format_html("<ul>{}</ul>", format_html_join(
                "", "<li>{}</li>", ((_core_item(key, item),) for item in value)))
        else:
            body = format_html("{}", value)
        rows.append(format_html("<dt><strong>{}</strong></dt><dd>{}</dd>", label, body))
    return format_html("<dl>{}</dl>", mark_safe("".join(rows)))  # noqa: S308 (parts escaped)


def _current_object_id(request: HttpRequest) -> str | None:
    match = getattr(request, "resolver_match", None)
    object_id = match.kwargs.get("object_id") if match else None
    return object_id if object_id and str(object_id).isdigit() else None


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False


class CoreInline(_ReadOnlyInline):
    """Every version of the condensed core, newest first."""

    model = Core
    verbose_name = _("core version")
    verbose_name_plural = _("core versions")
    fields = ("version", "covers_through_seq", "source", "token_count", "condense_tokens",
              "repairs", "created_at", "core_form")
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
    fields = ("created_at", "request_seq", "mode", "model_name", "tokens_per_section",
              "budget_line", "verbatim", "core_line", "left_out", "inline_condensed")
    readonly_fields = fields
    ordering = ("-request_seq", "-id")

    def get_queryset(self, request: HttpRequest):  # noqa: ANN201
        qs = super().get_queryset(request)
        object_id = _current_object_id(request)
        if object_id is None:
            return qs.none()
        newest = list(qs.filter(conversation_id=object_id).order_by("-id")
                      .values_list("pk", flat=True)[:TRACE_LIMIT])
        return qs.filter(pk__in=newest)

    @admin.display(description=_("Tokens per section"))
    def tokens_per_section(self, trace: ContextTrace) -> str:
        return format_html_join(mark_safe("<br>"), "{}: {}", trace.sections.items())

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
        return _("v%(v)s, covers turns 1–%(n)s") % {"v": trace.core_version,
                                                    "n": trace.core_covers_through}


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

    list_display = ("id", "site", "state", "created_at", "last_activity_at", "turn_total",
                    "core_version")
    list_filter = ("state", "site")
    list_select_related = ("site",)
    actions: list = []
    fieldsets = (
        (None, {"fields": ("site", "state", "language", "created_at", "last_activity_at",
                           "turn_total", "findings")}),
        (_("Current condensed core"), {"fields": ("current_core",)}),
        (_("Transcript (masked)"), {"fields": ("transcript",)}),
    )
    readonly_fields = ("site", "state", "language", "created_at", "last_activity_at",
                       "turn_total", "findings", "current_core", "transcript")
    inlines = [CoreInline, ContextTraceInline]

    def get_queryset(self, request: HttpRequest):  # noqa: ANN201
        turns = (Turn.objects.filter(conversation=OuterRef("pk")).order_by()
                 .values("conversation").annotate(n=Count("pk")).values("n"))
        return super().get_queryset(request).annotate(
            turn_count=Coalesce(Subquery(turns, output_field=IntegerField()), 0))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False  # erasure is the audited `erase` action

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
        turns = list(conv.turns.order_by("-seq")
                     .only("seq", "role", "text", "spans", "health", "token_count", "created_at")
                     [:TRANSCRIPT_LIMIT])
        turns.reverse()
        rows = []
        for turn in turns:
            try:
                text = mask(turn.text, turn.spans)
            except ValueError:
                text = str(_("[this turn cannot be shown masked]"))
            rows.append((turn.seq, turn.get_role_display(),
                         turn.created_at.strftime("%Y-%m-%d %H:%M"), turn.token_count,
                         " ⚕" if turn.health else "", text))
        note = ""
        total = getattr(conv, "turn_count", None) or len(turns)
        if total > len(turns):
            note = format_html("<p>{}</p>", _("Showing the newest %(n)s of %(total)s turns.")
                               % {"n": len(turns), "total": total})
        table = format_html_join(
            "", '<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td>'
                '<td>{}{}</td></tr>', rows)
        head = format_html("<tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
                           _("role"), _("time"), _("tokens"), _("text"))
        return format_html('{}<table class="cw-transcript">{}{}</table>', note, head, table)


# --- recognition profiles (the recognition issue) ------------------------------------------------


APPROVE_PERMISSION = "memory.approve_profilefact"


class ProfileFactInline(admin.TabularInline):
    """The profile's facts, read-only: contact details masked (an owner reveals one with a
    reason, logged); proposed entries with approve and reject buttons for owners."""

    model = ProfileFact
    extra = 0
    can_delete = False
    fields = ("field", "key", "shown_value", "status", "source", "recorded_at", "review")
    readonly_fields = fields
    ordering = ("field", "key")

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    @admin.display(description=_("Value"))
    def shown_value(self, fact: ProfileFact) -> str:
        masked = profiles.profilefact_masked(fact=fact)
        if fact.field not in ProfileFact.SENSITIVE or not self._can_reveal:
            return masked
        url = reverse("admin:memory_profile_reveal", args=[fact.profile_id, fact.pk])
        return format_html('{} <a href="{}">{}</a>', masked, url, _("Reveal"))

    @admin.display(description=_("Source"))
    def source(self, fact: ProfileFact) -> str:
        if not fact.source_conversation:
            return "-"
        return _("conversation #%(c)s, turn %(s)s") % {"c": fact.source_conversation,
                                                         "s": fact.source_seq or "-"}

    @admin.display(description=_("Review"))
    def review(self, fact: ProfileFact) -> str:
        if fact.status != ProfileFact.Status.PROPOSED or not self._can_approve:
            return "-"
        # the change form is a <form>: buttons post to their own URLs with its CSRF token
        return format_html(
            '<button type="submit" class="button" formmethod="post" formaction="{}">{}</button> '
            '<button type="submit" class="button" formmethod="post" formaction="{}">{}</button>',
            reverse("admin:memory_profile_approve", args=[fact.profile_id, fact.pk]),
            _("Approve"),
            reverse("admin:memory_profile_reject", args=[fact.profile_id, fact.pk]),
            _("Reject"),
        )

    def get_formset(self, request: HttpRequest, obj=None, **kwargs):  # noqa: ANN001, ANN003, ANN201
        self._can_approve = request.user.has_perm(APPROVE_PERMISSION)
        self._can_reveal = request.user.has_perm(REVEAL_PERMISSION)
        return super().get_formset(request, obj, **kwargs)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    """Recognition profiles: view (masked), approve proposed facts (`approve_profilefact`),
    export and erase (the owner rights also used for conversations, with a reason, logged).
    Nobody edits a profile by hand; expired profiles are not listed."""

    list_display = ("id", "site", "created_at", "last_visit_at", "fact_count", "pending_count")
    list_filter = ("site",)
    date_hierarchy = "last_visit_at"
    readonly_fields = ("site", "created_at", "last_visit_at", "expires", "consents",
                       "conversations")
    fields = readonly_fields
    inlines = [ProfileFactInline]
    actions = ["approve_pending", "export_profiles", "erase_profiles"]
    rights_template = "admin/memory/profile_rights.html"

    def get_queryset(self, request: HttpRequest):  # noqa: ANN201
        qs = super().get_queryset(request).annotate(
            facts_n=Count("facts", distinct=True),
            pending_n=Count("facts", filter=Q(facts__status=ProfileFact.Status.PROPOSED),
                            distinct=True),
        )
        return profiles.profiles_live(queryset=qs)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False  # erase instead: it takes the linked transcripts too, with a reason

    def has_approve_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(APPROVE_PERMISSION)

    def has_export_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(EXPORT_PERMISSION)

    def has_erase_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(ERASE_PERMISSION)

    @admin.display(description=_("facts"), ordering="facts_n")
    def fact_count(self, obj: Profile) -> int:
        return obj.facts_n

    @admin.display(description=_("awaiting approval"), ordering="pending_n")
    def pending_count(self, obj: Profile) -> int:
        return obj.pending_n

    @admin.display(description=_("expires"))
    def expires(self, obj: Profile):  # noqa: ANN201
        return profiles.profile_expires_at(profile=obj)

    @admin.display(description=_("consent records"))
    def consents(self, obj: Profile) -> str:
        rows = obj.consent_set.order_by("granted_at")
        return format_html_join(
            mark_safe("<br>"), "{} ({}){}",
            ((c.granted_at, c.wording_version,
              _(", withdrawn %(at)s") % {"at": c.withdrawn_at} if c.withdrawn_at else "")
             for c in rows),
        ) or "-"

    @admin.display(description=_("linked conversations"))
    def conversations(self, obj: Profile) -> str:
        ids = list(obj.conversations.values_list("pk", flat=True))
        return ", ".join(f"#{pk}" for pk in ids) or "-"

    def get_urls(self) -> list:
        wrap = self.admin_site.admin_view
        fact = "<int:object_id>/fact/<int:fact_id>"
        return [
            path(f"{fact}/approve/", wrap(self.approve_view), name="memory_profile_approve"),
            path(f"{fact}/reject/", wrap(self.reject_view), name="memory_profile_reject"),
            path(f"{fact}/reveal/", wrap(self.reveal_view), name="memory_profile_reveal"),
            *super().get_urls(),
        ]

    # -- one fact ------------------------------------------------------------------------------

    def _fact_or_404(self, request: HttpRequest, object_id: int, fact_id: int) -> ProfileFact:
        profile = self.get_queryset(request).filter(pk=object_id).first()
        fact = profile.facts.filter(pk=fact_id).first() if profile else None
        if fact is None:
            raise Http404(_("This profile entry does not exist or has expired."))
        return fact

    def _back(self, object_id: int) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:memory_profile_change", args=[object_id],
                                            current_app=self.admin_site.name))

    def approve_view(self, request: HttpRequest, object_id: int, fact_id: int) -> HttpResponse:
        if request.method != "POST" or not self.has_approve_permission(request):
            raise PermissionDenied
        fact = self._fact_or_404(request, object_id, fact_id)
        if profiles.profilefact_approve(fact_ids=[fact.pk], actor=request.user):
            self.message_user(request, _("Approved: from now on the assistant may use it."),
                              messages.SUCCESS)
        return self._back(object_id)

    def reject_view(self, request: HttpRequest, object_id: int, fact_id: int) -> HttpResponse:
        if request.method != "POST" or not self.has_approve_permission(request):
            raise PermissionDenied
        fact = self._fact_or_404(request, object_id, fact_id)
        if profiles.profilefact_reject(fact_id=fact.pk, actor=request.user):
            self.message_user(request, _("Rejected and deleted."), messages.SUCCESS)
        return self._back(object_id)

    def reveal_view(self, request: HttpRequest, object_id: int, fact_id: int) -> HttpResponse:
        if not request.user.has_perm(REVEAL_PERMISSION):
            raise PermissionDenied
        fact = self._fact_or_404(request, object_id, fact_id)
        form = ReasonForm(request.POST if request.method == "POST" else None)
        plaintext = None
        if form.is_bound and form.is_valid():
            plaintext = profiles.profilefact_reveal(fact_id=fact.pk, actor=request.user,
                                                    reason=form.cleaned_data["reason"])
        return self._render_profile_rights(
            request, [fact.profile], form, kind="reveal", post_to="", fact=fact,
            masked=profiles.profilefact_masked(fact=fact), plaintext=plaintext,
        )

    # -- list actions --------------------------------------------------------------------------

    @admin.action(description=_("Approve every proposed entry of the selected profiles"),
                  permissions=["approve"])
    def approve_pending(self, request: HttpRequest, queryset) -> None:  # noqa: ANN001
        ids = list(ProfileFact.objects.filter(profile__in=queryset,
                                              status=ProfileFact.Status.PROPOSED)
                   .values_list("pk", flat=True))
        n = profiles.profilefact_approve(fact_ids=ids, actor=request.user)
        self.message_user(request, ngettext("%(n)d entry approved.", "%(n)d entries approved.",
                                            n) % {"n": n}, messages.SUCCESS)

    @admin.action(description=_("Export selected profiles (JSON, logged with a reason)"),
                  permissions=["export"])
    def export_profiles(self, request: HttpRequest, queryset) -> HttpResponse:  # noqa: ANN001
        items = list(queryset)
        allow_plaintext = request.user.has_perm(REVEAL_PERMISSION)
        form = ExportForm(request.POST if self._confirmed(request) else None,
                          allow_plaintext=allow_plaintext)
        if form.is_bound and form.is_valid():
            masked = not (allow_plaintext and form.cleaned_data.get("plaintext"))
            data = [profiles.profile_export_for_staff(profile_id=p.pk, actor=request.user,
                                                      reason=form.cleaned_data["reason"],
                                                      masked=masked) for p in items]
            body = data[0] if len(data) == 1 else {"profiles": data}
            response = HttpResponse(json.dumps(body, ensure_ascii=False, indent=2),
                                    content_type="application/json")
            name = f"profile-{items[0].pk}.json" if len(items) == 1 else "profiles.json"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
            response["Cache-Control"] = "no-store"
            return response
        return self._render_profile_rights(request, items, form, kind="export", post_to="action")

    @admin.action(description=_("Erase selected profiles and their conversations (logged)"),
                  permissions=["erase"])
    def erase_profiles(self, request: HttpRequest, queryset) -> HttpResponse:  # noqa: ANN001
        items = list(queryset)
        form = EraseForm(request.POST if self._confirmed(request) else None)
        if form.is_bound and form.is_valid():
            for profile in items:
                profiles.profile_erase(profile_id=profile.pk, actor=request.user,
                                       reason=form.cleaned_data["reason"],
                                       delete_cases=form.cleaned_data["delete_cases"])
            self.message_user(request, ngettext(
                "%(n)d profile erased.", "%(n)d profiles erased.", len(items)
            ) % {"n": len(items)}, messages.SUCCESS)
            return HttpResponseRedirect(reverse("admin:memory_profile_changelist",
                                                current_app=self.admin_site.name))
        return self._render_profile_rights(request, items, form, kind="erase", post_to="action")

    def _confirmed(self, request: HttpRequest) -> bool:
        return request.method == "POST" and request.POST.get("confirm") == "yes"

    def _render_profile_rights(self, request: HttpRequest, items: list, form, *, kind: str,  # noqa: ANN001
                               post_to: str, **extra) -> HttpResponse:  # noqa: ANN003
        titles = {"export": _("Export profiles"), "erase": _("Erase profiles"),
                  "reveal": _("Reveal a profile entry")}
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "kind": kind,
            "title": titles[kind],
            "profiles": items,
            "form": form,
            "as_action": post_to == "action",
            "action_name": f"{kind}_profiles",
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            **extra,
        }
        return render(request, self.rights_template, context)
