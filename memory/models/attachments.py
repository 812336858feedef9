"""A visitor's photo or file (issue 33), kept with the turn that carried it.

Only what memory.uploads cleaned is stored: EXIF and GPS gone, checked for never-kept values
(an image or PDF that held one is stored nowhere). The file lives in the `visitor_uploads`
storage (chatwidget.platform.storage), the row with its conversation: erasure and the
retention purge delete the files with the rows (memory.attachments), the export lists them.
"""

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from chatwidget.platform.storage import VisitorUploadStorage
from memory.models.conversations import Conversation


def _upload_to(instance: "Attachment", filename: str) -> str:
    # a random name: nothing of the visitor's file name reaches the storage
    ext = filename.rsplit(".", 1)[-1] if "." in filename else "bin"
    return f"c{instance.conversation_id}/{uuid.uuid4().hex}.{ext}"


class Attachment(models.Model):
    class Kind(models.TextChoices):
        IMAGE = "image", _("Photo")
        PDF = "pdf", _("PDF")

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="attachments"
    )
    seq = models.PositiveIntegerField()  # the visitor turn that carried it
    kind = models.CharField(max_length=8, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=80)
    content_type = models.CharField(max_length=40)
    size = models.PositiveIntegerField()
    width = models.PositiveIntegerField(default=0)
    height = models.PositiveIntegerField(default=0)
    file = models.FileField(storage=VisitorUploadStorage(), upload_to=_upload_to, max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("attachment")
        verbose_name_plural = _("attachments")
        ordering = ["conversation", "seq", "id"]
        indexes = [models.Index(fields=["conversation", "seq"], name="attachment_conv_seq")]

    def __str__(self) -> str:
        return f"{self.name} (#{self.conversation_id}:{self.seq})"

    def public(self) -> dict:
        """As the widget and the turn's JSON show it: no storage name, no URL."""
        return {
            "kind": self.kind,
            "name": self.name,
            "type": self.content_type,
            "size": self.size,
        }
