"""The seq of the bot's answer, reserved while the conversation is still with the bot: the
one statement on every answer's path that decides "may the bot answer?" at the moment it
matters (a take-over between the visitor's turn and the answer wins)."""

from django.db import connection, transaction
from django.db.models import F

from memory.models import Conversation, ConversationState


def answer_seq_reserve(*, conversation_id: int) -> tuple[int, str] | None:
    """Reserve the seq of the bot's answer while the conversation is still with the bot.

    Returns (seq, the conversation's language), or None when the bot must stay silent (staff
    took over, closed, erased). One `UPDATE ... RETURNING` where the database has it
    (PostgreSQL, SQLite >= 3.35): the state check and the reservation in one round trip, on
    the hot path of every answer. A failed answer leaves the number unused: seqs are strictly
    increasing per conversation, not gap-free.
    """
    if connection.vendor == "postgresql" or (
        connection.vendor == "sqlite" and connection.Database.sqlite_version_info >= (3, 35)
    ):
        q = connection.ops.quote_name
        column = {
            f: q(Conversation._meta.get_field(f).column)
            for f in ("id", "state", "next_seq", "language")
        }
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {q(Conversation._meta.db_table)} "  # noqa: S608 - names from the model
                f"SET {column['next_seq']} = {column['next_seq']} + 1 "
                f"WHERE {column['id']} = %s AND {column['state']} = %s "
                f"RETURNING {column['next_seq']}, {column['language']}",
                [conversation_id, ConversationState.BOT],
            )
            row = cursor.fetchone()
        return (row[0] - 1, row[1]) if row else None
    with transaction.atomic():
        conv = (
            Conversation.objects.select_for_update()
            .only("state", "language", "next_seq")
            .filter(pk=conversation_id)
            .first()
        )
        if conv is None or conv.state != ConversationState.BOT:
            return None
        Conversation.objects.filter(pk=conversation_id).update(next_seq=F("next_seq") + 1)
        return conv.next_seq, conv.language
