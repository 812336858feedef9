"""A rehearsal: code that plays a visitor to test the installation (the go-live check) runs
the real pipeline, and nothing leaves the installation on its account.

The go-live check talks to the site through the same ASGI application a visitor reaches, in
its own process. Its conversations are thrown away afterwards, so what would reach people or
systems outside (the site's webhooks, the e-mail to staff that a visitor waits) must not go
out at all: a receiver cannot take a delivery back, and staff would open a case that is
gone. Services that send outward ask `in_rehearsal()` and skip.

A context variable, not a flag in a table: it travels with the check's own tasks (asyncio
copies the context into every task it starts, `database_sync_to_async` into its thread, and
`transaction.on_commit` callbacks run in that thread), and a visitor's request, in another
task or process, can never set it (nothing a client sends reaches it). The check's sockets
run the application in a fresh context (asgiref's communicator isolates it), so the check
hands them the application wrapped by `rehearsal_application`.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_REHEARSAL: ContextVar[bool] = ContextVar("chatwidget_rehearsal", default=False)


@contextmanager
def rehearsal() -> Iterator[None]:
    """Everything run inside (and in the tasks and threads it starts) is a rehearsal."""
    token = _REHEARSAL.set(True)
    try:
        yield
    finally:
        _REHEARSAL.reset(token)


def in_rehearsal() -> bool:
    return _REHEARSAL.get()


def rehearsal_application(application: Callable) -> Callable:
    """The ASGI `application`, with every connection it serves run as a rehearsal."""

    async def rehearsed(scope, receive, send):
        with rehearsal():
            return await application(scope, receive, send)

    return rehearsed
