"""The visitor's websocket: the protocol in DESIGN.md. Thin: parse (chatwidget.widget.protocol), call
one service, send what it returns."""

import asyncio
import json
import logging

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import Error as DatabaseError
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from redis.exceptions import RedisError

from chatwidget.assistant.answers import answer_generate, answer_recover
from chatwidget.assistant.turns import (
    TurnOutcome,
    VisitorTurn,
    bot_may_answer,
    visitor_rate_limited,
    visitor_turn_case_update,
    visitor_turn_receive,
)
from chatwidget.platform import frames
from chatwidget.platform.db import db_async
from chatwidget.platform.frames import ErrorCode
from chatwidget.sites.selectors import origin_allowed, site_info_by_key
from chatwidget.widget import protocol
from chatwidget.widget.limits import CLOSE_TOO_MANY, SocketGuard
from chatwidget.widget.membership import ConversationMembership
from chatwidget.widget.protocol import ProtocolError
from handover.models import Case
from handover.services import handover_request
from handover.services.ratings import rating_give, rating_state
from memory import profiles
from memory import selectors as memory_selectors
from memory.erasure import conversation_erase_by_visitor
from memory.models import ConversationState

log = logging.getLogger(__name__)

# Close code meaning "this process cannot serve you now: reconnect and resume" (shutdown,
# Redis or the database away). 1012/1013 would say so, but servers may only send 1000 and
# 3000-4999 (RFC 6455, 7.4.2), so it is an application code.
CLOSE_RECONNECT = 4503
UNAVAILABLE_TEXT = _("The chat is briefly unavailable. Please try again in a moment.")
RATE_LIMITED_TEXT = _("Too many messages. Please wait a moment.")
TOO_MANY_TEXT = _("Too many chats are open from your network. Close one and try again.")


def _welcome_data(site_id: int, token: str | None, last_seq: int | None):
    conv = memory_selectors.conversation_get_by_token(site_id=site_id, token=token)
    if conv is None:
        return None, []
    turns = memory_selectors.turns_for_visitor(conversation_id=conv.pk, after_seq=last_seq)
    return conv, [memory_selectors.turn_public(t) for t in turns]


class ChatConsumer(ConversationMembership, AsyncWebsocketConsumer):
    site = None
    conversation_id: int | None = None
    token: str | None = None
    profile_id: int | None = None  # the recognition profile of this visit (after consent)
    greeted = False
    renewer: asyncio.Task | None = None

    async def connect(self) -> None:
        self.tasks: set[asyncio.Task] = set()
        self.answer_lock = asyncio.Lock()
        client = self.scope.get("client") or ("?", 0)  # from trusted proxies only
        self.address = str(client[0])
        self.guard = SocketGuard(
            address=self.address,
            close=self.close,
            greeted=lambda: self.greeted,
            busy=self._answer_running,
        )
        if not self.guard.admit():  # before any database work
            await self.accept()
            await self._error(ProtocolError(ErrorCode.TOO_MANY_CONNECTIONS, TOO_MANY_TEXT))
            await self.close(code=CLOSE_TOO_MANY)
            return
        key = self.scope["url_route"]["kwargs"]["site_key"]
        try:
            self.site = await db_async(site_info_by_key)(key=key)
        except DatabaseError as exc:
            log.warning(
                "database unavailable", extra={"at": "connect", "error": type(exc).__name__}
            )
            await self.accept()
            await self._error(ProtocolError(ErrorCode.UNAVAILABLE, UNAVAILABLE_TEXT))
            await self.close(code=CLOSE_RECONNECT)
            return
        headers = dict(self.scope.get("headers", []))
        origin = headers.get(b"origin", b"").decode("latin-1") or None
        await self.accept()
        if self.site is None:
            await self._error(
                ProtocolError(
                    ErrorCode.UNKNOWN_SITE, _("This chat is not configured for this site.")
                )
            )
            await self.close(code=4404)
            return
        if not origin_allowed(info=self.site, origin=origin):
            log.info("origin refused", extra={"site": self.site.id})
            await self._error(
                ProtocolError(ErrorCode.FORBIDDEN_ORIGIN, _("This page may not use this chat."))
            )
            await self.close(code=4403)
            return
        self.language = self.site.language

    async def dispatch(self, message: dict) -> None:
        """Channels' dispatch, without its `aclose_old_connections()` before every handler: a
        thread hop per incoming frame and per channel-layer event, on the one thread-sensitive
        thread, to tidy connections this consumer never uses there. Every database call here
        goes through `db_async`, whose thread closes stale connections before and after
        (channels.db.DatabaseSyncToAsync)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "guard", None) is not None:
            self.guard.release()
        # An answer being streamed is not cancelled: it is stored and published to the
        # conversation's group, so a visitor who changed pages gets it on the next one.
        if self.renewer is not None:
            self.renewer.cancel()
        if self.conversation_id is not None:
            await self._group("discard", self.conversation_id)

    async def __call__(self, scope, receive, send) -> None:
        """Two ways this socket ends without the visitor closing it, both with a clean close
        (CLOSE_RECONNECT) after which the widget reconnects, to any process, and resumes
        from its last seq: the channel layer's receive fails (Redis restarted or away), or
        Daphne stops (SIGTERM cancels every consumer)."""
        try:
            await super().__call__(scope, receive, send)
        except RedisError as exc:
            log.warning(
                "channel layer unavailable", extra={"at": "receive", "error": type(exc).__name__}
            )
            await self._close_for_reconnect(grace=0)
        except asyncio.CancelledError:
            await self._close_for_reconnect(grace=settings.WS_SHUTDOWN_GRACE_SECONDS)
            raise

    async def _close_for_reconnect(self, *, grace: float) -> None:
        if self.renewer is not None:
            self.renewer.cancel()
        running = [t for t in getattr(self, "tasks", ()) if t is not self.renewer]
        if running and grace:  # let an answer being streamed finish, within the grace
            await asyncio.wait(running, timeout=grace)
        for task in running:  # an unfinished answer hands its turn over (lease released)
            task.cancel()
        if running:
            await asyncio.wait(running, timeout=1)
        try:
            # (Database threads never wait on this loop: chatwidget.platform.events hands events over
            # without blocking, so a stopping loop cannot hang the process.)
            await self.close(code=CLOSE_RECONNECT)
        except Exception as exc:  # the socket or the database may already be gone
            log.info("close for reconnect incomplete", extra={"error": type(exc).__name__})

    # --- frames from the widget -----------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.site is None:
            return
        if not self.guard.frame():  # every frame type counts, before any parsing
            await self._error(ProtocolError(ErrorCode.RATE_LIMITED, RATE_LIMITED_TEXT))
            return
        envelope = protocol.envelope_parse(
            text_data, max_bytes=settings.WS_MAX_FRAME_BYTES, greeted=self.greeted
        )
        if isinstance(envelope, ProtocolError):
            await self._error(envelope)
            return
        with translation.override(self.language):
            frame = protocol.frame_parse(envelope, max_length=self.site.max_length)
            if isinstance(frame, ProtocolError):
                await self._error(frame)
                return
            try:
                await self._dispatch(frame)
            except DatabaseError as exc:
                # Each service call is one transaction: nothing was half-written, and a retry
                # with the same client id is idempotent.
                log.warning(
                    "database unavailable",
                    extra={"at": envelope.type.value, "error": type(exc).__name__},
                )
                await self._error(
                    ProtocolError(ErrorCode.UNAVAILABLE, UNAVAILABLE_TEXT, envelope.client_id)
                )
                if not self.greeted:
                    # the widget says hello only on open: a clean close makes it reconnect
                    # (with backoff) and say hello again, instead of a socket stuck un-greeted
                    await self.close(code=CLOSE_RECONNECT)

    async def _dispatch(self, frame: protocol.Inbound) -> None:
        match frame:
            case protocol.Hello():
                await self.on_hello(frame)
            case protocol.Message():
                await self.on_message(frame)
            case protocol.HandoverRequest():
                await self.on_handover(frame)
            case protocol.Forget():
                await self.on_forget()
            case protocol.Consent():
                await self.on_consent(frame)
            case protocol.ProfileRequest():
                await self.on_profile()
            case protocol.Rate():
                await self.on_rate(frame)

    async def on_hello(self, frame: protocol.Hello) -> None:
        if frame.lang is not None:
            self.language = frame.lang
        conv, turns = await db_async(_welcome_data)(self.site.id, frame.session, frame.last_seq)
        self.greeted = True
        if conv is None:
            self.token = None
            await self._send(
                frames.welcome_frame(
                    session=None, resumed=False, state=ConversationState.BOT, turns=[]
                )
            )
            await self._recognise(frame.recognition, None)
            return
        self.token = frame.session
        await self._join(conv.pk)
        await self._send(
            frames.welcome_frame(session=frame.session, resumed=True, state=conv.state, turns=turns)
        )
        await self._recognise(frame.recognition, conv.pk)
        if conv.state == ConversationState.CLOSED:  # resolved: ask for a rating, or thank
            state = await db_async(rating_state)(conversation_id=conv.pk)
            await self._send(frames.rating_frame(askable=state.askable, score=state.score))
        if bot_may_answer(conv.state):
            # an acked question whose answer died with another process (or this one's
            # predecessor) is answered here
            self._spawn(self._recover(conv.pk))

    async def _recognise(self, token: str | None, conversation_id: int | None) -> None:
        """The recognition cookie's token, sent with hello only after consent: a live profile
        is linked (and its cookie renewed); an unknown or expired one is deleted in the widget."""
        if token is None:
            return
        result = await db_async(profiles.profile_recognise)(
            site_id=self.site.id, token=token, conversation_id=conversation_id
        )
        self.profile_id = result.profile_id
        await self._send(
            frames.consent_frame(
                recognition=result.recognition, token=result.token, max_age=result.max_age
            )
        )

    async def on_message(self, frame: protocol.Message) -> None:
        turn = await db_async(visitor_turn_receive)(
            site_id=self.site.id,
            address=self.address,
            session_key=str(self.conversation_id or self.channel_name),
            token=self.token,
            client_id=frame.id,
            text=frame.text,
            language=self.language,
            profile_id=self.profile_id,
            conversation_id=self.conversation_id,
            prepare_answer=not self._answer_running(),
        )
        outcome = turn.outcome
        if outcome is TurnOutcome.RATE_LIMITED:
            await self._error(ProtocolError(ErrorCode.RATE_LIMITED, RATE_LIMITED_TEXT, frame.id))
            return
        if turn.new_token:
            self.token = turn.new_token
        await self._join(turn.conversation_id)  # also renews the membership before the answer
        await self._send(frames.ack_frame(client_id=frame.id, seq=turn.seq, session=self.token))
        if turn.hint is not None and turn.new_token:  # published before this socket joined
            await self._send(frames.message_frame(turn.hint))
        if outcome in (TurnOutcome.ANSWER, TurnOutcome.ANSWER_IF_UNANSWERED):
            self._spawn(self._answer(turn.conversation_id, turn.seq, frame.id, turn))
        elif outcome is TurnOutcome.CASE_UPDATE:
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

    async def on_forget(self) -> None:
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

    async def on_profile(self) -> None:
        fields = await db_async(profiles.profile_fields_for_visitor)(
            site_id=self.site.id, profile_id=self.profile_id, conversation_id=self.conversation_id
        )
        await self._send(frames.profile_frame(fields=fields))

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

    async def chat_event(self, message: dict) -> None:
        event = message["event"]
        self.guard.touch()
        await self._send(event)
        if frames.is_forgotten(event):
            self.conversation_id = None
            self.token = None
            await self.close()

    # --- helpers ----------------------------------------------------------------------------

    async def _answer(
        self, conversation_id: int, seq: int, client_id: str, turn: VisitorTurn
    ) -> None:
        async with self.answer_lock:
            try:
                await answer_generate(
                    conversation_id=conversation_id,
                    request_seq=seq,
                    send=self._send,
                    client_id=client_id,
                    retry=turn.outcome is TurnOutcome.ANSWER_IF_UNANSWERED,
                    prepared=turn.prepared,
                )
            except DatabaseError as exc:
                log.warning(
                    "database unavailable", extra={"at": "answer", "error": type(exc).__name__}
                )
                with translation.override(self.language):
                    await self._error(
                        ProtocolError(ErrorCode.UNAVAILABLE, UNAVAILABLE_TEXT, client_id)
                    )

    async def _recover(self, conversation_id: int) -> None:
        try:
            await answer_recover(
                conversation_id=conversation_id, send=self._send, lock=self.answer_lock
            )
        except DatabaseError as exc:
            log.warning(
                "database unavailable", extra={"at": "recover", "error": type(exc).__name__}
            )

    async def _send(self, frame: dict) -> None:
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))

    async def _error(self, error: ProtocolError) -> None:
        await self._send(
            frames.error_frame(code=error.code, message=error.message, client_id=error.client_id)
        )
