"""Handover state machine (foundation version: visitor or model asks, the bot falls silent)."""

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from chatwidget.events import conversation_group, publish_on_commit
from handover.models import Case
from memory.models import Conversation, ConversationState, TurnRole


def handover_request(*, conversation_id: int, trigger: str, reason: str = "") -> Case | None:
    from memory.services import turn_append

    with transaction.atomic():
        conv = Conversation.objects.select_for_update().get(pk=conversation_id)
        if conv.state != ConversationState.BOT:
            return None
        conv.state = ConversationState.WAITING
        conv.save(update_fields=["state"])
        case = Case.objects.create(
            site_id=conv.site_id, conversation=conv, trigger=trigger, reason=reason
        )
        publish_on_commit(conversation_group(conv.pk), {"type": "state", "state": conv.state})
        with translation.override(conv.language):
            notice = gettext("A member of the team will reply here.")
        turn_append(conversation_id=conv.pk, role=TurnRole.SYSTEM, text=notice)
    return case
