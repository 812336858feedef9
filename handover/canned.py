"""Canned replies (issue 18): short texts staff insert into a reply with a keystroke.

Per site (or for every site when no site is set), managed in admin. On the case page the
replies of the case's site are listed; typing `/<shortcut>` and Tab in the reply box, or
Alt+1..9, inserts one. Staff edit the inserted text before sending like any reply: a canned
reply is a starting point, it is never sent on its own. Registered with the handover app by one
import at the end of handover/models.py.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class CannedReply(models.Model):
    site = models.ForeignKey(
        "chatwidget.Site",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="canned_replies",
        verbose_name=_("site"),
        help_text=_("Leave empty to offer this reply on every site."),
    )
    title = models.CharField(_("title"), max_length=80)
    shortcut = models.SlugField(
        _("shortcut"),
        max_length=30,
        help_text=_("Type /shortcut and Tab in the reply box to insert the text."),
    )
    text = models.TextField(_("text"), max_length=4000)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        app_label = "handover"
        ordering = ["position", "title", "pk"]
        verbose_name = _("canned reply")
        verbose_name_plural = _("canned replies")

    def __str__(self) -> str:
        return self.title
