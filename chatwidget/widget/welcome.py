"""What a socket reads when it opens a conversation: at `hello` (the session token from the
widget's cookie) and at `attached` after an upload that started the conversation (issue 33).
Each is one thread hop (chatwidget.platform.db.db_async) from chatwidget.widget.consumers."""

from chatwidget.sites.identity import Identity
from chatwidget.widget.limits import history_turns_budget
from memory import profiles
from memory import selectors as memory_selectors
from memory.customers import (
    customer_link,
    customer_may_resume,
    customer_profile_id,
    customer_upsert,
)
from memory.models import Conversation
from memory.sessions import conversation_language_set


def _session_open(
    site_id: int, token: str | None, identity: Identity | None
) -> tuple[Conversation, bool] | None:
    """(the conversation, masked) a token opens, or None. A linked session (an e-mail
    continuation link's) sees contact details masked (memory.models.LinkedSession). A
    conversation of a signed-in customer opens only with that customer's verified identity;
    an anonymous one opened with one is linked to it now (memory.customers)."""
    access = memory_selectors.session_get(site_id=site_id, token=token)
    if access is None or not customer_may_resume(
        conversation=access.conversation, identity=identity
    ):
        return None
    conv = access.conversation
    if identity is not None and conv.customer_id is None:
        customer_link(site_id=site_id, conversation_id=conv.pk, identity=identity)
    return conv, access.masked


def welcome_data(
    site_id: int,
    token: str | None,
    last_seq: int | None,
    lang: str | None,
    identity: Identity | None = None,
):
    """(customer id, conversation, the newest turns after `last_seq` within the frame
    budget, masked) for a hello. A hello in another language than the stored one moves the
    conversation to it. A verified customer's row is made or updated."""
    customer_id = customer_upsert(site_id=site_id, identity=identity) if identity else None
    opened = _session_open(site_id, token, identity)
    if opened is None:
        return customer_id, None, None, False
    conv, masked = opened
    if lang is not None:
        conversation_language_set(conversation=conv, language=lang)
    page = memory_selectors.turns_for_visitor_page(
        conversation_id=conv.pk,
        after_seq=last_seq,
        max_bytes=history_turns_budget(),
        masked=masked,
    )
    return customer_id, conv, page, masked


def upload_session_join(
    *, site_id: int, token: str, identity: Identity | None, profile_id: int | None
) -> tuple[int, bool] | None:
    """(conversation id, masked) of the conversation an upload before the first message
    started, for the socket that said hello without one; linked to the visit's recognition
    profile as a first message's conversation is. None: the token opens nothing here."""
    opened = _session_open(site_id, token, identity)
    if opened is None:
        return None
    conv, masked = opened
    if profile_id:
        profiles.profile_link_conversation(profile_id=profile_id, conversation_id=conv.pk)
    return conv.pk, masked


def customer_profile(site_id: int, identity: Identity, conversation_id: int | None) -> int | None:
    """The verified customer's live recognition profile, linked to the resumed conversation."""
    profile_id = customer_profile_id(site_id=site_id, identity=identity)
    if profile_id is not None and conversation_id is not None:
        profiles.profile_link_conversation(profile_id=profile_id, conversation_id=conversation_id)
    return profile_id
