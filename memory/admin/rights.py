"""Data-subject rights on conversations: export and erase, owner-only, with a stated reason
and an audit event each; expired conversations are not listed."""

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _

from chatwidget.sites.access import queryset_for_staff
from memory.admin.common import ERASE_PERMISSION, EXPORT_PERMISSION, REVEAL_PERMISSION
from memory.erasure import conversation_erase
from memory.export import conversation_export_for_staff
from memory.models import Conversation
from memory.selectors import conversations_live

# --- data-subject rights on conversations ----------------------------------------------------------


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        min_length=5,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Why, e.g. the visitor's request and how it reached you. It is logged."),
    )


class ExportForm(ReasonForm):
    plaintext = forms.BooleanField(
        label=_("Include unmasked e-mail addresses, phone numbers, IBANs and addresses"),
        required=False,
    )

    def __init__(self, *args, allow_plaintext: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not allow_plaintext:
            del self.fields["plaintext"]


class EraseForm(ReasonForm):
    delete_cases = forms.BooleanField(
        label=_("Also delete the handover case records (reason and case note)"), required=False
    )


class ConversationRightsMixin:
    """Export and erase for ConversationAdmin: list actions and per-conversation pages.

    Both need an owner-only permission (`memory.export_conversation`,
    `memory.erase_conversation`) and a reason; each conversation gets an audit event.
    Exports are masked unless the user also holds `handover.reveal_plaintext` and asks for
    plaintext. Expired conversations are not listed and not exported (reads treat expired
    data as gone before the purge has run)."""

    rights_template = "admin/memory/conversation_rights.html"

    def get_queryset(self, request: HttpRequest):
        # a Staff user limited to sites lists, opens and exports only theirs
        return queryset_for_staff(
            conversations_live(queryset=super().get_queryset(request)), request.user
        )

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
        conv = (
            self.get_queryset(request).filter(pk=object_id).first() if object_id.isdigit() else None
        )
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
    def export_conversations(self, request: HttpRequest, queryset) -> HttpResponse | None:
        if not request.user.has_perm(EXPORT_PERMISSION):
            raise PermissionDenied
        return self._export(request, list(queryset), post_to="action")

    @admin.action(description=_("Erase selected conversations now (logged with a reason)"))
    def erase_conversations(self, request: HttpRequest, queryset) -> HttpResponse | None:
        if not request.user.has_perm(ERASE_PERMISSION):
            raise PermissionDenied
        return self._erase(request, list(queryset), post_to="action")

    # -- shared ---------------------------------------------------------------------------------

    def _submitted(self, request: HttpRequest) -> bool:
        return request.method == "POST" and request.POST.get("confirm") == "yes"

    def _export(self, request: HttpRequest, convs: list, *, post_to: str) -> HttpResponse:
        allow_plaintext = request.user.has_perm(REVEAL_PERMISSION)
        form = ExportForm(
            request.POST if self._submitted(request) else None, allow_plaintext=allow_plaintext
        )
        if form.is_bound and form.is_valid():
            masked = not (allow_plaintext and form.cleaned_data.get("plaintext"))
            files = [
                conversation_export_for_staff(
                    conversation_id=conv.pk,
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                    masked=masked,
                )
                for conv in convs
            ]
            if len(files) == 1:
                content, content_type, filename = files[0]
            else:
                content = json.dumps(
                    {"conversations": [json.loads(f[0]) for f in files]},
                    ensure_ascii=False,
                    indent=2,
                )
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
                conversation_erase(
                    conversation_id=conv.pk,
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                    delete_cases=form.cleaned_data["delete_cases"],
                )
            self.message_user(
                request, _("Conversations erased: %(n)d.") % {"n": len(convs)}, messages.SUCCESS
            )
            opts = self.model._meta
            return HttpResponseRedirect(
                reverse(
                    f"admin:{opts.app_label}_{opts.model_name}_changelist",
                    current_app=self.admin_site.name,
                )
            )
        return self._render_rights(request, convs, form, kind="erase", post_to=post_to)

    def _render_rights(
        self,
        request: HttpRequest,
        convs: list,
        form,
        *,
        kind: str,
        post_to: str,
    ) -> HttpResponse:
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
