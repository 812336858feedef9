"""The visitor's websocket: the protocol in DESIGN.md. Thin: each frame handler calls one
service and sends what it returns. The connection's life (admission, origin, parsing,
outages, reconnect closes) is chatwidget.widget.socket's; group membership and the
socket's background tasks are chatwidget.widget.membership's."""

import asyncio
import logging

from django.db import Error as DatabaseError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from chatwidget.assistant.answers import AnswerUnavailable, answer_generate, answer_recover
from chatwidget.assistant.preparation import AnswerResult, PreparedAnswer
from chatwidget.assistant.turns import (
    TurnOutcome,
    VisitorTurn,
    bot_may_answer,
    visitor_rate_limited,
    visitor_turn_case_update,
    visitor_turn_receive,
)
from chatwidget.platform import frames
from chatwidget.platform.db import db_async, urgent_hop
from chatwidget.platform.frames import ErrorCode
from chatwidget.sites.identity import Identity, identity_verify
from chatwidget.widget import protocol
from chatwidget.widget.early import EarlyAnswer
from chatwidget.widget.limits import history_turns_budget
from chatwidget.widget.membership import ConversationMembership
from chatwidget.widget.protocol import ProtocolError
from chatwidget.widget.socket import RATE_LIMITED_TEXT, UNAVAILABLE_TEXT, VisitorSocket
from chatwidget.widget.welcome import customer_profile, upload_session_join, welcome_data
from handover.models import Case
from handover.services import handover_request
from handover.services.ratings import rating_give, rating_state
from memory import profiles
from memory import selectors as memory_selectors
from memory.erasure import conversation_erase_by_visitor
from memory.models import ConversationState

log = logging.getLogger(__name__)


class ChatConsumer(ConversationMembership, VisitorSocket):
    conversation_id: int | None = None
    token: str | None = None
    profile_id: int | None = None  # the recognition profile of this visit (after consent)
    masked: bool = False  # a linked session: contact details masked in what it is sent
    identity: Identity | None = None  # the customer of a verified hello.identity
    customer_id: int | None = None  # ... and their row (memory.Customer)

    async def connect(self) -> None:
        self.tasks: set[asyncio.Task] = set()
        self.answer_lock = asyncio.Lock()
        await super().connect()

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        # An answer being streamed is not cancelled: it is stored and published to the
        # conversation's group, so a visitor who changed pages gets it on the next one.
        if self.renewer is not None:
            self.renewer.cancel()
        if self.conversation_id is not None:
            await self._group("discard", self.conversation_id)

    # --- frames from the widget -----------------------------------------------------------

    async def on_hello(self, frame: protocol.Hello) -> None:
        if frame.lang is not None:
            self.language = frame.lang
        secret = self.site.identity_secret if self.site is not None else ""
        verified = identity_verify(secret=secret, identity=frame.identity)
        self.identity = frame.identity if verified else None
        self.customer_id, conv, page, masked = await db_async(welcome_data)(
            self.site.id, frame.session, frame.last_seq, frame.lang, self.identity
        )
        self.masked = masked
        self.greeted = True
        if conv is None or page is None:
            self.token = None
            await self._send(
                frames.welcome_frame(
                    session=None, resumed=False, state=ConversationState.BOT, turns=[]
                )
            )
            await self._identity_refused(frame.identity, verified)
            await self._recognise(frame.recognition, None)
            return
        self.token = frame.session
        await self._join(conv.pk)
        self.seen_seq = max([frame.last_seq or 0, *(t["seq"] for t in page.turns)])
        await self._send(
            frames.welcome_frame(
                session=frame.session,
                resumed=True,
                state=conv.state,
                turns=page.turns,
                earlier=page.earlier,
            )
        )
        await self._identity_refused(frame.identity, verified)
        await self._recognise(frame.recognition, conv.pk)
        if conv.state == ConversationState.CLOSED:  # resolved: ask for a rating, or thank
            state = await db_async(rating_state)(conversation_id=conv.pk)
            await self._send(frames.rating_frame(askable=state.askable, score=state.score))
        if bot_may_answer(conv.state):
            # an acked question whose answer died with another process (or this one's
            # predecessor) is answered here
            self._spawn(self._recover(conv.pk))

    async def _identity_refused(self, identity: Identity | None, verified: bool) -> None:
        """A hello.identity whose signature does not verify: `identity_invalid`, and the
        conversation goes on anonymously (nothing is linked)."""
        if identity is None or verified:
            return
        log.info("identity refused")
        await self._error(
            ProtocolError(
                ErrorCode.IDENTITY_INVALID,
                _("The sign-in could not be confirmed; the chat goes on without it."),
            )
        )

    async def _recognise(self, token: str | None, conversation_id: int | None) -> None:
        """The recognition cookie's token, sent with hello only after consent: a live profile
        is linked (and its cookie renewed); an unknown or expired one is deleted in the widget.
        Without one, a verified customer resumes the profile they consented to on another
        device (memory.customers.customer_profile_id); no identity ever makes a profile."""
        site_id = self.site.id if self.site is not None else 0
        if token is not None:
            result = await db_async(profiles.profile_recognise)(
                site_id=site_id, token=token, conversation_id=conversation_id
            )
            self.profile_id = result.profile_id
            await self._send(
                frames.consent_frame(
                    recognition=result.recognition, token=result.token, max_age=result.max_age
                )
            )
        if self.profile_id is None and self.identity is not None:
            self.profile_id = await db_async(customer_profile)(
                site_id, self.identity, conversation_id
            )

    async def on_message(self, frame: protocol.Message) -> None:
        """Store the turn, ack it, answer it. The answer's model request starts from the
        database thread as soon as its context is built, before the turn's commit
        (chatwidget.widget.early); its deltas wait for the ack, which follows the commit."""
        early = EarlyAnswer(
            spawn=lambda conversation_id, seq, prepared, send: self._spawn(
                self._answer(conversation_id, seq, frame.id, prepared=prepared, send=send)
            ),
            send=self._send,
        )
        try:
            async with urgent_hop():
                turn = await db_async(visitor_turn_receive)(
                    site_id=self.site.id,
                    address=self.address,
                    session_key=str(self.conversation_id or self.channel_name),
                    token=self.token,
                    client_id=frame.id,
                    text=frame.text,
                    page_url=frame.page.url if frame.page else None,
                    page_title=frame.page.title if frame.page else "",
                    language=self.language,
                    profile_id=self.profile_id,
                    conversation_id=self.conversation_id,
                    prepare_answer=not self._answer_running(),
                    customer_id=self.customer_id,
                    on_prepared=early.start_threadsafe,
                )
            outcome = turn.outcome
            if outcome is TurnOutcome.RATE_LIMITED:
                await self._error(
                    ProtocolError(ErrorCode.RATE_LIMITED, RATE_LIMITED_TEXT, frame.id)
                )
                return
            if turn.new_token:
                self.token = turn.new_token
            await self._join(turn.conversation_id)  # renews the membership before the answer
            await self._send(frames.ack_frame(client_id=frame.id, seq=turn.seq, session=self.token))
            if turn.hint is not None and turn.new_token:  # published before this socket joined
                await self._send(frames.message_frame(turn.hint))
        except BaseException:
            early.cancel()  # the turn rolled back, or its ack never went: nothing streams
            raise
        if turn.started_void:  # started for a message that was stored already (a resend)
            early.cancel()
        if outcome in (TurnOutcome.ANSWER, TurnOutcome.ANSWER_IF_UNANSWERED):
            if not early.go():
                self._spawn(self._answer(turn.conversation_id, turn.seq, frame.id, turn=turn))
        else:
            early.cancel()
            if outcome is TurnOutcome.CASE_UPDATE:
                await db_async(visitor_turn_case_update)(turn=turn)

    async def on_handover(self, frame: protocol.HandoverRequest) -> None:
        if self.conversation_id is None:
            await self._error(ProtocolError(ErrorCode.NO_CONVERSATION, _("Write a message first.")))
            return
        # In the background: the state changes at once, then the case's core is condensed
        # (it may call the model); this socket keeps taking frames meanwhile.
        self._spawn(
            db_async(handover_request)(
                conversation_id=self.conversation_id,
                trigger=Case.Trigger.VISITOR,
                reason=frame.reason,
            )
        )

    async def on_forget(self, frame: protocol.Forget) -> None:
        if self.conversation_id is not None:
            await db_async(conversation_erase_by_visitor)(conversation_id=self.conversation_id)
        else:
            await self._send(frames.forgotten_frame())
            await self.close()

    async def on_consent(self, frame: protocol.Consent) -> None:
        """Recognition consent: granted, a profile and a token for the widget's cookie;
        withdrawn, the profile and its linked transcripts are deleted at once."""
        if frame.recognition and await db_async(visitor_rate_limited)(
            address=self.address, session_key=str(self.conversation_id or self.channel_name)
        ):
            await self._error(ProtocolError(ErrorCode.RATE_LIMITED, RATE_LIMITED_TEXT))
            return
        service = profiles.consent_grant if frame.recognition else profiles.consent_withdraw
        result = await db_async(service)(
            site_id=self.site.id, conversation_id=self.conversation_id, profile_id=self.profile_id
        )
        self.profile_id = result.profile_id
        await self._send(
            frames.consent_frame(
                recognition=result.recognition, token=result.token, max_age=result.max_age
            )
        )

    async def on_profile(self, frame: protocol.ProfileRequest) -> None:
        fields = await db_async(profiles.profile_fields_for_visitor)(
            site_id=self.site.id, profile_id=self.profile_id, conversation_id=self.conversation_id
        )
        await self._send(frames.profile_frame(fields=fields))

    async def on_history(self, frame: protocol.History) -> None:
        """Earlier turns of this conversation, a page within the frame budget."""
        if self.conversation_id is None:
            await self._error(ProtocolError(ErrorCode.NO_CONVERSATION, _("Write a message first.")))
            return
        page = await db_async(memory_selectors.turns_for_visitor_page)(
            conversation_id=self.conversation_id,
            before_seq=frame.before_seq,
            max_bytes=history_turns_budget(),
            masked=self.masked,
        )
        await self._send(
            frames.history_frame(
                before_seq=frame.before_seq, turns=page.turns, earlier=page.earlier
            )
        )

    async def on_attached(self, frame: protocol.Attached) -> None:
        """The widget's upload (HTTP, chatwidget.widget.views.widget_upload) is stored as a
        visitor turn: answer it here, streamed, as a reconnect answers an unanswered turn
        (the lease keeps a second `attached` from answering twice). An upload before the
        first message started the conversation: this socket joins it by its token."""
        if self.conversation_id is None and frame.session is not None and self.site is not None:
            joined = await db_async(upload_session_join)(
                site_id=self.site.id,
                token=frame.session,
                identity=self.identity,
                profile_id=self.profile_id,
            )
            if joined is not None:
                self.token, self.masked = frame.session, joined[1]
                await self._join(joined[0])
        if self.conversation_id is not None:
            self._spawn(self._recover(self.conversation_id))

    async def on_rate(self, frame: protocol.Rate) -> None:
        """The visitor rates the resolved case; the answer is the stored state."""
        if self.conversation_id is None:
            await self._error(ProtocolError(ErrorCode.NO_CONVERSATION, _("Write a message first.")))
            return
        if await db_async(visitor_rate_limited)(
            address=self.address, session_key=str(self.conversation_id)
        ):
            await self._error(ProtocolError(ErrorCode.RATE_LIMITED, RATE_LIMITED_TEXT))
            return
        rating = await db_async(rating_give)(
            conversation_id=self.conversation_id, score=frame.score, comment=frame.comment
        )
        await self._send(
            frames.rating_frame(askable=rating is not None, score=rating.score if rating else None)
        )

    # --- events from the channel layer ----------------------------------------------------

    async def _rejoined(self, conversation_id: int) -> None:
        """Back in the conversation's group after a join that failed (Redis restarting): the
        turns published meanwhile, which the group kept for no one outside it, as message
        frames. The widget keeps one turn per seq: one it has already is only put again."""
        try:
            page = await db_async(memory_selectors.turns_for_visitor_page)(
                conversation_id=conversation_id,
                after_seq=self.seen_seq,
                max_bytes=history_turns_budget(),
                masked=self.masked,
            )
        except DatabaseError as exc:  # the renewal and the widget's resume remain
            log.warning("missed turns not sent", extra={"error": type(exc).__name__})
            return
        for turn in page.turns:
            await self._send(frames.message_frame(turn))

    async def chat_event(self, message: dict) -> None:
        event = message["event"]
        self.guard.touch()
        if self.masked and self.conversation_id is not None:
            event = await db_async(memory_selectors.event_masked)(
                conversation_id=self.conversation_id, event=event
            )
        await self._send(event)
        if frames.is_forgotten(event):
            self.conversation_id = None
            self.token = None
            await self.close()

    # --- answers ------------------------------------------------------------------------------

    async def _answer(
        self,
        conversation_id: int,
        seq: int,
        client_id: str,
        *,
        turn: VisitorTurn | None = None,
        prepared: PreparedAnswer | None = None,
        send=None,
    ) -> None:
        async with self.answer_lock:
            try:
                result = await answer_generate(
                    conversation_id=conversation_id,
                    request_seq=seq,
                    send=send or self._send,
                    client_id=client_id,
                    retry=turn is not None and turn.outcome is TurnOutcome.ANSWER_IF_UNANSWERED,
                    prepared=prepared or (turn.prepared if turn is not None else None),
                    address=self.address,
                )
            except AnswerUnavailable as exc:
                await self._unavailable("answer", exc)
                return
        if result is AnswerResult.BUSY and turn is not None:
            # Someone holds this turn's lease. Usually another socket answering it; but a
            # process that took the lease with its turn (before the commit, issue 30) and died
            # before the commit left it to nobody, and this socket acked the turn again: wait,
            # as a hello does, until that answer is stored or the lease lapses, then answer.
            await self._recover(conversation_id)

    async def _recover(self, conversation_id: int) -> None:
        try:
            await answer_recover(
                conversation_id=conversation_id,
                send=self._send,
                lock=self.answer_lock,
                address=self.address,
            )
        except AnswerUnavailable as exc:
            await self._unavailable("recover", exc)
        except DatabaseError as exc:  # looking for an unanswered turn: nothing to offer
            log.warning(
                "database unavailable", extra={"at": "recover", "error": type(exc).__name__}
            )

    async def _unavailable(self, at: str, exc: AnswerUnavailable) -> None:
        """The answer to message `exc.client_id` was lost to a database outage: `unavailable`
        with that id, so the widget offers to ask again (the same id: no second turn)."""
        cause = type(exc.__cause__).__name__
        log.warning("database unavailable", extra={"at": at, "error": cause})
        with translation.override(self.language):
            await self._error(ProtocolError(ErrorCode.UNAVAILABLE, UNAVAILABLE_TEXT, exc.client_id))
