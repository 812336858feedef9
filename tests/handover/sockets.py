"""Staff websockets through the real ASGI stack, for the handover tests."""

import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client


async def staff_socket(user, path: str, *, origin: str | None = "http://testserver"):
    """A staff websocket through the real ASGI stack: session cookie, origin, consumer."""
    # Imported when used: the ASGI stack reads ALLOWED_HOSTS, which the test set-up extends.
    from chatwidget.asgi import application

    def login() -> str:
        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    headers = (
        [
            (
                b"cookie",
                f"{settings.SESSION_COOKIE_NAME}={await database_sync_to_async(login)()}".encode(),
            )
        ]
        if user
        else []
    )
    if origin:
        headers.append((b"origin", origin.encode()))
    headers.append((b"host", b"testserver"))  # as a browser sends it (the admin's host)
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect()
    return comm, connected, code


async def recv_json(comm, timeout: float = 5) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))
