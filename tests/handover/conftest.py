"""Handover fixtures: users in the two roles, conversations in each state, staff sockets."""

import importlib
import json
from datetime import UTC, datetime

import pytest

# A Tuesday, 10:00 in Berlin: inside the default staff hours "mon-fri 09:00-17:00".
OPEN_TIME = datetime(2026, 6, 2, 8, 0, tzinfo=UTC)
# A Sunday, 12:00 in Berlin: outside.
CLOSED_TIME = datetime(2026, 6, 7, 10, 0, tzinfo=UTC)


def ensure_roles() -> None:
    """The groups come from a data migration; a transactional test's flush removes them."""
    from django.apps import apps
    from django.contrib.auth.models import Group

    if Group.objects.filter(name__in=["Staff", "Owner"]).count() < 2:
        roles = importlib.import_module("handover.migrations.0003_roles")
        roles.create_roles(apps, None)


def make_user(username: str, role: str | None, *, first_name: str = "", is_staff=True):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    ensure_roles()
    user = get_user_model().objects.create_user(
        username=username, password="pw-" + username, is_staff=is_staff, first_name=first_name,
        email=f"{username}@shop.test",
    )
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def staff_user(db):
    return make_user("sam", "Staff", first_name="Sam")


@pytest.fixture
def owner_user(db):
    return make_user("olga", "Owner", first_name="Olga")


@pytest.fixture
def outsider(db):
    """Logged into admin, but in neither role."""
    return make_user("otto", None)


def conversation_with(site, texts, *, language="en"):
    """A conversation whose visitor wrote `texts` (assistant turns in between)."""
    from memory.models import TurnRole
    from memory.services import conversation_start, turn_append

    conv, token = conversation_start(site_id=site.pk, language=language)
    for i, text in enumerate(texts):
        turn_append(conversation_id=conv.pk, role=TurnRole.VISITOR, text=text,
                    client_id=f"c{i}")
        turn_append(conversation_id=conv.pk, role=TurnRole.ASSISTANT, text=f"Answer {i}.")
    conv.refresh_from_db()
    conv.token = token
    return conv


@pytest.fixture
def conversation(site):
    return conversation_with(site, [
        "I need the mint kurta KU-2291-M in size L.",
        "Please write to anna@example.com or call +49 30 1234567.",
    ])


async def staff_socket(user, path: str, *, origin: str | None = "http://testserver"):
    """A staff websocket through the real ASGI stack: session cookie, origin, consumer."""
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.conf import settings
    from django.test import Client

    from chatwidget.asgi import application

    def login() -> str:
        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={await database_sync_to_async(login)()}".encode())] if user else []
    if origin:
        headers.append((b"origin", origin.encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect()
    return comm, connected, code


async def recv_json(comm, timeout: float = 5) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))
