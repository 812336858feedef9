"""Forms of the case page. Validation only; the services do the work."""

from django import forms
from django.utils.translation import gettext_lazy as _


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
