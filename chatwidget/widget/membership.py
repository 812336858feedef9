"""The visitor socket's membership of its conversation's group (every tab, every process),
renewed while it is open, and the background tasks (answers, renewal) the socket owns."""

import asyncio
import logging

from redis.exceptions import RedisError

from chatwidget.platform.events import conversation_group
from chatwidget.platform.presence import visitor_group

log = logging.getLogger(__name__)

# How often an open socket renews its conversation-group membership in the channel layer: a
# Redis restart without persistence forgets every group, and this brings the tab back.
GROUP_RENEW_SECONDS = 30
# A join that failed (Redis away, or caught in its client's reconnect) is tried again after
# this, doubling up to GROUP_RENEW_SECONDS: a tab that said hello while Redis restarted
# would otherwise miss the conversation's answers from other processes for half a minute.
GROUP_RETRY_SECONDS = 1.0


class ConversationMembership:
    """Mixed into the visitor consumer, which sets `tasks`, `conversation_id` and `renewer`."""

    tasks: set
    conversation_id: int | None
    renewer: asyncio.Task | None
    answer_lock: asyncio.Lock
    group_retry: float | None = None  # after a failed join: seconds until the next try
    seen_seq: int  # the newest complete turn sent to the widget (the socket keeps it)

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _answer_running(self) -> bool:
        """An answer streams, waits for the socket's lock, or is being recovered. When none
        is, nothing can come before a new message's answer: it is made ready in the
        message's own thread hop (chatwidget.assistant.turns.visitor_turn_receive)."""
        return self.answer_lock.locked() or any(t is not self.renewer for t in self.tasks)

    def _task_done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("answer task failed", extra={"error": type(task.exception()).__name__})

    async def _join(self, conversation_id: int) -> None:
        """Join the conversation's group (every tab, every process); joining the same one
        again renews the membership, which a Redis restart may have dropped (one Redis round
        trip per message: the answer's final frame reaches this tab through the group).
        Presence is marked on the first join and by the renewer, not per message."""
        member = self.conversation_id == conversation_id
        if self.conversation_id not in (None, conversation_id):
            await self._group("discard", self.conversation_id)
            self.seen_seq = 0
        self.conversation_id = conversation_id
        await self._group("add", conversation_id, presence=not member)
        if self.renewer is None:
            self.renewer = self._spawn(self._renew_group())

    async def _renew_group(self) -> None:
        while True:
            await asyncio.sleep(self.group_retry or GROUP_RENEW_SECONDS)
            if self.conversation_id is not None:
                await self._group("add", self.conversation_id)

    async def _group(self, action: str, conversation_id: int, presence: bool = True) -> None:
        """Group membership must not cost the socket: with Redis away, the visitor still
        gets acks and streamed answers, and the membership is renewed once it is back."""
        group = conversation_group(conversation_id)
        try:
            await visitor_group(
                self.channel_layer,
                action=action,
                group=group,  # + presence
                conversation_id=conversation_id,
                channel=self.channel_name,
                presence=presence,
            )
        except (RedisError, TimeoutError, RuntimeError) as exc:
            # RuntimeError: Redis restarting, the client's reconnect and the layer's listener
            # read one connection at once ("readuntil() called while another coroutine is
            # already waiting"); seen as a 1011 close of a socket saying hello right then
            log.warning(
                "channel layer unavailable",
                extra={"at": f"group_{action}", "error": type(exc).__name__},
            )
            if action == "add":  # the renewer tries again soon (GROUP_RETRY_SECONDS)
                delay = 2 * self.group_retry if self.group_retry else GROUP_RETRY_SECONDS
                self.group_retry = min(delay, GROUP_RENEW_SECONDS)
            return
        if action == "add" and self.group_retry is not None:
            self.group_retry = None
            await self._rejoined(conversation_id)

    async def _rejoined(self, conversation_id: int) -> None:
        """Back in the group after a join that failed: the group kept no events for this
        socket meanwhile (the consumer sends what it missed)."""
