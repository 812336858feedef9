"""Writes to conversation memory. Everything that is stored passes redaction first.

Erasure lives in memory.erasure: recognition profiles erase conversations too, and must not
import this module (which links new conversations to profiles).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from chatwidget.integrations.emit import webhook_emit
from chatwidget.integrations.models import WebhookEvent
from chatwidget.platform.events import conversation_group, publish_on_commit
from chatwidget.platform.frames import message_frame
from memory.analytics import stat_record, stat_record_turn, stat_turn_sql
from memory.condense.scheduling import condense_may_be_due, condense_schedule_if_due
from memory.conversation_sql import conversation_lock_read
from memory.models import Conversation, ConversationState, Turn, TurnRole
from memory.pages import page_clean
from memory.profiles import profile_link_conversation, profile_update_after_turn
from memory.redacting import (
    redacted_in_context,
    redacted_new,
    redaction_moved,
    removed_hint,
)
from memory.redaction import RedactionResult, previous_turn_needed
from memory.selectors import (
    conversation_get_by_token,
    conversation_is_expired,
    token_hash,
    turn_public,
)
from memory.turn_sql import turn_insert

log = logging.getLogger(__name__)


_EXCHANGE_ROLES = frozenset({TurnRole.VISITOR, TurnRole.ASSISTANT})


@dataclass(frozen=True)
class AppendResult:
    turn: Turn
    created: bool
    removed: dict[str, int]  # never-kept kinds removed from this text, for the visitor's hint
    # the seq reserved for the bot's answer in the same statement (`reserve_answer`), or None:
    # not asked, not created, or the conversation is not with the bot
    answer_seq: int | None = None


def conversation_start(
    *, site_id: int, language: str = "en", customer_id: int | None = None
) -> tuple[Conversation, str]:
    """A new conversation (a verified customer's: memory.customers) and its session token.
    Only the token's hash is stored."""
    token = secrets.token_urlsafe(32)  # 256 bits
    conv = Conversation.objects.create(
        site_id=site_id, token_hash=token_hash(token), language=language, customer_id=customer_id
    )
    stat_record(site_id=site_id, conversations=1)
    webhook_emit(
        site_id=site_id,
        event=WebhookEvent.CONVERSATION_STARTED,
        data={"conversation": conv.pk, "language": language},
    )
    return conv, token


def _counters_save(
    conv: Conversation, fields: list[str], *, role: str, findings: dict, turn: Turn
) -> bool:
    """The turn inserted unless its client id is stored already (memory.turn_sql: the
    check is the INSERT's ON CONFLICT), the conversation's counters and the day's count of
    the turn: on PostgreSQL in that same statement (where today's row exists and redaction
    found nothing: otherwise `stat_record_turn` after it), elsewhere the model's save and
    `stat_record_turn`. False when the client id was stored already (nothing written)."""
    stat = None
    if connection.vendor == "postgresql" and not findings:
        stat = stat_turn_sql(site_id=conv.site_id, role=role)
    inserted, saved, counted = turn_insert(turn, conv=conv, fields=fields, stat=stat)
    if not inserted:
        return False
    if not saved:
        conv.save(update_fields=fields)
    if not counted:  # no statement for it, or the day's first turn: created under a lock
        stat_record_turn(site_id=conv.site_id, role=role, findings=findings)
    return True


def turn_append(
    *,
    conversation_id: int,
    role: str,
    text: str,
    client_id: str | None = None,
    author_id: int | None = None,
    seq: int | None = None,
    publish: bool = True,
    savepoint: bool = True,
    cards: list[dict] | None = None,
    choices: list[str] | None = None,
) -> AppendResult:
    """Redact, count tokens, and commit one turn. Idempotent per (conversation, client_id).

    `seq` may be a number reserved earlier with `answer_seq_reserve` (answers); otherwise
    the next one is taken. After commit the turn is published to the conversation's group and
    condensation is scheduled when turns have left the verbatim window. `savepoint=False`:
    the caller's transaction holds this one (no SAVEPOINT round trips); an error then fails
    the caller's transaction too.
    """
    redacted, tokens = redacted_new(conversation_id, text)
    with transaction.atomic(savepoint=savepoint):
        conv = conversation_lock_read(pk=conversation_id)
        if conv is None:
            raise Conversation.DoesNotExist(f"conversation {conversation_id}")
        return _append_locked(
            conv,
            role=role,
            redacted=redacted,
            tokens=tokens,
            client_id=client_id,
            author_id=author_id,
            seq=seq,
            publish=publish,
            cards=cards,
            choices=choices,
        )


def _append_locked(
    conv: Conversation,
    *,
    role: str,
    redacted: RedactionResult,
    tokens: int,
    client_id: str | None = None,
    author_id: int | None = None,
    seq: int | None = None,
    publish: bool = True,
    reserve_answer: bool = False,
    page: dict | None = None,
    cards: list[dict] | None = None,
    choices: list[str] | None = None,
    attachments: list[dict] | None = None,
    before_insert: Callable[[Turn, int | None], None] | None = None,
) -> AppendResult:
    """The turn, under the conversation's row lock (the caller's transaction): the client id
    checked, the turn inserted, the conversation's counters moved in one UPDATE (with
    `reserve_answer`, the answer's seq too, while the bot has the conversation).
    `before_insert(turn, answer_seq)`: the turn made, not yet written."""
    if seq is None:
        seq = conv.next_seq
    turn = Turn(
        conversation=conv,
        seq=seq,
        role=role,
        text=redacted.text,
        spans=redacted.spans_json(),
        findings=redacted.findings,
        health=redacted.health,
        token_count=tokens,
        client_id=client_id,
        author_id=author_id,
        page=page,
        cards=cards or [],
        choices=choices or [],
        attachments=attachments or [],
    )
    before = (conv.next_seq, conv.last_activity_at, conv.redaction_open, conv.findings)
    conv.next_seq = max(conv.next_seq, seq + 1)
    answer_seq = None
    if reserve_answer and conv.state == ConversationState.BOT:
        answer_seq = conv.next_seq
        conv.next_seq += 1
    conv.last_activity_at = timezone.now()
    update = ["next_seq", "last_activity_at", *redaction_moved(conv, role, redacted)]
    if before_insert is not None:
        before_insert(turn, answer_seq)
    if not _counters_save(conv, update, role=role, findings=redacted.findings, turn=turn):
        # its client id is stored already (a resend): that turn, nothing written
        conv.next_seq, conv.last_activity_at, conv.redaction_open, conv.findings = before
        existing = Turn.objects.get(conversation=conv, client_id=client_id)
        return AppendResult(turn=existing, created=False, removed={})
    if publish:
        publish_on_commit(conversation_group(conv.pk), message_frame(turn_public(turn)))
    _after_commit_work(conv, role=role, seq=seq)
    # one record per message (issue 30): the exchange's is the answer's ("answer stored",
    # chatwidget.assistant.answers); the visitor's and the answer's turns log at DEBUG
    log.log(
        logging.DEBUG if role in _EXCHANGE_ROLES else logging.INFO,
        "turn appended",
        extra={
            "conversation": conv.pk,
            "seq": seq,
            "role": role,
            "tokens": tokens,
            "findings": redacted.findings,
        },
    )
    return AppendResult(turn=turn, created=True, removed=redacted.removed, answer_seq=answer_seq)


def condensation_may_follow(conv: Conversation) -> bool:
    """Whether this turn's commit may start a condensation (no query: the seqs tell)."""
    site = conv.site
    return condense_may_be_due(
        uncovered_at_most=conv.next_seq - 1 - conv.condensed_through_seq,
        window=site.verbatim_window_turns,
        min_exchanges=site.verbatim_min_exchanges,
        after=site.condense_after_turns,
    )


def _after_commit_work(conv: Conversation, *, role: str, seq: int) -> None:
    """Condensation when it may be due, the recognition profile after a bot or staff turn.
    Every turn is below next_seq: no more uncovered turns than that span can exist, so the
    common turn needs no query to know condensation is not due yet."""
    if condensation_may_follow(conv):
        conversation_id = conv.pk
        transaction.on_commit(lambda: _after_turn(conversation_id))
    if conv.profile_id and role != TurnRole.VISITOR:  # recognition (memory.profiles)
        transaction.on_commit(lambda: _profile_after_turn(conv.pk, seq), robust=True)


def _after_turn(conversation_id: int) -> None:
    condense_schedule_if_due(conversation_id=conversation_id)


def _profile_after_turn(conversation_id: int, seq: int) -> None:
    profile_update_after_turn(conversation_id=conversation_id, seq=seq)


def visitor_message_receive(
    *,
    site_id: int,
    token: str | None,
    client_id: str,
    text: str,
    language: str = "en",
    profile_id: int | None = None,
    conversation_id: int | None = None,
    reserve_answer: bool = False,
    page_url: str | None = None,
    page_title: str = "",
    customer_id: int | None = None,  # a new conversation's verified customer (memory.customers)
    before_commit: Callable[[AppendResult, Conversation], None] | None = None,
    before_insert: Callable[[Conversation, Turn, int | None], None] | None = None,
    attachments: list[dict] | None = None,  # a photo's or file's (chatwidget.assistant.uploads)
    on_redacted: Callable[[Conversation, str], None] | None = None,
    admit: Callable[[], None] | None = None,
) -> tuple[AppendResult, Conversation, str | None, Turn | None]:
    """The visitor's message: start the conversation if needed, then commit the turn.
    Returns (result, conversation as under the row lock, new_token only when created here
    (the widget's cookie), hint: the system turn saying what was removed, if anything was).
    With `profile_id` (a recognised visit) a conversation created here joins that profile.
    `reserve_answer`: reserve the seq of the bot's answer in the same transaction, while the
    conversation is with the bot (`result.answer_seq`): no statement of its own before the
    model call. One transaction, one row lock: on a socket that holds the conversation
    (`conversation_id`), one statement reads and locks it. `page_url`: the visitor's page,
    kept with the turn as the site allows (memory.pages).
    `before_insert(conversation, turn, answer_seq)`: under the row lock, the turn made and
    its answer's seq reserved, before the turn's statement (the answer's context is built
    from the turn in hand: the model request goes out while the statement and the commit
    run); not for a resend (read with the row) nor a turn followed by a removal hint, whose
    answer is prepared in `before_commit(result, conversation)`, both turns stored. Raising
    rolls the turn back. A copy sent at the same moment is found by the statement:
    `result.created` is False, and the caller undoes what it started. `on_redacted(conv,
    text)`: the text to be stored, final (the message's embedding starts there); must not
    raise. `admit()`: the caller's own check (the rate limits, whose round trip runs beside
    the redaction); raising refuses the turn before anything is read. May be called twice."""
    found = None
    lookup = conversation_id is None and bool(token)
    if admit is not None and (lookup or previous_turn_needed(text)):
        admit()  # a refused turn reads nothing: the check comes before the reads below
    if lookup:
        found = conversation_get_by_token(site_id=site_id, token=token)
    # before any lock; the conversation's previous turn decides about a bare code
    redacted, tokens = redacted_new(conversation_id or (found.pk if found else None), text)
    if admit is not None:
        admit()
    with transaction.atomic():
        conv, new_token = _conversation_for_turn(
            site_id=site_id,
            conversation_id=conversation_id,
            found=found,
            language=language,
            customer_id=customer_id,
            profile_id=profile_id,
            early_client_id=client_id if before_insert else None,
        )
        if conv.redaction_open:  # what the turns before leave open (memory.redaction.sequence)
            redacted, tokens = redacted_in_context(conv, text)
        if on_redacted is not None:
            on_redacted(conv, redacted.text)
        hinted = bool(redacted.removed)
        result = _append_locked(
            conv,
            role=TurnRole.VISITOR,
            redacted=redacted,
            tokens=tokens,
            client_id=client_id,
            reserve_answer=reserve_answer and not hinted,
            page=page_clean(url=page_url, title=page_title, allowed=conv.site.page_query_params),
            attachments=attachments,
            before_insert=_early(before_insert, conv, hinted=hinted),
        )
        hint = None
        if result.created and hinted:
            result, hint = _removal_hint_append(conv, result, reserve_answer=reserve_answer)
        if before_commit is not None:
            before_commit(result, conv)
    return result, conv, new_token, hint


def _early(hook, conv: Conversation, *, hinted: bool) -> Callable[[Turn, int | None], None] | None:
    """`before_insert` for `_append_locked`: none for a resend (read with the row) or a turn
    a removal hint follows."""
    if hook is None or hinted or getattr(conv, "client_id_stored", False):
        return None
    return lambda turn, answer_seq: hook(conv, turn, answer_seq)


def _conversation_for_turn(
    *,
    site_id: int,
    conversation_id: int | None,
    found: Conversation | None,
    language: str,
    customer_id: int | None,
    profile_id: int | None,
    early_client_id: str | None,
) -> tuple[Conversation, str | None]:
    """The conversation a visitor's turn goes to, read and locked with its site, and the
    token of one started here (None otherwise). `conversation_id`: the socket's, whose
    token was resolved and checked at hello (or which it created), so no token lookup runs
    on every message; an erased or expired one gives way to a new conversation (an open
    socket must not revive an expired transcript). `found`: the session token's.
    `early_client_id`: the message's id when its answer is built before its statement; the
    row's read then also says whether it is stored already (a resend) and brings the newest
    turns (`newest_turns`)."""
    conv = None
    early = early_client_id is not None
    on_socket = conversation_id is not None  # else found by the site's token: no site check
    pk = conversation_id if on_socket else (found.pk if found is not None else None)
    if pk is not None:
        conv = conversation_lock_read(
            pk=pk,
            site_id=site_id if on_socket else None,
            with_core=True,
            client_id=early_client_id,
            with_newest=early,
        )
        if conv is not None and on_socket and _expired_on_socket(conv):
            conv = None
    if conv is not None:
        return conv, None
    started, new_token = conversation_start(
        site_id=site_id, language=language, customer_id=customer_id
    )
    if profile_id:  # a recognised visit (memory.profiles): the new one joins it
        profile_link_conversation(profile_id=profile_id, conversation_id=started.pk)
    return conversation_lock_read(
        pk=started.pk, with_core=True
    ) or started, new_token  # with its site


def _removal_hint_append(
    conv: Conversation, result: AppendResult, *, reserve_answer: bool
) -> tuple[AppendResult, Turn]:
    """The system turn that tells the visitor what was removed: right after the visitor's
    turn, the answer (its seq reserved here) after the hint."""
    hint_text = removed_hint(removed=result.removed, language=conv.language)
    hint_redacted, hint_tokens = redacted_new(None, hint_text)
    last = _append_locked(
        conv,
        role=TurnRole.SYSTEM,
        redacted=hint_redacted,
        tokens=hint_tokens,
        reserve_answer=reserve_answer,
    )
    return replace(result, answer_seq=last.answer_seq), last.turn


def _expired_on_socket(conv: Conversation) -> bool:
    """Whether the conversation an open socket holds has expired meanwhile (its session
    period passed without a case holding it). Active within the shortest period a policy
    allows (one hour), it cannot be: the common message pays no query for the policy."""
    if conv.last_activity_at > timezone.now() - timedelta(hours=1):
        return False
    return conversation_is_expired(conversation=conv)
