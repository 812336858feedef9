"""Admin for staff: the handover list, the case page, and (owners) the reveal log.

Thin: each view checks the permission, validates a form, calls one service and renders.
The case page replaces the model's change form: staff never edit a case's raw fields.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.timesince import timesince
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from chatwidget.platform.times import site_time
from chatwidget.sites.access import queryset_for_staff, staff_site_ids
from handover import admin_alerts, admin_attachments, admin_inbox, selectors, services
from handover.forms import AssignForm, NoteForm, ReplyForm, ResolveForm, RevealForm, TakeOverForm
from handover.models import AlertPreference, Case, RevealEvent
from handover.services.continuation import continuation_address
from memory.core import CORE_LABELS
from memory.models import Conversation


class WaitingTimeFilter(admin.SimpleListFilter):
    title = _("waiting time")
    parameter_name = "waited"
    BANDS = {"lt5": (None, 5), "5to30": (5, 30), "gt30": (30, None)}

    def lookups(self, request, model_admin):
        return [
            ("lt5", _("under 5 minutes")),
            ("5to30", _("5 to 30 minutes")),
            ("gt30", _("over 30 minutes")),
        ]

    def queryset(self, request, queryset):
        band = self.BANDS.get(self.value() or "")
        if band is None:
            return queryset
        now = timezone.now()
        low, high = band
        queryset = queryset.filter(status=Case.Status.WAITING)
        if low is not None:
            queryset = queryset.filter(requested_at__lte=now - timedelta(minutes=low))
        if high is not None:
            queryset = queryset.filter(requested_at__gt=now - timedelta(minutes=high))
        return queryset


class AssignedFilter(admin.SimpleListFilter):
    """Cases assigned to the user looking, or to nobody (issue 32)."""

    title = _("assigned to")
    parameter_name = "assigned"

    def lookups(self, request, model_admin):
        return [("mine", _("me")), ("nobody", _("nobody"))]

    def queryset(self, request, queryset):
        if self.value() == "mine":
            return queryset.filter(claimed_by_id=request.user.pk)
        if self.value() == "nobody":
            return queryset.filter(claimed_by__isnull=True)
        return queryset


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    # Short headers and a time that may break after its date: the columns fit beside admin's
    # sidebar and filters (the last ones were cut off).
    list_display = (
        "case_label",
        "site",
        "status",
        "trigger",
        "waiting_for",
        "claimed_by",
        "call_back",
        "requested",
    )
    list_display_links = ("case_label",)
    list_filter = ("status", AssignedFilter, "site", WaitingTimeFilter, "trigger")
    list_per_page = 50
    date_hierarchy = None

    # --- list -------------------------------------------------------------------------------

    def get_queryset(self, request):
        # a Staff user limited to sites sees (and opens, acts on) only their cases
        return queryset_for_staff(selectors.case_list_queryset(), request.user)

    def get_ordering(self, request):
        return ["status_rank", "requested_at", "pk"]

    @admin.display(description=_("case"), ordering="pk")
    def case_label(self, obj: Case) -> str:
        return gettext("Case %(id)s") % {"id": obj.pk}

    @admin.display(description=_("call back"), boolean=True, ordering="callback_requested")
    def call_back(self, obj: Case) -> bool:
        return obj.callback_requested

    @admin.display(description=_("requested"), ordering="requested_at")
    def requested(self, obj: Case) -> str:
        """In the case's site's zone, the zone named (chatwidget.platform.times)."""
        return site_time(obj.requested_at, time_zone=obj.site.time_zone)

    @admin.display(description=_("waiting for"))
    def waiting_for(self, obj: Case) -> str:
        if obj.status != Case.Status.WAITING:
            return "-"
        return timesince(obj.requested_at)

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # cases come from the state machine

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # cases go by retention or erasure

    def changelist_view(self, request, extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "waiting_count": selectors.case_waiting_count(site_ids=staff_site_ids(request.user)),
            "take_over_url": reverse("admin:handover_case_take_over"),
            "inbox_url": reverse("admin:handover_case_inbox"),
        }
        return super().changelist_view(request, extra_context=extra_context)

    # --- the case page ------------------------------------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("take-over/", wrap(self.take_over_view), name="handover_case_take_over"),
            path("inbox/", wrap(self.inbox_view), name="handover_case_inbox"),
            path(
                "<int:case_id>/do/<str:action>/",
                wrap(self.action_view),
                name="handover_case_action",
            ),
            path("<int:case_id>/reveal/", wrap(self.reveal_view), name="handover_case_reveal"),
            path(  # a visitor's photo or file (issue 33)
                "<int:case_id>/attachment/<int:seq>/<int:index>/",
                wrap(lambda request, **kw: admin_attachments.attachment_view(self, request, **kw)),
                name="handover_case_attachment",
            ),
            *super().get_urls(),
        ]

    def inbox_view(self, request: HttpRequest) -> HttpResponse:
        return admin_inbox.inbox_view(self, request)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not str(object_id).isdigit():
            raise PermissionDenied
        return self.case_view(request, int(object_id))

    def case_view(
        self, request: HttpRequest, case_id: int, *, revealed=None, forms: dict | None = None
    ) -> HttpResponse:
        case = get_object_or_404(self.get_queryset(request), pk=case_id)
        if not self.has_view_permission(request, case):
            raise PermissionDenied
        page = selectors.case_page(case_id=case.pk)
        can_act = self.has_change_permission(request, case)
        can_reveal = request.user.has_perm("handover.reveal_plaintext")
        forms = forms or {}
        is_open = case.status in (Case.Status.WAITING, Case.Status.HUMAN)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": gettext("Case %(id)s") % {"id": case.pk},
            "page": page,
            "case": case,
            "core_rows": [(key, label, page.core[key]) for key, label in CORE_LABELS],
            "waiting_for": timesince(case.requested_at)
            if case.status == Case.Status.WAITING
            else "",
            "is_open": is_open,
            "can_act": can_act,
            "can_reveal": can_reveal,
            "revealed": revealed,
            "revealed_index": int(revealed.target.split(":")[1])
            if revealed is not None and revealed.target.startswith("contact:")
            else None,
            "revealed_customer": revealed is not None and revealed.target == "customer",
            "reply_form": forms.get("reply") or ReplyForm(),
            "resolve_form": forms.get("resolve") or ResolveForm(),
            "note_form": forms.get("note") or NoteForm(initial={"note": case.note}),
            "assign_form": forms.get("assign") or AssignForm(users=selectors.staff_assignable()),
            "reveal_form": forms.get("reveal") or RevealForm(),
            "reveal_error_target": forms.get("reveal_target"),
            "ws_path": f"/ws/staff/case/{case.pk}/",
            "canned": selectors.canned_replies_for_site(site_id=case.site_id) if can_act else [],
            "open_promises": services.case_open_promises(case) if is_open else [],
            # replies made while the visitor is away go by e-mail (issue 32)
            "email_follows": is_open and bool(continuation_address(case)),
            "replies_by_email": bool(settings.INBOUND_EMAIL_DOMAIN),
        }
        for action in ("claim", "assign", "reply", "release", "resolve", "note"):
            context[f"{action}_url"] = reverse("admin:handover_case_action", args=[case.pk, action])
        context["reveal_url"] = reverse("admin:handover_case_reveal", args=[case.pk])
        response = TemplateResponse(request, "admin/handover/case/case_page.html", context)
        add_never_cache_headers(response)
        return response

    # --- staff actions ------------------------------------------------------------------------

    def action_view(self, request: HttpRequest, case_id: int, action: str) -> HttpResponse:
        return require_POST(self._action)(request, case_id, action)

    def _action(self, request: HttpRequest, case_id: int, action: str) -> HttpResponse:
        case = get_object_or_404(self.get_queryset(request), pk=case_id)
        if not self.has_change_permission(request, case):
            raise PermissionDenied
        wants_json = request.headers.get("X-Requested-With") == "fetch"
        user = request.user
        form = None
        try:
            if action == "claim":
                services.case_claim(case_id=case.pk, user=user)
                done = gettext("You have claimed this case.")
            elif action == "assign":
                form = AssignForm(request.POST, users=selectors.staff_assignable())
                if not form.is_valid():
                    return self._invalid(request, case, "assign", form, wants_json)
                assignee = next(
                    u for u in selectors.staff_assignable() if u.pk == form.cleaned_data["assignee"]
                )
                services.case_assign(case_id=case.pk, assignee=assignee, by=user)
                done = gettext("The case is assigned.")
            elif action == "reply":
                form = ReplyForm(request.POST)
                if not form.is_valid():
                    return self._invalid(request, case, "reply", form, wants_json)
                turn = services.staff_reply(
                    case_id=case.pk, user=user, text=form.cleaned_data["text"]
                )
                if wants_json:
                    return JsonResponse({"ok": True, "seq": turn.seq})
                done = gettext("Your reply was sent.")
            elif action == "release":
                services.case_release(case_id=case.pk, user=user)
                done = gettext("The conversation is back with the assistant.")
            elif action == "resolve":
                form = ResolveForm(request.POST)
                if not form.is_valid():
                    return self._invalid(request, case, "resolve", form, wants_json)
                services.case_resolve(
                    case_id=case.pk,
                    user=user,
                    note=form.cleaned_data["note"],
                    promise_confirmed=form.cleaned_data["confirm_promise"],
                )
                done = gettext("The case is resolved and the conversation closed.")
            elif action == "note":
                form = NoteForm(request.POST)
                if not form.is_valid():
                    return self._invalid(request, case, "note", form, wants_json)
                services.case_note_update(
                    case_id=case.pk, user=user, note=form.cleaned_data["note"]
                )
                done = gettext("The case note is saved.")
            else:
                raise PermissionDenied
        except services.IllegalTransition:
            return self._refused(
                request,
                case,
                gettext("This is not possible in the conversation's current state."),
                wants_json,
            )
        except services.CaseClosed:
            return self._refused(request, case, gettext("This case is no longer open."), wants_json)
        except ValidationError as exc:
            return self._refused(request, case, " ".join(exc.messages), wants_json)
        if wants_json:
            return JsonResponse({"ok": True})
        messages.success(request, done)
        return HttpResponseRedirect(reverse("admin:handover_case_change", args=[case.pk]))

    def _invalid(self, request, case, name, form, wants_json):
        if wants_json:
            return JsonResponse({"ok": False, "errors": form.errors.get_json_data()}, status=400)
        return self.case_view(request, case.pk, forms={name: form})

    def _refused(self, request, case, text, wants_json):
        if wants_json:
            return JsonResponse({"ok": False, "error": text}, status=409)
        messages.error(request, text)
        return HttpResponseRedirect(reverse("admin:handover_case_change", args=[case.pk]))

    # --- reveal (owners) ----------------------------------------------------------------------

    def reveal_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        return require_POST(self._reveal)(request, case_id)

    def _reveal(self, request: HttpRequest, case_id: int) -> HttpResponse:
        case = get_object_or_404(self.get_queryset(request), pk=case_id)
        if not request.user.has_perm("handover.reveal_plaintext"):
            raise PermissionDenied
        form = RevealForm(request.POST)
        if not form.is_valid():
            return self.case_view(
                request,
                case.pk,
                forms={"reveal": form, "reveal_target": request.POST.get("target")},
            )
        try:
            revealed = services.plaintext_reveal(
                case_id=case.pk,
                user=request.user,
                target=form.cleaned_data["target"],
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return HttpResponseRedirect(reverse("admin:handover_case_change", args=[case.pk]))
        return self.case_view(request, case.pk, revealed=revealed)

    # --- take over a live conversation --------------------------------------------------------

    def take_over_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_change_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            form = TakeOverForm(request.POST)
            if form.is_valid():
                if not queryset_for_staff(
                    Conversation.objects.filter(pk=form.cleaned_data["conversation"]), request.user
                ).exists():
                    raise PermissionDenied  # another site's conversation
                try:
                    case = services.conversation_take_over(
                        conversation_id=form.cleaned_data["conversation"], user=request.user
                    )
                except services.IllegalTransition:
                    messages.error(
                        request, gettext("This conversation is already with the team or closed.")
                    )
                else:
                    messages.success(request, gettext("You have taken over the conversation."))
                    return HttpResponseRedirect(
                        reverse("admin:handover_case_change", args=[case.pk])
                    )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": gettext("Take over a live conversation"),
            "conversations": selectors.takeover_candidates(site_ids=staff_site_ids(request.user)),
        }
        return TemplateResponse(request, "admin/handover/case/take_over.html", context)


@admin.register(RevealEvent)
class RevealEventAdmin(admin.ModelAdmin):
    """Every plaintext reveal, read-only: who, when, what, why."""

    list_display = ("when", "actor_label", "target", "reason", "site")
    list_filter = ("site", "actor_label")
    list_select_related = ("site",)
    search_fields = ("actor_label", "target", "reason")
    readonly_fields = (
        "at",
        "actor",
        "actor_label",
        "action",
        "site",
        "conversation_ref",
        "target",
        "reason",
        "details",
    )

    @admin.display(description=_("when"), ordering="at")
    def when(self, obj: RevealEvent) -> str:
        return site_time(obj.at, time_zone=obj.site.time_zone if obj.site_id else None)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


admin.site.register(AlertPreference, admin_alerts.AlertPreferenceAdmin)
