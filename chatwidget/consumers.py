"""The visitor's websocket: the protocol in DESIGN.md. Thin: parse, check, call services."""

import asyncio
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from chatwidget import services
from chatwidget.events import conversation_group
from chatwidget.ratelimit import rate_limit_hit
from chatwidget.selectors import origin_allowed, site_info_by_key
from memory import selectors as memory_selectors
from memory import services as memory_services

log = logging.getLogger(__name__)

MAX_CLIENT_ID = 64


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
    greeted = False

    async def connect(self) -> None:
        self.tasks: set[asyncio.Task] = set()
        self.answer_lock = asyncio.Lock()
        key = self.scope["url_route"]["kwargs"]["site_key"]
        self.site = await database_sync_to_async(site_info_by_key)(key=key)
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
        for task in list(getattr(self, "tasks", ())):
            task.cancel()
        if self.conversation_id is not None:
            await self.channel_layer.group_discard(
                conversation_group(self.conversation_id), self.channel_name
            )

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
            await handler(frame)

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
        conv, turns = await database_sync_to_async(_welcome_data)(self.site.id, token, last_seq)
        self.greeted = True
        if conv is None:
            self.token = None
            await self._send({"type": "welcome", "session": None, "resumed": False,
                              "state": "bot", "turns": []})
            return
        self.token = token
        await self._join(conv.pk)
        await self._send({"type": "welcome", "session": token, "resumed": True,
                          "state": conv.state, "turns": turns})

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
        if await self._rate_limited():
            await self._error("rate_limited", _("Too many messages. Please wait a moment."),
                              client_id)
            return
        result, conv, new_token, hint = await database_sync_to_async(
            memory_services.visitor_message_receive
        )(site_id=self.site.id, token=self.token, client_id=client_id, text=text,
          language=self.language)
        if new_token:
            self.token = new_token
            # the first message was counted under this connection; count it for the session
            await database_sync_to_async(rate_limit_hit)(
                key=f"sess:{conv.pk}", rate=settings.RATE_LIMIT_PER_SESSION)
        if self.conversation_id != conv.pk:
            await self._join(conv.pk)
        await self._send({"type": "ack", "id": client_id, "seq": result.turn.seq,
                          "session": self.token})
        if hint is not None and new_token:  # published before this socket joined the group
            await self._send({"type": "message", **memory_selectors.turn_public(hint)})
        if not result.created:
            return  # a retry: the answer to the first attempt is already on its way
        if conv.state != "bot":
            return
        self._spawn(self._answer(conv.pk, result.turn.seq, client_id))

    async def on_handover(self, frame: dict) -> None:
        if self.conversation_id is None:
            await self._error("no_conversation", _("Write a message first."))
            return
        reason = frame.get("reason") if isinstance(frame.get("reason"), str) else ""
        from handover.services import handover_request

        await database_sync_to_async(handover_request)(
            conversation_id=self.conversation_id, trigger="visitor", reason=reason[:500]
        )

    async def on_forget(self, frame: dict) -> None:
        if self.conversation_id is not None:
            await database_sync_to_async(memory_services.conversation_erase_by_visitor)(
                conversation_id=self.conversation_id
            )
        else:
            await self._send({"type": "forgotten"})
            await self.close()

    async def on_consent(self, frame: dict) -> None:
        await self._error("unknown_type", _("Unknown frame type."))

    async def on_profile(self, frame: dict) -> None:
        await self._error("unknown_type", _("Unknown frame type."))

    # --- events from the channel layer ----------------------------------------------------

    async def chat_event(self, message: dict) -> None:
        event = message["event"]
        await self._send(event)
        if event.get("type") == "forgotten":
            self.conversation_id = None
            self.token = None
            await self.close()

    # --- helpers ----------------------------------------------------------------------------

    async def _answer(self, conversation_id: int, seq: int, client_id: str) -> None:
        async with self.answer_lock:
            await services.answer_generate(
                conversation_id=conversation_id, request_seq=seq, send=self._send,
                client_id=client_id,
            )

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("answer task failed", extra={"error": type(task.exception()).__name__})

    async def _rate_limited(self) -> bool:
        def check() -> bool:
            by_address = rate_limit_hit(key=f"addr:{self.address}",
                                        rate=settings.RATE_LIMIT_PER_ADDRESS)
            by_session = rate_limit_hit(key=f"sess:{self.conversation_id or self.channel_name}",
                                        rate=settings.RATE_LIMIT_PER_SESSION)
            return by_address or by_session

        return await database_sync_to_async(check)()

    async def _join(self, conversation_id: int) -> None:
        if self.conversation_id is not None:
            await self.channel_layer.group_discard(
                conversation_group(self.conversation_id), self.channel_name
            )
        self.conversation_id = conversation_id
        await self.channel_layer.group_add(conversation_group(conversation_id), self.channel_name)

    async def _send(self, frame: dict) -> None:
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))

    async def _error(self, code: str, message: str, client_id: str | None = None) -> None:
        await self._send({"type": "error", "code": code, "message": str(message), "id": client_id})

