"""Staff websockets. Thin: check who connects, join a group, forward masked events.

- /ws/staff/case/<id>/: the case page. Joins the conversation's group, so it hears every
  new turn and state change, whichever process produced it. Turn events are re-read from
  the database and masked before they are sent: the visitor's own tabs get their text as
  typed, staff get e-mail, phone, IBAN, address and health details masked.
- /ws/staff/: the waiting-cases badge, the live inbox and staff presence (STAFF_ALL_GROUP).

Both sit behind Channels' session auth (asgi.py) and an Origin check against
ALLOWED_HOSTS (routing.py); each checks the user's permission before accepting.
Staff actions (reply, claim, release, resolve) go through the admin's HTTP views.
"""

import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from chatwidget.platform.events import STAFF_ALL_GROUP, conversation_group
from chatwidget.platform.frames import (
    FrameType,
    cases_frame,
    cases_waiting_for,
    forgotten_frame,
    inbox_frame,
    message_frame,
    state_frame,
)
from chatwidget.platform.presence import staff_presence_mark
from chatwidget.sites.access import queryset_for_staff, staff_site_ids
from handover.models import Case
from handover.selectors import case_waiting_count, inbox_row, turn_masked_by_seq

log = logging.getLogger(__name__)


def _may_view_cases(user) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm("handover.view_case")
    )


def _case_conversation(case_id: int, user) -> int | None:
    """The case's conversation, if the user may see the case's site (chatwidget.sites.access)."""
    cases = queryset_for_staff(Case.objects.filter(pk=case_id), user)
    return cases.values_list("conversation_id", flat=True).first()


class PresenceMixin:
    """A staff user who may act on cases counts as present while one of their staff sockets
    is open (handover.services.presence); any frame from the page renews it (heartbeat)."""

    presence_user: int | None = None

    async def presence_start(self, user) -> None:
        if await database_sync_to_async(user.has_perm)("handover.change_case"):
            self.presence_user = user.pk
            await self.presence_mark(True)

    async def presence_mark(self, present: bool) -> None:
        if self.presence_user is not None:
            await database_sync_to_async(staff_presence_mark)(
                user_id=self.presence_user, channel=self.channel_name, present=present
            )


class StaffCaseConsumer(PresenceMixin, AsyncWebsocketConsumer):
    conversation_id: int | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if not await database_sync_to_async(_may_view_cases)(user):
            log.info("staff socket refused", extra={"reason": "permission"})
            await self.close(code=4403)
            return
        case_id = self.scope["url_route"]["kwargs"]["case_id"]
        conversation_id = await database_sync_to_async(_case_conversation)(case_id, user)
        if conversation_id is None:
            await self.close(code=4404)
            return
        self.conversation_id = conversation_id
        await self.channel_layer.group_add(conversation_group(conversation_id), self.channel_name)
        await self.accept()
        await self.presence_start(user)

    async def disconnect(self, code: int) -> None:
        if self.conversation_id is not None:
            await self.channel_layer.group_discard(
                conversation_group(self.conversation_id), self.channel_name
            )
        await self.presence_mark(False)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # staff act through the case page's forms; a small frame is the presence heartbeat
        if text_data and len(text_data) < 100:
            await self.presence_mark(True)

    async def chat_event(self, message: dict) -> None:
        event = message.get("event") or {}
        kind = event.get("type")
        if kind == FrameType.MESSAGE and isinstance(event.get("seq"), int):
            masked = await database_sync_to_async(turn_masked_by_seq)(
                conversation_id=self.conversation_id, seq=event["seq"]
            )
            if masked is not None:
                await self._send(message_frame(masked))
        elif kind == FrameType.STATE:
            await self._send(state_frame(event.get("state")))
        elif kind == FrameType.FORGOTTEN:
            await self._send(forgotten_frame())
            await self.close()
        # Anything else is not forwarded: an event type added later must be masked first.

    async def _send(self, frame: dict) -> None:
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))


class StaffConsumer(PresenceMixin, AsyncWebsocketConsumer):
    """The live count of waiting cases, the live inbox and staff presence (issue 18).

    Inbox events go only to sockets that asked for them (`/ws/staff/?inbox=1`, the inbox
    page; the badge on other pages needs none). They carry only a case id and its site: the
    row is re-read here, and cases of sites the user may not see are dropped; the badge
    counts the waiting cases of the user's sites only. A user who may act on cases counts as present
    while a socket is open (renewed by the page's heartbeat, `{"type": "ping"}`)."""

    joined = False
    inbox = False
    site_ids: frozenset[int] | None = frozenset()

    async def connect(self) -> None:
        user = self.scope.get("user")
        if not await database_sync_to_async(_may_view_cases)(user):
            await self.close(code=4403)
            return
        self.site_ids = await database_sync_to_async(staff_site_ids)(user)
        self.inbox = b"inbox=1" in (self.scope.get("query_string") or b"").split(b"&")
        await self.channel_layer.group_add(STAFF_ALL_GROUP, self.channel_name)
        self.joined = True
        await self.accept()
        await self.presence_start(user)
        count = await database_sync_to_async(case_waiting_count)(site_ids=self.site_ids)
        await self.send(text_data=json.dumps(cases_frame(waiting=count)))

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await self.channel_layer.group_discard(STAFF_ALL_GROUP, self.channel_name)
        await self.presence_mark(False)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if text_data and len(text_data) < 100:
            await self.presence_mark(True)  # the page's heartbeat

    async def chat_event(self, message: dict) -> None:
        event = message.get("event") or {}
        kind = event.get("type")
        if kind == FrameType.CASES:
            waiting = cases_waiting_for(event, self.site_ids)  # of the user's sites only
            await self.send(text_data=json.dumps(cases_frame(waiting=waiting)))
        elif kind == FrameType.INBOX and self.inbox and isinstance(event.get("case"), int):
            if self.site_ids is not None and event.get("site") not in self.site_ids:
                return  # another site's case
            row = await database_sync_to_async(inbox_row)(case_id=event["case"])
            frame = inbox_frame(case_id=event["case"], row=row)
            await self.send(text_data=json.dumps(frame, ensure_ascii=False))
