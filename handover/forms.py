"""Forms of the case page. Validation only; the services do the work."""

from django import forms
from django.utils.translation import gettext_lazy as _

from handover.models import AlertPreference


class ReplyForm(forms.Form):
    text = forms.CharField(
        label=_("Reply to the visitor"),
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3, "id": "reply-text"}),
    )


class ResolveForm(forms.Form):
    note = forms.CharField(
        label=_("Case note"),
        max_length=5000,
        help_text=_(
            "What was asked and what was done. The note stays after the transcript has expired."
        ),
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    confirm_promise = forms.BooleanField(
        label=_("The open promise is kept or no longer needed"), required=False
    )


class NoteForm(forms.Form):
    note = forms.CharField(
        label=_("Case note"),
        max_length=5000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class AssignForm(forms.Form):
    assignee = forms.TypedChoiceField(label=_("Assign to"), coerce=int)

    def __init__(self, *args, users=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["assignee"].choices = [
            (u.pk, u.get_full_name() or u.get_username()) for u in users
        ]


class RevealForm(forms.Form):
    target = forms.CharField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for revealing"),
        min_length=5,
        max_length=500,
        help_text=_("Required. Every reveal is logged with your name and this reason."),
    )


class TakeOverForm(forms.Form):
    conversation = forms.IntegerField(widget=forms.HiddenInput)


class AlertPreferenceForm(forms.ModelForm):
    """A staff user's own alert settings (issue 32). The sites offered are those the user may
    see; none ticked: all of them, as they are now and when one is added."""

    class Meta:
        model = AlertPreference
        fields = [
            "new_case",
            "visitor_replied",
            "promise_due",
            "sites",
            "by_push",
            "by_email",
            "language",
        ]
        widgets = {"sites": forms.CheckboxSelectMultiple}
        help_texts = {
            "sites": _("None ticked: every site you may see."),
            "visitor_replied": _("On cases assigned to you, and on cases nobody is assigned to."),
            "promise_due": _(
                "A call back promised outside staff hours, when the hours begin, while the "
                "case is yours or unassigned."
            ),
            "by_push": _("To each device where you turned push notifications on (below)."),
        }

    def __init__(self, *args, sites=None, email: str = "", **kwargs) -> None:
        kwargs.setdefault("label_suffix", "")  # labels beside checkboxes, not above fields
        super().__init__(*args, **kwargs)
        sites_field = self.fields["sites"]
        if sites is not None:
            sites_field.queryset = sites  # type: ignore[attr-defined]
        self.fields["by_email"].help_text = (
            _("To %(address)s. Several alerts within a few minutes come in one e-mail.")
            % {"address": email}
            if email
            else _("Your user has no e-mail address: ask an owner to add one.")
        )

    def event_fields(self) -> list:
        return [self[name] for name in ("new_case", "visitor_replied", "promise_due")]

    def channel_fields(self) -> list:
        return [self[name] for name in ("by_push", "by_email")]
