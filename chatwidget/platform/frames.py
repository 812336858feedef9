"""The frames the server sends (DESIGN.md, "The websocket protocol"): one builder per frame
type, the frame types and error codes, and `json_load_safe` for every untrusted JSON.
Nothing else in the project writes a frame dict. Frames are plain dicts of plain values.

Here, below every app, because every layer publishes frames: memory's services (`message`,
`forgotten`), handover's (`state`, `cases`, `inbox`), the assistant (`delta`, `error`), the
widget's consumer. The inbound half, which only the widget's socket parses, is
`chatwidget.widget.protocol`. Messages are lazy translations: the consumer renders them in
the visitor's language.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise

Frame = dict[str, Any]

# Frames are flat ({"type": ..., "id": ..., "text": ...}); a little room for later fields.
# Deeper nesting is refused (20,000 levels made json.loads raise RecursionError).
MAX_DEPTH = 4


class FrameType(StrEnum):
    # inbound (widget -> server)
    HELLO = "hello"
    HANDOVER = "handover"
    FORGET = "forget"
    # both ways: the widget sends a message/consent/profile request, the server answers
    MESSAGE = "message"
    CONSENT = "consent"
    PROFILE = "profile"
    RATING = "rating"  # the visitor's rating of a resolved case; the server answers its state
    HISTORY = "history"  # earlier turns of a long conversation, a page within a frame budget
    ATTACHED = "attached"  # the widget's photo or file was stored by HTTP: answer that turn
    # outbound (server -> widget, server -> staff)
    WELCOME = "welcome"
    ACK = "ack"
    DELTA = "delta"
    STATE = "state"
    ERROR = "error"
    FORGOTTEN = "forgotten"
    CARDS = "cards"  # an answer's product cards (issue 33), after the answer is stored
    CASES = "cases"
    INBOX = "inbox"  # staff: one case of the live inbox changed (row) or left it (None)


class ErrorCode(StrEnum):
    BAD_FRAME = "bad_frame"
    TOO_LONG = "too_long"
    UNKNOWN_TYPE = "unknown_type"
    EMPTY = "empty"
    RATE_LIMITED = "rate_limited"
    NO_CONVERSATION = "no_conversation"
    UNAVAILABLE = "unavailable"
    UNKNOWN_SITE = "unknown_site"
    FORBIDDEN_ORIGIN = "forbidden_origin"
    MODEL_UNAVAILABLE = "model_unavailable"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    IDENTITY_INVALID = "identity_invalid"  # hello.identity's signature did not verify


def json_load_safe(data: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` that refuses, with ValueError, what would fail later, outside a place
    that answers politely: nesting deeper than `max_depth` (a RecursionError in json.loads,
    or in whatever walks the value), a lone surrogate such as "\\ud800" (no UTF-8 for it:
    hashing and PostgreSQL fail) and NUL (PostgreSQL's text and jsonb refuse it). For every
    untrusted JSON: websocket frames, request bodies."""
    try:
        value = json.loads(data)
    except RecursionError as exc:
        raise ValueError("nested too deeply") from exc
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _string_check(item)
        elif isinstance(item, (dict, list)):
            if depth > max_depth:
                raise ValueError("nested too deeply")
            if isinstance(item, dict):
                for key in item:
                    _string_check(key)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
    return value


def _string_check(text: str) -> None:
    if "\x00" in text:
        raise ValueError("NUL in a string")
    if not text.isascii():
        text.encode("utf-8")  # UnicodeEncodeError (a ValueError) on a lone surrogate


# --- outbound ----------------------------------------------------------------------------------


def welcome_frame(
    *, session: str | None, resumed: bool, state: str, turns: list[dict], earlier: bool = False
) -> Frame:
    """`turns`: the newest the visitor asked for (after `last_seq`, or all) within the
    history frame budget, oldest first; `earlier`: turns the client asked for were left out
    below the first of them (the widget offers "Show earlier messages": `history`)."""
    return {
        "type": FrameType.WELCOME.value,
        "session": session,
        "resumed": resumed,
        "state": str(state),
        "turns": turns,
        "earlier": earlier,
    }


def history_frame(*, before_seq: int, turns: list[dict], earlier: bool) -> Frame:
    """The answer to the widget's `history`: the newest turns below `before_seq` within the
    history frame budget, oldest first; `earlier`: more lie below the first of them."""
    return {
        "type": FrameType.HISTORY.value,
        "before_seq": before_seq,
        "turns": turns,
        "earlier": earlier,
    }


def ack_frame(*, client_id: str, seq: int, session: str | None) -> Frame:
    return {"type": FrameType.ACK.value, "id": client_id, "seq": seq, "session": session}


def message_frame(turn: dict) -> Frame:
    """A complete turn (seq, role, text, at; staff views add the author)."""
    return {"type": FrameType.MESSAGE.value, **turn}


def delta_frame(*, seq: int, text: str) -> Frame:
    return {"type": FrameType.DELTA.value, "seq": seq, "text": text}


def cards_frame(*, seq: int, cards: list[dict]) -> Frame:
    """The product cards of the stored answer `seq` (chatwidget.shop.knowledge.cards)."""
    return {"type": FrameType.CARDS.value, "seq": seq, "cards": cards}


def state_frame(state: str | None) -> Frame:
    return {"type": FrameType.STATE.value, "state": None if state is None else str(state)}


def error_frame(
    *, code: ErrorCode | str, message: str | Promise, client_id: str | None = None
) -> Frame:
    return {
        "type": FrameType.ERROR.value,
        "code": str(code),
        "message": str(message),
        "id": client_id,
    }


def forgotten_frame() -> Frame:
    """The conversation is gone (erased by the visitor, staff or retention): every tab and
    staff view closes."""
    return {"type": FrameType.FORGOTTEN.value}


def consent_frame(*, recognition: bool, token: str | None, max_age: int) -> Frame:
    return {
        "type": FrameType.CONSENT.value,
        "recognition": recognition,
        "token": token,
        "max_age": max_age,
    }


def profile_frame(*, fields: Any) -> Frame:
    return {"type": FrameType.PROFILE.value, "fields": fields}


def rating_frame(*, askable: bool, score: int | None) -> Frame:
    """For a closed conversation: `askable` (a resolved case the visitor may rate) and the
    stored score (None: not rated yet, the widget asks)."""
    return {"type": FrameType.RATING.value, "askable": askable, "score": score}


def cases_frame(*, waiting: int) -> Frame:
    """The waiting-cases badge of staff sockets: the cases waiting on the sites the user
    may see."""
    return {"type": FrameType.CASES.value, "waiting": int(waiting)}


def cases_changed_event(*, waiting_by_site: dict[int, int]) -> Frame:
    """To every staff socket (the group, not the wire): the waiting cases per site. Each
    socket sends `cases_frame` with the sum over the sites its user may see."""
    sites = {str(site): int(count) for site, count in waiting_by_site.items()}
    return {"type": FrameType.CASES.value, "sites": sites}


def cases_waiting_for(event: Frame, site_ids: frozenset[int] | None) -> int:
    """The badge's count in a `cases_changed_event` for a user who may see `site_ids`
    (None: every site)."""
    sites = event.get("sites")
    if not isinstance(sites, dict):
        return 0
    return sum(
        int(count)
        for site, count in sites.items()
        if site_ids is None or (str(site).isdigit() and int(site) in site_ids)
    )


def inbox_frame(*, case_id: int, row: dict | None) -> Frame:
    """The staff inbox: a case's current row (masked fields only), or `row: null` when the
    case is no longer open."""
    return {"type": FrameType.INBOX.value, "case": int(case_id), "row": row}


def inbox_changed_event(*, case_id: int, site_id: int) -> Frame:
    """To every staff socket (the group, not the wire): a case changed. Only ids travel;
    each socket re-reads the row for its user and sends `inbox_frame`, or drops the case of
    a site the user may not see."""
    return {"type": FrameType.INBOX.value, "case": int(case_id), "site": int(site_id)}


def is_forgotten(event: Frame) -> bool:
    return event.get("type") == FrameType.FORGOTTEN


# --- what a visitor's client sends (the go-live driver, tests; the widget's twin is
# static/widget/src/frames.js) ------------------------------------------------------------


def hello_frame(*, session: str | None, last_seq: int | None = None) -> Frame:
    return {"type": FrameType.HELLO.value, "session": session, "last_seq": last_seq}


def visitor_history_frame(*, before_seq: int) -> Frame:
    return {"type": FrameType.HISTORY.value, "before_seq": before_seq}


def visitor_message_frame(*, client_id: str, text: str) -> Frame:
    return {"type": FrameType.MESSAGE.value, "id": client_id, "text": text}


def handover_request_frame(*, reason: str) -> Frame:
    return {"type": FrameType.HANDOVER.value, "reason": reason}
