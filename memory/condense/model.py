"""The condensation model call from sync code (the Celery worker, management commands, or the
server's thread pool)."""

from __future__ import annotations

import asyncio
import os
import threading

from asgiref.sync import SyncToAsync, async_to_sync
from django.conf import settings

from chatwidget.platform import llm
from memory.core import CORE_SCHEMA

_loop_guard = threading.Lock()
_loop_state: dict = {}


def _background_loop() -> asyncio.AbstractEventLoop:
    """One event loop per process for model calls from code that has none (the Celery
    worker, management commands). The cached AsyncOpenAI client keeps connections bound to
    the loop that opened them, so every call of a process must use the same loop."""
    with _loop_guard:
        loop = _loop_state.get("loop")
        if loop is None or loop.is_closed() or _loop_state.get("pid") != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(
                target=loop.run_forever, daemon=True, name="condense-model-loop"
            ).start()
            _loop_state.update(loop=loop, pid=os.getpid())
        return loop


def model_complete(*, messages: list[dict], model: str) -> tuple[dict, dict]:
    local = SyncToAsync.threadlocal
    main = getattr(local, "main_event_loop", None)
    if (
        main is not None
        and main.is_running()
        and getattr(local, "main_event_loop_pid", None) == os.getpid()
    ):
        # Called from the server through database_sync_to_async: run on the server's loop,
        # where the streaming client lives too.
        return async_to_sync(llm.complete_json)(messages=messages, model=model, schema=CORE_SCHEMA)
    future = asyncio.run_coroutine_threadsafe(
        llm.complete_json(messages=messages, model=model, schema=CORE_SCHEMA), _background_loop()
    )
    try:
        return future.result(timeout=settings.MEMORY_CONDENSE_MODEL_TIMEOUT_SECONDS)
    except TimeoutError:
        future.cancel()
        raise llm.ModelUnavailable("condensation timed out") from None
