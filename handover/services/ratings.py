"""Satisfaction: the visitor rates a case after the team resolved it (issue 18).

The widget asks once the conversation is closed; the score (1-5) and an optional comment
arrive as a `rating` frame (chatwidget.widget.protocol). The comment goes through memory's
redaction like every message; kept-but-marked values (e-mail, phone ...) are masked before
it is stored, since feedback needs none of them. One rating per case: a second frame (another
tab, a retry) changes nothing and gets the stored score back.
"""

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from chatwidget.integrations.emit import webhook_emit
from chatwidget.integrations.models import WebhookEvent
from handover.models import MAX_COMMENT, SCORE_MAX, SCORE_MIN, Case, Rating
from memory.redaction import mask, redact

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RatingState:
    """What the widget shows for a closed conversation: ask (askable and no score yet), or
    thank for the stored score."""

    askable: bool
    score: int | None


def _rateable_case(conversation_id: int) -> Case | None:
    """The conversation's newest resolved case, within RATING_WINDOW_DAYS of resolution."""
    since = timezone.now() - timedelta(days=settings.RATING_WINDOW_DAYS)
    return (
        Case.objects.filter(
            conversation_id=conversation_id, status=Case.Status.RESOLVED, resolved_at__gte=since
        )
        .order_by("-resolved_at")
        .first()
    )


def rating_state(*, conversation_id: int) -> RatingState:
    case = _rateable_case(conversation_id)
    if case is None:
        return RatingState(askable=False, score=None)
    score = Rating.objects.filter(case=case).values_list("score", flat=True).first()
    return RatingState(askable=True, score=score)


def rating_give(*, conversation_id: int, score: int, comment: str = "") -> Rating | None:
    """Store the visitor's rating of the conversation's resolved case and announce it
    (webhook `rating.given`). None when there is no case to rate (never resolved, or the
    window is over)."""
    if not SCORE_MIN <= score <= SCORE_MAX:
        raise ValueError("score out of range")
    case = _rateable_case(conversation_id)
    if case is None:
        return None
    redacted = redact((comment or "").strip()[:MAX_COMMENT])
    text = mask(redacted.text, redacted.spans) if redacted.text else ""
    try:
        with transaction.atomic():
            rating = Rating.objects.create(
                case=case, site_id=case.site_id, score=score, comment=text
            )
            webhook_emit(
                site_id=case.site_id,
                event=WebhookEvent.RATING_GIVEN,
                data={
                    "case": case.pk,
                    "conversation": conversation_id,
                    "score": score,
                    "has_comment": bool(text),
                },
                text={"comment": text} if text else None,
            )
    except IntegrityError:  # rated already (another tab, a retry): the first one stays
        return Rating.objects.get(case=case)
    log.info("case rated", extra={"case": case.pk, "score": score})
    return rating
