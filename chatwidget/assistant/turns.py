"""What happens to a visitor's turn: the one place that decides whether the bot answers.

The conversation's state (memory.ConversationState) decides: with the bot, the assistant
answers; while the team has it (waiting, human), the turn may add contact details to the
open case and the bot stays silent; closed, nobody answers. The consumer acts on the
returned `TurnOutcome` and never reads the state itself. At the moment the answer's seq is
reserved the database checks the state once more (memory.services.answer_seq_reserve), so a
take-over between the turn and the answer still wins.
"""

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError

from chatwidget.assistant.context import context_after_ack, message_embedding_start
from chatwidget.assistant.preparation import (
    PreparedAnswer,
    answer_prepare,
    answer_prepared_release,
)
from chatwidget.assistant.sections import TurnRow
from chatwidget.platform import cache_keys
from chatwidget.platform.client_address import address_key
from chatwidget.platform.ratelimit import (
    RateCount,
    parse_rate,
    rate_limit_hit_fail_open,
    rate_limits_hit_fail_open,
    rate_limits_refund_fail_open,
)
from handover.services import handover_visitor_message
from memory.models import ConversationState
from memory.selectors import turn_public
from memory.services import condensation_may_follow, visitor_message_receive

log = logging.getLogger(__name__)


class TurnOutcome(StrEnum):
    ANSWER = "answer"  # the bot answers this turn
    ANSWER_IF_UNANSWERED = "answer_if_unanswered"  # a retry after a lost ack
    CASE_UPDATE = "case_update"  # the team has the conversation: the case hears of it
    SILENT = "silent"  # closed, or a retry while the team has it
    RATE_LIMITED = "rate_limited"  # not stored


def bot_may_answer(state: str) -> bool:
    return state == ConversationState.BOT


def turn_outcome(*, state: str, created: bool) -> TurnOutcome:
    if bot_may_answer(state):
        return TurnOutcome.ANSWER if created else TurnOutcome.ANSWER_IF_UNANSWERED
    if created and state in (ConversationState.WAITING, ConversationState.HUMAN):
        return TurnOutcome.CASE_UPDATE
    return TurnOutcome.SILENT


@dataclass(frozen=True)
class VisitorTurn:
    outcome: TurnOutcome
    conversation_id: int | None = None
    seq: int | None = None
    new_token: str | None = None
    hint: dict | None = None  # the system turn saying what was removed (turn_public)
    prepared: PreparedAnswer | None = None  # the answer made ready in the same hop
    # an answer started for it that must not go on: its statement found it stored already (a
    # resend), or its lease was refused after the model request went out; the socket cancels
    # that one and answers the turn the usual way
    started_void: bool = False


RATE_LIMITED = VisitorTurn(outcome=TurnOutcome.RATE_LIMITED)


class _Refused(Exception):
    """The visitor's rate limits refuse the turn (from `admit`, before anything is stored)."""


def _visitor_hits(*, address: str, session_key: str) -> list[tuple[str, str]]:
    return [
        (cache_keys.rate_address(address_key(address)), settings.RATE_LIMIT_PER_ADDRESS),  # /64
        (cache_keys.rate_session(session_key), settings.RATE_LIMIT_PER_SESSION),
    ]


def visitor_rate_limited(*, address: str, session_key: str, at: float | None = None) -> bool:
    """Count one visitor frame against the client address and the session; True when
    limited. Fails open while the cache is away (a short outage must not stop every chat).
    Both counts in one cache round trip on Redis."""
    return rate_limits_hit_fail_open(
        hits=_visitor_hits(address=address, session_key=session_key), at=at
    )


def _first_resend(*, session_key: str, client_id: str) -> bool:
    _count, window = parse_rate(settings.RATE_LIMIT_PER_SESSION)
    try:
        return bool(cache.add(cache_keys.rate_resend(session_key, client_id), 1, timeout=window))
    except Exception:  # noqa: BLE001 - the cache away: nothing was counted either (fail open)
        return False


def visitor_turn_receive(
    *,
    site_id: int,
    address: str,
    session_key: str,
    token: str | None,
    client_id: str,
    text: str,
    language: str,
    profile_id: int | None,
    conversation_id: int | None,
    prepare_answer: bool = False,
    page_url: str | None = None,
    page_title: str = "",
    customer_id: int | None = None,
    on_prepared: Callable[[int, int, PreparedAnswer], None] | None = None,
) -> VisitorTurn:
    """One thread hop per message: the rate limits, the stored turn (memory), the decision.
    A message that costs nothing is not counted: a resend of a stored one (same client id)
    and one the database refused (the widget sends it again after `unavailable`).

    `session_key`: the conversation id, or the socket's channel name before there is one.
    `prepare_answer` (the socket has no answer running, so nothing is about to be added
    before this turn's answer): the answer's seq is reserved with the turn and its context
    built in this same hop (`VisitorTurn.prepared`), so the answer goes straight to the
    model. `page_url`, `page_title`: where the visitor is (the frame's `page`), kept with
    the turn (memory.pages).

    The context is built inside the turn's transaction from the turn in hand, before its
    statement, and handed to `on_prepared(conversation_id, request_seq, prepared)` there
    (from this thread): the socket starts the model request at once, so the statement and
    the commit run while the model thinks (issue 30). The socket sends no delta before the
    ack, which follows the commit; a turn whose commit fails raises here, and the socket
    cancels the request it started (as one started for a resend, `started_void`)."""
    at = time.time()
    hits = _visitor_hits(address=address, session_key=session_key)
    prep = _Preparation(on_prepared)
    try:
        # the limits' round trip runs beside the message's redaction (memory's `admit`)
        with RateCount(hits=hits, at=at) as counted:
            result, conv, new_token, hint = visitor_message_receive(
                site_id=site_id,
                token=token,
                client_id=client_id,
                text=text,
                page_url=page_url,
                page_title=page_title,
                language=language,
                profile_id=profile_id,
                conversation_id=conversation_id,
                reserve_answer=prepare_answer,
                customer_id=customer_id,
                before_insert=prep.before_insert if prepare_answer else None,
                before_commit=prep.before_commit if prepare_answer else None,
                on_redacted=_embedding_start if prepare_answer else None,
                admit=lambda: _admit(counted),
            )
    except _Refused:
        return RATE_LIMITED
    except DatabaseError:
        _store_failed(prep.made, hits=hits, at=at)
        raise
    _limits_settle(
        hits=hits,
        at=at,
        resent=not result.created,
        session_key=session_key,
        client_id=client_id,
        new_session=conv.pk if new_token else None,
    )
    return _visitor_turn(prep, result, conv, new_token=new_token, hint=hint)


def _visitor_turn(prep: "_Preparation", result, conv, *, new_token, hint) -> VisitorTurn:
    ready, void = prep.settled(result, conv)
    return VisitorTurn(
        outcome=turn_outcome(state=conv.state, created=result.created),
        conversation_id=conv.pk,
        seq=result.turn.seq,
        new_token=new_token,
        hint=turn_public(hint) if hint is not None else None,
        prepared=ready,
        started_void=void,
    )


def _store_failed(
    made: list[tuple[int, int, PreparedAnswer]], *, hits: list[tuple[str, str]], at: float
) -> None:
    """Nothing was stored: the widget sends the same id again, which is counted then, and
    the answer made ready for it lets go of its lease (the same seq comes again)."""
    for conversation_id, request_seq, prepared in made:
        answer_prepared_release(conversation_id, request_seq, prepared)
    rate_limits_refund_fail_open(hits=hits, at=at)


def _limits_settle(
    *,
    hits: list[tuple[str, str]],
    at: float,
    resent: bool,
    session_key: str,
    client_id: str,
    new_session: int | None,
) -> None:
    """What the limits count once the turn is stored. A resend of a stored message (its
    ack or its answer was lost in an outage) is free once per message, so resending one id
    cannot buy model calls past the limits. The first message of a new conversation was
    counted under the socket; it counts for the conversation's session too."""
    if resent and _first_resend(session_key=session_key, client_id=client_id):
        rate_limits_refund_fail_open(hits=hits, at=at)
    if new_session is not None:
        rate_limit_hit_fail_open(
            key=cache_keys.rate_session(new_session), rate=settings.RATE_LIMIT_PER_SESSION
        )


def _admit(counted: RateCount) -> None:
    if counted.limited():
        raise _Refused


def _embedding_start(conv, text: str) -> None:
    """A message the bot will answer, on a site whose context embeds it (after the ack,
    `context_after_ack`): its embedding starts as soon as its stored text is final, under
    the row lock before the turn's statement, so it runs beside the statement, the commit
    and the ack; the build after the ack finds it running or done (the same text). Not
    before: until the conversation is read, what the turns before leave open (a bare code
    after "enter the code") may still be removed, and an embedding endpoint must never see
    it. A resend of a stored message is embedded too (its answer, if any is due, uses it)."""
    try:
        if bot_may_answer(conv.state) and context_after_ack(conv.site_id):
            message_embedding_start(text, handoff=False)
    except Exception as exc:  # noqa: BLE001 - inside the turn's transaction: the build starts it later
        log.info("message embedding not started early", extra={"error": type(exc).__name__})


def _prepared_after_commit(result, conv, deferred: bool) -> PreparedAnswer | None:
    """The answer of a turn that may start a condensation, prepared after the commit."""
    if not deferred or result.answer_seq is None:
        return None
    return answer_prepare(
        conversation=conv,
        request_seq=result.turn.seq,
        seq=result.answer_seq,
        message=result.turn.text,
    )


class _Preparation:
    """The answer made ready in the visitor turn's own transaction, kept in `made` and handed
    to `on_prepared` (the socket) at once: from the turn in hand before its statement
    (`before_insert`), so the model request goes out before the turn's statement and the
    commit; a turn followed by a removal hint has no such step, and its answer is made
    ready once both are written (`before_commit`). A turn whose commit may start a
    condensation is prepared after the commit instead (`deferred`), as before the overlap:
    where condensation runs at once (eager, a worker that keeps up) the context then holds
    the new core, not an inline condensation."""

    def __init__(self, on_prepared: Callable[[int, int, PreparedAnswer], None] | None) -> None:
        self.on_prepared = on_prepared
        self.made: list[tuple[int, int, PreparedAnswer]] = []
        self.deferred = False
        self.tried = False
        self.called_off = False  # handed to the socket, then its lease refused

    def before_insert(self, conv, turn, answer_seq: int | None) -> None:
        self.tried = True
        pending = TurnRow(
            turn.seq, turn.role, turn.text, turn.token_count, turn.page, turn.attachments
        )
        self._prepare(conv, turn.seq, answer_seq, turn.text, pending)

    def before_commit(self, result, conv) -> None:
        if not self.tried:
            self._prepare(conv, result.turn.seq, result.answer_seq, result.turn.text, None)

    def settled(self, result, conv) -> tuple[PreparedAnswer | None, bool]:
        """After the commit: the answer made ready, and whether one was started for a
        message its statement found stored (void: made for the seq the resend did not take,
        which the next message takes, so its lease goes now) or whose lease was refused once
        it was handed over (void too: the usual way waits for the lease's holder)."""
        if self.made and not result.created:
            for made in self.made:
                answer_prepared_release(*made)
            return _prepared_after_commit(result, conv, self.deferred), True
        if self.called_off:  # another holds its lease: the usual way waits for it
            return None, True
        if self.made:
            return self.made[-1][2], False
        return _prepared_after_commit(result, conv, self.deferred), False

    def _prepare(self, conv, request_seq: int, answer_seq, message: str, pending) -> None:
        if answer_seq is None:
            return
        if condensation_may_follow(conv):
            self.deferred = True
            return
        handed = False

        def hand_over(prepared: PreparedAnswer) -> None:
            # built: the model request starts now, the lease is taken while it goes out;
            # with embeddings the build waits for the ack (it reads the committed turn), so
            # there is no hand-over and the socket starts it after the ack
            nonlocal handed
            handed = True
            self.on_prepared(conv.pk, request_seq, prepared)  # type: ignore[misc]

        prepared = answer_prepare(
            conversation=conv,
            request_seq=request_seq,
            seq=answer_seq,
            message=message,
            pending=pending,
            hand_over=hand_over if self.on_prepared is not None else None,
        )
        if prepared is not None:
            self.made.append((conv.pk, request_seq, prepared))
        elif handed:
            self.called_off = True


def visitor_turn_case_update(*, turn: VisitorTurn) -> None:
    """The team has the conversation: contact details in the turn join the open case."""
    if turn.outcome is TurnOutcome.CASE_UPDATE:
        handover_visitor_message(conversation_id=turn.conversation_id, seq=turn.seq)
