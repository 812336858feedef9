"""An answer started from the database thread before the visitor's turn committed (issue 30).

The turn's hop (chatwidget.assistant.turns.visitor_turn_receive) builds the answer's context
inside the turn's transaction and hands it over before the commit; the socket's loop starts
the model request at once, so the model's time to its first token hides the commit. The
socket (chatwidget.widget.consumers) lets the answer's frames out only after the ack, which
follows the commit, and cancels it when the turn rolled back or was never acked.
"""

import asyncio
import contextvars
from collections.abc import Awaitable, Callable

from chatwidget.assistant.preparation import PreparedAnswer, answer_prepared_release
from chatwidget.platform.llm import stream_gate

Send = Callable[[dict], Awaitable[None]]


class EarlyAnswer:
    """`start_threadsafe` (the thread, once the context is built) schedules it on the socket's
    loop; its frames wait until `go()` (after the ack); `cancel()` when the turn rolled back
    or was not acked stops the model request and lets go of the answer's lease, so the
    widget's resend of the same message is answered."""

    def __init__(
        self,
        *,
        spawn: Callable[[int, int, PreparedAnswer, Send], asyncio.Task],
        send: Send,
    ) -> None:
        self.spawn = spawn  # starts the answer task (conversation, seq, prepared, its send)
        self.send = send
        self.loop = asyncio.get_running_loop()
        # the socket's own context: a callback scheduled from the database thread would run
        # in a copy of that thread's context, and asgiref would then take the answer task for
        # code inside the database thread (SQLite's single thread: "would deadlock")
        self.context = contextvars.copy_context()
        self.acked = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.prepared: tuple[int, int, PreparedAnswer] | None = None

    def start_threadsafe(self, conversation_id: int, seq: int, prepared: PreparedAnswer) -> None:
        self.prepared = (conversation_id, seq, prepared)
        self.loop.call_soon_threadsafe(
            self._start, conversation_id, seq, prepared, context=self.context
        )

    def _start(self, conversation_id: int, seq: int, prepared: PreparedAnswer) -> None:
        # runs in `self.context`: the task created here copies it, gate included, so the
        # model's first event (and whatever the answer does with it) waits for the ack
        stream_gate.set(self.acked)
        self.task = self.spawn(conversation_id, seq, prepared, self._send)

    async def _send(self, frame: dict) -> None:
        if not self.acked.is_set():
            await self.acked.wait()
        await self.send(frame)

    def go(self) -> bool:
        """Let the started answer's frames out; False when none was started."""
        self.acked.set()
        return self.task is not None

    def cancel(self) -> None:
        """Stop it; `go()` then says none was started."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        if self.prepared is not None:
            answer_prepared_release(*self.prepared)
            self.prepared = None
