"""Signed-in customers (memory.Customer): the data-subject rights of a customer the shop
vouched for, for owners. Export gives the customer row and every conversation linked to it
(masked unless plaintext is allowed); erasure takes them all now (memory.customers). Both
ask for a reason and are audited. The e-mail is masked here like every contact detail;
owners reveal it through a case page (audited) or a plaintext export."""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from chatwidget.sites.access import queryset_for_staff
from memory.admin.common import ERASE_PERMISSION, EXPORT_PERMISSION, REVEAL_PERMISSION
from memory.admin.rights import ExportForm, ReasonForm
from memory.customers import customer_erase, customer_export
from memory.models import Customer
from memory.redaction import mask
from memory.redaction.kinds import EMAIL


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ("external_id", "name", "email_masked", "site", "conversation_count")
    list_filter = ("site",)
    search_fields = ("external_id",)
    fields = ("site", "external_id", "name", "email_masked", "created_at", "last_seen_at")
    readonly_fields = fields
    actions = ["export_customers", "erase_customers"]

    def get_queryset(self, request: HttpRequest):
        rows = super().get_queryset(request).select_related("site")
        rows = rows.annotate(conversation_total=Count("conversations"))
        return queryset_for_staff(rows, request.user)

    @admin.display(description=_("e-mail address"))
    def email_masked(self, obj: Customer) -> str:
        return mask(obj.email, [[EMAIL, 0, len(obj.email)]]) if obj.email else "-"

    @admin.display(description=_("conversations"), ordering="conversation_total")
    def conversation_count(self, obj: Customer) -> int:
        return getattr(obj, "conversation_total", 0)

    # owners (the rights' permissions) only; nobody edits a customer the shop vouched for
    def _owner(self, request: HttpRequest) -> bool:
        user = request.user
        return user.has_perm(EXPORT_PERMISSION) or user.has_perm(ERASE_PERMISSION)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._owner(request)

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return self._owner(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # erasure is the action below: it takes the conversations too

    @admin.action(description=_("Export selected customers with their conversations (logged)"))
    def export_customers(self, request: HttpRequest, queryset) -> HttpResponse:
        if not request.user.has_perm(EXPORT_PERMISSION):
            raise PermissionDenied
        allow = request.user.has_perm(REVEAL_PERMISSION)
        form = ExportForm(request.POST if _confirmed(request) else None, allow_plaintext=allow)
        customers = list(queryset)
        if not (form.is_bound and form.is_valid()):
            return self._rights_page(request, customers, form, kind="export")
        masked = not (allow and form.cleaned_data.get("plaintext"))
        parts = [
            customer_export(
                customer_id=c.pk,
                actor=request.user,
                reason=form.cleaned_data["reason"],
                masked=masked,
            )
            for c in customers
        ]
        response = HttpResponse(
            parts[0] if len(parts) == 1 else "[\n" + ",\n".join(parts) + "\n]",
            content_type="application/json",
        )
        response["Content-Disposition"] = 'attachment; filename="customers.json"'
        response["Cache-Control"] = "no-store"
        return response

    @admin.action(description=_("Erase selected customers and their conversations now (logged)"))
    def erase_customers(self, request: HttpRequest, queryset) -> HttpResponse:
        if not request.user.has_perm(ERASE_PERMISSION):
            raise PermissionDenied
        form = ReasonForm(request.POST if _confirmed(request) else None)
        customers = list(queryset)
        if not (form.is_bound and form.is_valid()):
            return self._rights_page(request, customers, form, kind="erase")
        for customer in customers:
            customer_erase(
                customer_id=customer.pk, actor=request.user, reason=form.cleaned_data["reason"]
            )
        self.message_user(
            request, _("Customers erased: %(n)d.") % {"n": len(customers)}, messages.SUCCESS
        )
        return HttpResponseRedirect(reverse("admin:memory_customer_changelist"))

    def _rights_page(self, request: HttpRequest, customers: list, form, *, kind: str):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "kind": kind,
            "title": _("Export customers") if kind == "export" else _("Erase customers"),
            "customers": customers,
            "form": form,
            "action_name": f"{kind}_customers",
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return render(request, "admin/memory/customer_rights.html", context)


def _confirmed(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "yes"
