"""chatwidget's services: sites, the visitor's turn, the answer flow."""

from chatwidget.services.answers import (
    AnswerResult,
    PreparedAnswer,
    answer_generate,
    answer_recover,
)
from chatwidget.services.sites import embed_snippet, site_create
from chatwidget.services.turns import (
    TurnOutcome,
    VisitorTurn,
    bot_may_answer,
    turn_outcome,
    visitor_rate_limited,
    visitor_turn_case_update,
    visitor_turn_receive,
)

__all__ = [
    "AnswerResult",
    "PreparedAnswer",
    "TurnOutcome",
    "VisitorTurn",
    "answer_generate",
    "answer_recover",
    "bot_may_answer",
    "embed_snippet",
    "site_create",
    "turn_outcome",
    "visitor_rate_limited",
    "visitor_turn_case_update",
    "visitor_turn_receive",
]
