"""What a conversation's sessions change outside a turn: the widget's language moved (its
`setLanguage`, or a page of the shop in another language), and a further session token for
the same conversation (e-mail continuation's link)."""

import secrets

from memory.models import Conversation, LinkedSession
from memory.selectors import token_hash


def conversation_language_set(*, conversation: Conversation, language: str) -> None:
    """The widget now speaks `language` (its `setLanguage`, or a page of the shop in another
    language): notices, e-mails and the model's instruction follow from here on. No query
    when it is the stored language already."""
    if conversation.language != language:
        Conversation.objects.filter(pk=conversation.pk).update(language=language)
        conversation.language = language


def linked_session_create(*, conversation_id: int, masked: bool = True) -> tuple[str, int]:
    """A further session token for a conversation (memory.models.LinkedSession): E-mail
    continuation hands it to the widget once a one-time code was exchanged, so the code in
    the e-mail's link is never the session itself, and the visitor's first session keeps
    working. Only the hash is stored. Returns (token, linked session id)."""
    token = secrets.token_urlsafe(32)
    linked = LinkedSession.objects.create(
        conversation_id=conversation_id, token_hash=token_hash(token), masked=masked
    )
    return token, linked.pk
