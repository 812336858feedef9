"""The visitor's satisfaction rating of a resolved case (issue 18).

Its own module so the case model stays small; registered with the handover app by one import
at the end of handover/models.py. A rating is a score and an optional comment; the comment
is redacted like every message and stored masked (handover.services.ratings).
The dashboard reads scores only, never the comment.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

SCORE_MIN = 1
SCORE_MAX = 5
MAX_COMMENT = 1000


class Rating(models.Model):
    """One per case: the visitor rates once, after the team resolved the case."""

    case = models.OneToOneField("handover.Case", on_delete=models.CASCADE, related_name="rating")
    # kept on the row so the dashboard counts per site without a join, and a rating outlives
    # nothing it should not: it goes with its case
    site = models.ForeignKey("chatwidget.Site", on_delete=models.CASCADE, related_name="+")
    score = models.PositiveSmallIntegerField(
        _("score"), validators=[MinValueValidator(SCORE_MIN), MaxValueValidator(SCORE_MAX)]
    )
    # redacted and masked when stored: feedback needs no contact details, so none are kept
    comment = models.TextField(_("comment (redacted)"), blank=True, max_length=MAX_COMMENT)
    created_at = models.DateTimeField(_("rated"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(score__gte=SCORE_MIN, score__lte=SCORE_MAX),
                name="rating_score_range",
            )
        ]

    def __str__(self) -> str:
        return f"{self.score}/{SCORE_MAX}"
