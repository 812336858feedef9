"""The visitor socket's connection life, whatever its frames say: admission (socket limits),
the site and its allowed origins, parsing each frame (chatwidget.widget.protocol) in the
visitor's language, a database outage answered per frame, and the clean close after which
the widget reconnects (shutdown, Redis away). The frame handlers are ChatConsumer's
(chatwidget.widget.consumers)."""

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

from chatwidget.platform import frames
from chatwidget.platform.db import db_async
from chatwidget.platform.frames import ErrorCode
from chatwidget.sites.selectors import SiteInfo, origin_allowed, site_info_by_key
from chatwidget.widget import protocol
from chatwidget.widget.limits import CLOSE_TOO_MANY, SocketGuard
from chatwidget.widget.protocol import ProtocolError

log = logging.getLogger(__name__)

# Close code meaning "this process cannot serve you now: reconnect and resume" (shutdown,
# Redis or the database away). 1012/1013 would say so, but servers may only send 1000 and
# 3000-4999 (RFC 6455, 7.4.2), so it is an application code.
CLOSE_RECONNECT = 4503
UNAVAILABLE_TEXT = _("The chat is briefly unavailable. Please try again in a moment.")
RATE_LIMITED_TEXT = _("Too many messages. Please wait a moment.")
TOO_MANY_TEXT = _("Too many chats are open from your network. Close one and try again.")


# Each inbound frame type and the handler that takes it (a method of the consumer).
HANDLERS: dict[type, str] = {
    protocol.Hello: "on_hello",
    protocol.Message: "on_message",
    protocol.HandoverRequest: "on_handover",
    protocol.Forget: "on_forget",
    protocol.Consent: "on_consent",
    protocol.ProfileRequest: "on_profile",
    protocol.Rate: "on_rate",
    protocol.History: "on_history",
    protocol.Attached: "on_attached",
}


class VisitorSocket(AsyncWebsocketConsumer):
    """Subclasses implement one `on_<frame>` handler per entry of HANDLERS and
    `_answer_running()` (an answer streams on this socket); they keep their background
    tasks in `tasks`, the group renewal in `renewer`."""

    site: SiteInfo | None = None
    greeted = False
    renewer: asyncio.Task | None = None
    seen_seq = 0  # the newest complete turn sent to the widget (`ConversationMembership`)
    tasks: set[asyncio.Task]

    def _answer_running(self) -> bool:
        raise NotImplementedError

    async def connect(self) -> None:
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
        except Exception as exc:  # noqa: BLE001 - the socket or the database may already be gone
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
                await getattr(self, HANDLERS[type(frame)])(frame)
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

    async def _send(self, frame: dict) -> None:
        if frame.get("type") == "message":
            self.seen_seq = max(self.seen_seq, frame.get("seq") or 0)
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))

    async def _error(self, error: ProtocolError) -> None:
        await self._send(
            frames.error_frame(code=error.code, message=error.message, client_id=error.client_id)
        )
