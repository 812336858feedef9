"""The visitor's websocket: the protocol in DESIGN.md. Thin: parse, check, call services."""

import asyncio
import json
import logging

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import Error as DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

from chatwidget import services
from chatwidget.db import db_async
from chatwidget.events import conversation_group
from chatwidget.ratelimit import rate_limit_hit
from chatwidget.selectors import origin_allowed, site_info_by_key
from memory import profiles
from memory import selectors as memory_selectors
from memory import services as memory_services

log = logging.getLogger(__name__)

MAX_CLIENT_ID = 64
# How often an open socket renews its conversation-group membership in the channel layer: a
# Redis restart without persistence forgets every group, and this brings the tab back.
GROUP_RENEW_SECONDS = 30
# When Daphne stops (SIGTERM), an answer being streamed may finish within this many seconds
# before the socket closes (keep it below the stop timeout of systemd/Kubernetes: 30 s).
SHUTDOWN_GRACE_SECONDS = 10
# Close code meaning "this process cannot serve you now: reconnect and resume" (shutdown,
# Redis or the database away). 1012/1013 would say so, but servers may only send 1000 and
# 3000-4999 (RFC 6455, 7.4.2), so it is an application code.
CLOSE_RECONNECT = 4503


def _rate_hit(*, key: str, rate: str) -> bool:
    """A rate-limit count that fails open while the cache (Redis) is unreachable: a short
    outage must not stop every conversation."""
    try:
        return rate_limit_hit(key=key, rate=rate)
    except (ConnectionInterrupted, RedisError, OSError) as exc:
        log.warning("cache unavailable", extra={"at": "rate_limit", "error": type(exc).__name__})
        return False


def _unavailable_text() -> str:
    return _("The chat is briefly unavailable. Please try again in a moment.")


def _welcome_data(site_id: int, token: str | None, last_seq: int | None):
    conv = memory_selectors.conversation_get_by_token(site_id=site_id, token=token)
    if conv is None:
        return None, []
    turns = memory_selectors.turns_for_visitor(conversation_id=conv.pk, after_seq=last_seq)
    return conv, [memory_selectors.turn_public(t) for t in turns]


class ChatConsumer(AsyncWebsocketConsumer):
    site = None
    conversation_id: int | None = None
    token: str | None = None
    profile_id: int | None = None  # the recognition profile of this visit (after consent)
    greeted = False
    renewer: asyncio.Task | None = None

    async def connect(self) -> None:
        self.tasks: set[asyncio.Task] = set()
        self.answer_lock = asyncio.Lock()
        key = self.scope["url_route"]["kwargs"]["site_key"]
        try:
            self.site = await db_async(site_info_by_key)(key=key)
        except DatabaseError as exc:
            log.warning("database unavailable", extra={"at": "connect",
                                                       "error": type(exc).__name__})
            await self.accept()
            await self._error("unavailable", _unavailable_text())
            await self.close(code=CLOSE_RECONNECT)
            return
        headers = dict(self.scope.get("headers", []))
        origin = headers.get(b"origin", b"").decode("latin-1") or None
        client = self.scope.get("client") or ("?", 0)
        self.address = str(client[0])
        await self.accept()
        if self.site is None:
            await self._error("unknown_site", _("This chat is not configured for this site."))
            await self.close(code=4404)
            return
        if not origin_allowed(info=self.site, origin=origin):
            log.info("origin refused", extra={"site": self.site.id})
            await self._error("forbidden_origin", _("This page may not use this chat."))
            await self.close(code=4403)
            return
        self.language = self.site.language

    async def disconnect(self, code: int) -> None:
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
            log.warning("channel layer unavailable", extra={"at": "receive",
                                                             "error": type(exc).__name__})
            await self._close_for_reconnect(grace=0)
        except asyncio.CancelledError:
            await self._close_for_reconnect(grace=SHUTDOWN_GRACE_SECONDS)
            raise

    async def _close_for_reconnect(self, *, grace: float) -> None:
        if self.renewer is not None:
            self.renewer.cancel()
        running = [t for t in getattr(self, "tasks", ()) if t is not self.renewer]
        if running and grace:  # let an answer being streamed finish, within the grace
            await asyncio.wait(running, timeout=grace)
        for task in running:
            task.cancel()
        try:
            # (Database threads never wait on this loop: chatwidget.events hands events over
            # without blocking, so a stopping loop cannot hang the process.)
            await self.close(code=CLOSE_RECONNECT)
        except Exception as exc:  # the socket or the database may already be gone
            log.info("close for reconnect incomplete", extra={"error": type(exc).__name__})

    # --- frames from the widget -----------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.site is None:
            return
        if text_data is None or len(text_data) > settings.WS_MAX_FRAME_BYTES:
            code = "bad_frame" if text_data is None else "too_long"
            await self._error(code, _("This frame could not be read."))
            return
        try:
            frame = json.loads(text_data)
        except ValueError:
            await self._error("bad_frame", _("This frame is not valid JSON."))
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            await self._error("bad_frame", _("Every frame needs a type."))
            return
        kind = frame["type"]
        if kind != "hello" and not self.greeted:
            await self._error("bad_frame", _("Say hello first."))
            return
        handler = getattr(self, f"on_{kind}", None) if kind.isidentifier() else None
        if handler is None:
            await self._error("unknown_type", _("Unknown frame type."))
            return
        with translation.override(self.language):
            try:
                await handler(frame)
            except DatabaseError as exc:
                # Each service call is one transaction: nothing was half-written, and a retry
                # with the same client id is idempotent.
                log.warning("database unavailable", extra={"at": kind,
                                                           "error": type(exc).__name__})
                client_id = frame.get("id") if isinstance(frame.get("id"), str) else None
                await self._error("unavailable", _unavailable_text(), client_id)

    async def on_hello(self, frame: dict) -> None:
        token = frame.get("session")
        last_seq = frame.get("last_seq")
        if not isinstance(token, str):
            token = None
        if not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0:
            last_seq = None
        lang = frame.get("lang")
        if lang in ("en", "de"):
            self.language = lang
        conv, turns = await db_async(_welcome_data)(self.site.id, token, last_seq)
        self.greeted = True
        if conv is None:
            self.token = None
            await self._send({"type": "welcome", "session": None, "resumed": False,
                              "state": "bot", "turns": []})
            await self._recognise(frame, None)
            return
        self.token = token
        await self._join(conv.pk)
        await self._send({"type": "welcome", "session": token, "resumed": True,
                          "state": conv.state, "turns": turns})
        await self._recognise(frame, conv.pk)

    async def _recognise(self, frame: dict, conversation_id: int | None) -> None:
        """The recognition cookie's token, sent with hello only after consent: a live profile
        is linked (and its cookie renewed); an unknown or expired one is deleted in the widget."""
        token = frame.get("recognition")
        if not isinstance(token, str) or not token:
            return
        result = await db_async(profiles.profile_recognise)(
            site_id=self.site.id, token=token, conversation_id=conversation_id
        )
        self.profile_id = result.profile_id
        await self._send(result.frame())

    async def on_message(self, frame: dict) -> None:
        client_id = frame.get("id")
        text = frame.get("text")
        if not isinstance(client_id, str) or not client_id or len(client_id) > MAX_CLIENT_ID:
            await self._error("bad_frame", _("A message needs an id."), None)
            return
        if not isinstance(text, str) or not text.strip():
            await self._error("empty", _("The message is empty."), client_id)
            return
        if len(text) > self.site.max_length:
            await self._error(
                "too_long",
                _("The message is too long (at most %(n)s characters).") % {"n": self.site.max_length},
                client_id,
            )
            return
        received = await db_async(self._receive)(client_id, text)
        if received is None:
            await self._error("rate_limited", _("Too many messages. Please wait a moment."),
                              client_id)
            return
        result, conv, new_token, hint = received
        if new_token:
            self.token = new_token
        await self._join(conv.pk)  # also renews the membership before the answer is published
        await self._send({"type": "ack", "id": client_id, "seq": result.turn.seq,
                          "session": self.token})
        if hint is not None and new_token:  # published before this socket joined the group
            await self._send({"type": "message", **memory_selectors.turn_public(hint)})
        if not result.created:
            # A retry (the ack was lost): answered only if no answer is on its way or stored.
            if conv.state == "bot":
                self._spawn(self._answer(conv.pk, result.turn.seq, client_id, retry=True))
            return
        if conv.state != "bot":
            if conv.state in ("waiting", "human"):  # the team has it: contact details, call back
                from handover.services import handover_visitor_message

                await db_async(handover_visitor_message)(
                    conversation_id=conv.pk, seq=result.turn.seq
                )
            return
        self._spawn(self._answer(conv.pk, result.turn.seq, client_id))

    async def on_handover(self, frame: dict) -> None:
        if self.conversation_id is None:
            await self._error("no_conversation", _("Write a message first."))
            return
        reason = frame.get("reason") if isinstance(frame.get("reason"), str) else ""
        from handover.services import handover_request

        # In the background: the state changes at once, then the case's core is condensed
        # (it may call the model); this socket keeps taking frames meanwhile.
        self._spawn(db_async(handover_request)(
            conversation_id=self.conversation_id, trigger="visitor", reason=reason[:500]
        ))

    async def on_forget(self, frame: dict) -> None:
        if self.conversation_id is not None:
            await db_async(memory_services.conversation_erase_by_visitor)(
                conversation_id=self.conversation_id
            )
        else:
            await self._send({"type": "forgotten"})
            await self.close()

    async def on_consent(self, frame: dict) -> None:
        """Recognition consent: granted, a profile and a token for the widget's cookie;
        withdrawn, the profile and its linked transcripts are deleted at once."""
        recognition = frame.get("recognition")
        if not isinstance(recognition, bool):
            await self._error("bad_frame", _("Consent needs recognition true or false."))
            return
        if recognition and await self._rate_limited():
            await self._error("rate_limited", _("Too many messages. Please wait a moment."))
            return
        service = profiles.consent_grant if recognition else profiles.consent_withdraw
        result = await db_async(service)(
            site_id=self.site.id, conversation_id=self.conversation_id, profile_id=self.profile_id
        )
        self.profile_id = result.profile_id
        await self._send(result.frame())

    async def on_profile(self, frame: dict) -> None:
        fields = await db_async(profiles.profile_fields_for_visitor)(
            site_id=self.site.id, profile_id=self.profile_id, conversation_id=self.conversation_id
        )
        await self._send({"type": "profile", "fields": fields})

    # --- events from the channel layer ----------------------------------------------------

    async def chat_event(self, message: dict) -> None:
        event = message["event"]
        await self._send(event)
        if event.get("type") == "forgotten":
            self.conversation_id = None
            self.token = None
            await self.close()

    # --- helpers ----------------------------------------------------------------------------

    async def _answer(self, conversation_id: int, seq: int, client_id: str,
                      retry: bool = False) -> None:
        async with self.answer_lock:
            try:
                await services.answer_generate(
                    conversation_id=conversation_id, request_seq=seq, send=self._send,
                    client_id=client_id, retry=retry,
                )
            except DatabaseError as exc:
                log.warning("database unavailable", extra={"at": "answer",
                                                           "error": type(exc).__name__})
                with translation.override(self.language):
                    await self._error("unavailable", _unavailable_text(), client_id)

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("answer task failed", extra={"error": type(task.exception()).__name__})

    def _rate_check(self) -> bool:
        """Sync: count this message against the address and the session; True when limited."""
        by_address = _rate_hit(key=f"addr:{self.address}", rate=settings.RATE_LIMIT_PER_ADDRESS)
        by_session = _rate_hit(key=f"sess:{self.conversation_id or self.channel_name}",
                               rate=settings.RATE_LIMIT_PER_SESSION)
        return by_address or by_session

    async def _rate_limited(self) -> bool:
        return await db_async(self._rate_check)()

    def _receive(self, client_id: str, text: str):
        """Sync, one thread hop per message (each hop queues behind every other
        conversation's database work): the rate limits, then the memory service. None when
        rate-limited."""
        if self._rate_check():
            return None
        received = memory_services.visitor_message_receive(
            site_id=self.site.id, token=self.token, client_id=client_id, text=text,
            language=self.language, profile_id=self.profile_id,
            conversation_id=self.conversation_id)
        _, conv, new_token, _ = received
        if new_token:
            # the first message was counted under this connection; count it for the session
            _rate_hit(key=f"sess:{conv.pk}", rate=settings.RATE_LIMIT_PER_SESSION)
        return received

    async def _join(self, conversation_id: int) -> None:
        """Join the conversation's group (every tab, every process); joining the same one
        again renews the membership, which a Redis restart may have dropped."""
        if self.conversation_id not in (None, conversation_id):
            await self._group("discard", self.conversation_id)
        self.conversation_id = conversation_id
        await self._group("add", conversation_id)
        if self.renewer is None:
            self.renewer = self._spawn(self._renew_group())

    async def _renew_group(self) -> None:
        while True:
            await asyncio.sleep(GROUP_RENEW_SECONDS)
            if self.conversation_id is not None:
                await self._group("add", self.conversation_id)

    async def _group(self, action: str, conversation_id: int) -> None:
        """Group membership must not cost the socket: with Redis away, the visitor still
        gets acks and streamed answers, and the membership is renewed once it is back."""
        group = conversation_group(conversation_id)
        try:
            if action == "add":
                await self.channel_layer.group_add(group, self.channel_name)
            else:
                await self.channel_layer.group_discard(group, self.channel_name)
        except (RedisError, TimeoutError) as exc:
            log.warning("channel layer unavailable", extra={"at": f"group_{action}",
                                                             "error": type(exc).__name__})

    async def _send(self, frame: dict) -> None:
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))

    async def _error(self, code: str, message: str, client_id: str | None = None) -> None:
        await self._send({"type": "error", "code": code, "message": str(message), "id": client_id})

