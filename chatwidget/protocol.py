"""The visitor websocket's contract (DESIGN.md, "Protocol") in code.

Inbound: `envelope_parse` checks what every frame needs (size, JSON, a type, hello first, a
known type); `frame_parse` turns the envelope into one typed frame per type, or a
`ProtocolError`. Outbound: one builder per frame type; nothing else in the project writes a
frame dict. Frames are plain dicts of plain values (json and msgpack both take them).

This module imports nothing of the project, so every layer may build frames with it (memory's
services publish `message` and `forgotten` events; handover's publish `state` and `cases`).
Messages are lazy translations: the consumer renders them in the visitor's language.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

Frame = dict[str, Any]

MAX_CLIENT_ID = 64
RESERVED_ID_PREFIX = "~"  # the server's own turn ids (answers) start with it
MAX_REASON = 500
# Frames are flat ({"type": ..., "id": ..., "text": ...}); a little room for later fields.
# Deeper nesting is refused (20,000 levels made json.loads raise RecursionError).
MAX_DEPTH = 4
LANGUAGES = ("en", "de")


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
    # outbound (server -> widget, server -> staff)
    WELCOME = "welcome"
    ACK = "ack"
    DELTA = "delta"
    STATE = "state"
    ERROR = "error"
    FORGOTTEN = "forgotten"
    CASES = "cases"
    INBOX = "inbox"  # staff: one case of the live inbox changed (row) or left it (None)


INBOUND_TYPES = frozenset(
    {
        FrameType.HELLO,
        FrameType.MESSAGE,
        FrameType.HANDOVER,
        FrameType.FORGET,
        FrameType.CONSENT,
        FrameType.PROFILE,
        FrameType.RATING,
    }
)


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


# --- inbound ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProtocolError:
    """A frame the server answers with an `error` frame instead of acting on it."""

    code: ErrorCode
    message: str | Promise
    client_id: str | None = None


@dataclass(frozen=True)
class Envelope:
    """A frame that passed the checks every frame needs; `client_id` is its `id` if it is a
    string (an error about it names it)."""

    type: FrameType
    data: dict[str, Any]
    client_id: str | None


@dataclass(frozen=True)
class Hello:
    session: str | None
    last_seq: int | None
    lang: str | None
    recognition: str | None


@dataclass(frozen=True)
class Message:
    id: str
    text: str


@dataclass(frozen=True)
class HandoverRequest:
    reason: str


@dataclass(frozen=True)
class Forget:
    pass


@dataclass(frozen=True)
class Consent:
    recognition: bool


@dataclass(frozen=True)
class ProfileRequest:
    pass


@dataclass(frozen=True)
class Rate:
    """The visitor's rating of the resolved case: a score 1-5 and an optional comment."""

    score: int
    comment: str


RATING_SCORES = range(1, 6)
MAX_RATING_COMMENT = 1000

Inbound = Hello | Message | HandoverRequest | Forget | Consent | ProfileRequest | Rate


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


def envelope_parse(
    text_data: str | None, *, max_bytes: int, greeted: bool
) -> Envelope | ProtocolError:
    """Size, JSON (bounded depth, encodable text), a type; before `hello` nothing else; a
    type the server knows."""
    if text_data is None or len(text_data) > max_bytes:
        code = ErrorCode.BAD_FRAME if text_data is None else ErrorCode.TOO_LONG
        return ProtocolError(code, _("This frame could not be read."))
    try:
        raw = json_load_safe(text_data)
    except ValueError:
        return ProtocolError(ErrorCode.BAD_FRAME, _("This frame is not valid JSON."))
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        return ProtocolError(ErrorCode.BAD_FRAME, _("Every frame needs a type."))
    kind = raw["type"]
    if kind != FrameType.HELLO and not greeted:
        return ProtocolError(ErrorCode.BAD_FRAME, _("Say hello first."))
    if kind not in INBOUND_TYPES:
        return ProtocolError(ErrorCode.UNKNOWN_TYPE, _("Unknown frame type."))
    client_id = raw.get("id") if isinstance(raw.get("id"), str) else None
    return Envelope(type=FrameType(kind), data=raw, client_id=client_id)


def _hello(data: dict) -> Hello:
    session = data.get("session")
    last_seq = data.get("last_seq")
    if not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0:
        last_seq = None
    lang = data.get("lang")
    recognition = data.get("recognition")
    return Hello(
        session=session if isinstance(session, str) else None,
        last_seq=last_seq,
        lang=lang if lang in LANGUAGES else None,
        recognition=recognition if isinstance(recognition, str) and recognition else None,
    )


def _message(data: dict, max_length: int) -> Message | ProtocolError:
    client_id = data.get("id")
    text = data.get("text")
    if (
        not isinstance(client_id, str)
        or not client_id
        or len(client_id) > MAX_CLIENT_ID
        or client_id.startswith(RESERVED_ID_PREFIX)
    ):
        return ProtocolError(ErrorCode.BAD_FRAME, _("A message needs an id."))
    if not isinstance(text, str) or not text.strip():
        return ProtocolError(ErrorCode.EMPTY, _("The message is empty."), client_id)
    if len(text) > max_length:
        return ProtocolError(
            ErrorCode.TOO_LONG,
            _("The message is too long (at most %(n)s characters).") % {"n": max_length},
            client_id,
        )
    return Message(id=client_id, text=text)


def _consent(data: dict) -> Consent | ProtocolError:
    recognition = data.get("recognition")
    if not isinstance(recognition, bool):
        return ProtocolError(ErrorCode.BAD_FRAME, _("Consent needs recognition true or false."))
    return Consent(recognition=recognition)


def _rate(data: dict) -> Rate | ProtocolError:
    score = data.get("score")
    comment = data.get("comment", "")
    if not isinstance(score, int) or isinstance(score, bool) or score not in RATING_SCORES:
        return ProtocolError(ErrorCode.BAD_FRAME, _("A rating needs a score from 1 to 5."))
    if not isinstance(comment, str):
        comment = ""
    if len(comment) > MAX_RATING_COMMENT:
        return ProtocolError(
            ErrorCode.TOO_LONG,
            _("The comment is too long (at most %(n)s characters).") % {"n": MAX_RATING_COMMENT},
        )
    return Rate(score=score, comment=comment)


def frame_parse(envelope: Envelope, *, max_length: int) -> Inbound | ProtocolError:
    """The typed frame of an envelope. `max_length`: the site's message length limit."""
    data = envelope.data
    match envelope.type:
        case FrameType.HELLO:
            return _hello(data)
        case FrameType.MESSAGE:
            return _message(data, max_length)
        case FrameType.HANDOVER:
            reason = data.get("reason")
            return HandoverRequest(reason=reason[:MAX_REASON] if isinstance(reason, str) else "")
        case FrameType.FORGET:
            return Forget()
        case FrameType.CONSENT:
            return _consent(data)
        case FrameType.RATING:
            return _rate(data)
        case _:
            return ProfileRequest()


# --- outbound -----------------------------------------------------------------------------------


def welcome_frame(*, session: str | None, resumed: bool, state: str, turns: list[dict]) -> Frame:
    return {
        "type": FrameType.WELCOME.value,
        "session": session,
        "resumed": resumed,
        "state": str(state),
        "turns": turns,
    }


def ack_frame(*, client_id: str, seq: int, session: str | None) -> Frame:
    return {"type": FrameType.ACK.value, "id": client_id, "seq": seq, "session": session}


def message_frame(turn: dict) -> Frame:
    """A complete turn (seq, role, text, at; staff views add the author)."""
    return {"type": FrameType.MESSAGE.value, **turn}


def delta_frame(*, seq: int, text: str) -> Frame:
    return {"type": FrameType.DELTA.value, "seq": seq, "text": text}


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
    """The waiting-cases badge of staff sockets."""
    return {"type": FrameType.CASES.value, "waiting": int(waiting)}


def inbox_frame(*, case_id: int, row: dict | None) -> Frame:
    """The staff inbox: a case's current row (masked fields only), or `row: null` when the
    case is no longer open."""
    return {"type": FrameType.INBOX.value, "case": int(case_id), "row": row}


def is_forgotten(event: Frame) -> bool:
    return event.get("type") == FrameType.FORGOTTEN
