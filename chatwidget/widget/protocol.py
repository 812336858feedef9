"""The visitor websocket's inbound half of the contract (DESIGN.md, "The websocket protocol").

`envelope_parse` checks what every frame needs (size, JSON, a type, hello first, a known
type); `frame_parse` turns the envelope into one typed frame per type, or a `ProtocolError`.
The frames the server sends are built by `chatwidget.platform.frames`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from chatwidget.platform.frames import ErrorCode, FrameType, json_load_safe
from chatwidget.platform.languages import language_normalise
from chatwidget.sites.identity import MAX_EMAIL, MAX_ID, MAX_NAME, Identity
from memory.pages import url_is_web

MAX_CLIENT_ID = 64
RESERVED_ID_PREFIX = "~"  # the server's own turn ids (answers) start with it
MAX_REASON = 500
MAX_PAGE_URL = 2048  # characters; the widget cuts the query string of a longer one
MAX_PAGE_TITLE = 300  # characters; the widget cuts a longer title


INBOUND_TYPES = frozenset(
    {
        FrameType.HELLO,
        FrameType.MESSAGE,
        FrameType.HANDOVER,
        FrameType.FORGET,
        FrameType.CONSENT,
        FrameType.PROFILE,
        FrameType.RATING,
        FrameType.HISTORY,
        FrameType.ATTACHED,
    }
)


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
    # the customer the shop signed in (not checked yet: chatwidget.sites.identity); a
    # malformed one is an Identity that cannot verify, so it is answered identity_invalid
    identity: Identity | None = None


@dataclass(frozen=True)
class Page:
    """Where the visitor is: an http(s) URL and the page's title, as the widget read them."""

    url: str
    title: str


@dataclass(frozen=True)
class Message:
    id: str
    text: str
    page: Page | None = None


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


@dataclass(frozen=True)
class History:
    """Earlier turns: the page below `before_seq` (the first seq the widget shows)."""

    before_seq: int


@dataclass(frozen=True)
class Attached:
    """A photo or file the widget uploaded (POST .../upload, issue 33) is stored as a visitor
    turn: the socket answers the conversation's unanswered turn, as after a reconnect.
    `session`: the token an upload before the first message started the conversation with;
    a socket without a conversation joins it."""

    session: str | None = None


RATING_SCORES = range(1, 6)
MAX_RATING_COMMENT = 1000

Inbound = (
    Hello
    | Message
    | HandoverRequest
    | Forget
    | Consent
    | ProfileRequest
    | Rate
    | History
    | Attached
)


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


def _identity(value: object) -> Identity | None:
    if value is None:
        return None
    fields = value if isinstance(value, dict) else {}

    def text(name: str, limit: int) -> str:
        item = fields.get(name)
        return item if isinstance(item, str) and len(item) <= limit else ""

    return Identity(
        id=text("id", MAX_ID),
        email=text("email", MAX_EMAIL),
        name=text("name", MAX_NAME),
        signature=text("signature", 128),
    )


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
        lang=language_normalise(lang),  # "fr-CA" -> "fr"; an unknown language: None
        recognition=recognition if isinstance(recognition, str) and recognition else None,
        identity=_identity(data.get("identity")),
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
    page = data.get("page")
    if page is None:
        return Message(id=client_id, text=text)
    parsed = _page(page)
    if parsed is None:
        return ProtocolError(
            ErrorCode.BAD_FRAME,
            _("The page must be {url, title}: an http(s) URL and a short title."),
            client_id,
        )
    return Message(id=client_id, text=text, page=parsed)


def _page(page: Any) -> Page | None:
    """`{"url": "<http(s) URL>", "title": "..."}` (title optional), within the bounds; None
    when it is not: the frame is refused as a whole (`bad_frame` with the message's id, the
    socket stays open), so a client that sends nonsense learns of it."""
    if not isinstance(page, dict):  # other fields are left for later versions
        return None
    url, title = page.get("url"), page.get("title", "")
    if not isinstance(url, str) or not isinstance(title, str):
        return None
    if len(url) > MAX_PAGE_URL or len(title) > MAX_PAGE_TITLE or not url_is_web(url):
        return None
    return Page(url=url, title=title)


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


def _history(data: dict) -> History | ProtocolError:
    before_seq = data.get("before_seq")
    if not isinstance(before_seq, int) or isinstance(before_seq, bool) or before_seq < 1:
        return ProtocolError(ErrorCode.BAD_FRAME, _("History needs before_seq, a seq."))
    return History(before_seq=before_seq)


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
        case FrameType.HISTORY:
            return _history(data)
        case FrameType.ATTACHED:
            session = data.get("session")
            return Attached(session=session if isinstance(session, str) and session else None)
        case _:
            return ProfileRequest()
