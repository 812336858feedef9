"""Admin of recognition profiles: facts with review (approve, reject), plaintext reveal,
export and erasure, each logged."""

import json

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from chatwidget.platform.times import site_time
from chatwidget.sites.access import queryset_for_staff
from memory import profiles
from memory.admin.common import (
    APPROVE_PERMISSION,
    ERASE_PERMISSION,
    EXPORT_PERMISSION,
    REVEAL_PERMISSION,
    fragment,
)
from memory.admin.rights import EraseForm, ExportForm, ReasonForm
from memory.models import Profile, ProfileFact

# --- recognition profiles ------------------------------------------------


class ProfileFactInline(admin.TabularInline):
    """The profile's facts, read-only: contact details masked (an owner reveals one with a
    reason, logged); proposed entries with approve and reject buttons for owners."""

    model = ProfileFact
    extra = 0
    can_delete = False
    fields = ("field", "key", "shown_value", "status", "source", "recorded_at", "review")
    readonly_fields = fields
    ordering = ("field", "key")

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("Value"))
    def shown_value(self, fact: ProfileFact) -> str:
        masked = profiles.profilefact_masked(fact=fact)
        if fact.field not in ProfileFact.SENSITIVE or not self._can_reveal:
            return masked
        url = reverse("admin:memory_profile_reveal", args=[fact.profile_id, fact.pk])
        return fragment("fact_value", masked=masked, url=url)

    @admin.display(description=_("Source"))
    def source(self, fact: ProfileFact) -> str:
        if not fact.source_conversation:
            return "-"
        return _("conversation #%(c)s, turn %(s)s") % {
            "c": fact.source_conversation,
            "s": fact.source_seq or "-",
        }

    @admin.display(description=_("Review"))
    def review(self, fact: ProfileFact) -> str:
        if fact.status != ProfileFact.Status.PROPOSED or not self._can_approve:
            return "-"
        return fragment(
            "fact_review",
            approve_url=reverse("admin:memory_profile_approve", args=[fact.profile_id, fact.pk]),
            reject_url=reverse("admin:memory_profile_reject", args=[fact.profile_id, fact.pk]),
        )

    def get_formset(self, request: HttpRequest, obj=None, **kwargs):
        self._can_approve = request.user.has_perm(APPROVE_PERMISSION)
        self._can_reveal = request.user.has_perm(REVEAL_PERMISSION)
        return super().get_formset(request, obj, **kwargs)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    """Recognition profiles: view (masked), approve proposed facts (`approve_profilefact`),
    export and erase (the owner rights also used for conversations, with a reason, logged).
    Nobody edits a profile by hand; expired profiles are not listed."""

    list_display = ("id", "site", "created", "last_visit", "fact_count", "pending_count")
    list_filter = ("site",)
    list_select_related = ("site",)
    date_hierarchy = "last_visit_at"
    readonly_fields = (
        "site",
        "created_at",
        "last_visit_at",
        "expires",
        "consents",
        "conversations",
    )
    fields = readonly_fields
    inlines = [ProfileFactInline]
    actions = ["approve_pending", "export_profiles", "erase_profiles"]
    rights_template = "admin/memory/profile_rights.html"

    def get_queryset(self, request: HttpRequest):
        qs = (
            super()
            .get_queryset(request)
            .annotate(
                facts_n=Count("facts", distinct=True),
                pending_n=Count(
                    "facts", filter=Q(facts__status=ProfileFact.Status.PROPOSED), distinct=True
                ),
            )
        )
        return queryset_for_staff(profiles.profiles_live(queryset=qs), request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
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

    @admin.display(description=_("created"), ordering="created_at")
    def created(self, obj: Profile) -> str:
        return site_time(obj.created_at, time_zone=obj.site.time_zone)

    @admin.display(description=_("last visit"), ordering="last_visit_at")
    def last_visit(self, obj: Profile) -> str:
        return site_time(obj.last_visit_at, time_zone=obj.site.time_zone)

    @admin.display(description=_("awaiting approval"), ordering="pending_n")
    def pending_count(self, obj: Profile) -> int:
        return obj.pending_n

    @admin.display(description=_("expires"))
    def expires(self, obj: Profile):
        return profiles.profile_expires_at(profile=obj)

    @admin.display(description=_("consent records"))
    def consents(self, obj: Profile) -> str:
        rows = obj.consent_set.order_by("granted_at")
        lines = [
            f"{c.granted_at} ({c.wording_version})"
            + (_(", withdrawn %(at)s") % {"at": c.withdrawn_at} if c.withdrawn_at else "")
            for c in rows
        ]
        return fragment("lines", lines=lines) if lines else "-"

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
        return HttpResponseRedirect(
            reverse(
                "admin:memory_profile_change", args=[object_id], current_app=self.admin_site.name
            )
        )

    def approve_view(self, request: HttpRequest, object_id: int, fact_id: int) -> HttpResponse:
        if request.method != "POST" or not self.has_approve_permission(request):
            raise PermissionDenied
        fact = self._fact_or_404(request, object_id, fact_id)
        if profiles.profilefact_approve(fact_ids=[fact.pk], actor=request.user):
            self.message_user(
                request, _("Approved: from now on the assistant may use it."), messages.SUCCESS
            )
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
            plaintext = profiles.profilefact_reveal(
                fact_id=fact.pk, actor=request.user, reason=form.cleaned_data["reason"]
            )
        return self._render_profile_rights(
            request,
            [fact.profile],
            form,
            kind="reveal",
            post_to="",
            fact=fact,
            masked=profiles.profilefact_masked(fact=fact),
            plaintext=plaintext,
        )

    # -- list actions --------------------------------------------------------------------------

    @admin.action(
        description=_("Approve every proposed entry of the selected profiles"),
        permissions=["approve"],
    )
    def approve_pending(self, request: HttpRequest, queryset) -> None:
        ids = list(
            ProfileFact.objects.filter(
                profile__in=queryset, status=ProfileFact.Status.PROPOSED
            ).values_list("pk", flat=True)
        )
        n = profiles.profilefact_approve(fact_ids=ids, actor=request.user)
        self.message_user(
            request,
            ngettext("%(n)d entry approved.", "%(n)d entries approved.", n) % {"n": n},
            messages.SUCCESS,
        )

    @admin.action(
        description=_("Export selected profiles (JSON, logged with a reason)"),
        permissions=["export"],
    )
    def export_profiles(self, request: HttpRequest, queryset) -> HttpResponse:
        items = list(queryset)
        allow_plaintext = request.user.has_perm(REVEAL_PERMISSION)
        form = ExportForm(
            request.POST if self._confirmed(request) else None, allow_plaintext=allow_plaintext
        )
        if form.is_bound and form.is_valid():
            masked = not (allow_plaintext and form.cleaned_data.get("plaintext"))
            data = [
                profiles.profile_export_for_staff(
                    profile_id=p.pk,
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                    masked=masked,
                )
                for p in items
            ]
            body = data[0] if len(data) == 1 else {"profiles": data}
            response = HttpResponse(
                json.dumps(body, ensure_ascii=False, indent=2), content_type="application/json"
            )
            name = f"profile-{items[0].pk}.json" if len(items) == 1 else "profiles.json"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
            response["Cache-Control"] = "no-store"
            return response
        return self._render_profile_rights(request, items, form, kind="export", post_to="action")

    @admin.action(
        description=_("Erase selected profiles and their conversations (logged)"),
        permissions=["erase"],
    )
    def erase_profiles(self, request: HttpRequest, queryset) -> HttpResponse:
        items = list(queryset)
        form = EraseForm(request.POST if self._confirmed(request) else None)
        if form.is_bound and form.is_valid():
            for profile in items:
                profiles.profile_erase(
                    profile_id=profile.pk,
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                    delete_cases=form.cleaned_data["delete_cases"],
                )
            self.message_user(
                request,
                ngettext("%(n)d profile erased.", "%(n)d profiles erased.", len(items))
                % {"n": len(items)},
                messages.SUCCESS,
            )
            return HttpResponseRedirect(
                reverse("admin:memory_profile_changelist", current_app=self.admin_site.name)
            )
        return self._render_profile_rights(request, items, form, kind="erase", post_to="action")

    def _confirmed(self, request: HttpRequest) -> bool:
        return request.method == "POST" and request.POST.get("confirm") == "yes"

    def _render_profile_rights(
        self,
        request: HttpRequest,
        items: list,
        form,
        *,
        kind: str,
        post_to: str,
        **extra,
    ) -> HttpResponse:
        titles = {
            "export": _("Export profiles"),
            "erase": _("Erase profiles"),
            "reveal": _("Reveal a profile entry"),
        }
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
