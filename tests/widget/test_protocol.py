"""chatwidget/protocol.py: inbound parsing to typed frames, one builder per outbound frame;
and the one decision about a visitor's turn (chatwidget.assistant.turns)."""

import json

import pytest

from chatwidget.assistant.turns import TurnOutcome, turn_outcome
from chatwidget.platform import frames
from chatwidget.platform.frames import ErrorCode
from chatwidget.widget import protocol
from chatwidget.widget.protocol import ProtocolError


def parse(frame, *, greeted=True, max_bytes=1000, max_length=20):
    text = frame if isinstance(frame, str) or frame is None else json.dumps(frame)
    envelope = protocol.envelope_parse(text, max_bytes=max_bytes, greeted=greeted)
    if isinstance(envelope, ProtocolError):
        return envelope
    return protocol.frame_parse(envelope, max_length=max_length)


@pytest.mark.parametrize(
    "raw, greeted, code",
    [
        (None, True, ErrorCode.BAD_FRAME),
        ("x" * 1001, True, ErrorCode.TOO_LONG),
        ("{not json", True, ErrorCode.BAD_FRAME),
        ("[1, 2]", True, ErrorCode.BAD_FRAME),
        ({"type": 3}, True, ErrorCode.BAD_FRAME),
        ({"type": "message", "id": "a", "text": "hi"}, False, ErrorCode.BAD_FRAME),
        ({"type": "welcome"}, True, ErrorCode.UNKNOWN_TYPE),
        ({"type": "message", "text": "hi"}, True, ErrorCode.BAD_FRAME),
        ({"type": "message", "id": "x" * 65, "text": "hi"}, True, ErrorCode.BAD_FRAME),
        ({"type": "message", "id": "a", "text": "  "}, True, ErrorCode.EMPTY),
        ({"type": "message", "id": "a", "text": "y" * 21}, True, ErrorCode.TOO_LONG),
        ({"type": "consent", "recognition": "yes"}, True, ErrorCode.BAD_FRAME),
    ],
)
def test_frames_the_server_refuses(raw, greeted, code):
    error = parse(raw, greeted=greeted)
    assert isinstance(error, ProtocolError) and error.code is code and str(error.message)


def test_an_error_about_a_message_names_its_id():
    assert parse({"type": "message", "id": "m7", "text": ""}).client_id == "m7"
    assert parse({"type": "message", "text": "hi"}).client_id is None


def test_typed_frames():
    assert parse(
        {"type": "hello", "session": "t", "last_seq": 4, "lang": "de", "recognition": "r"},
        greeted=False,
    ) == protocol.Hello("t", 4, "de", "r")
    assert parse(
        {"type": "hello", "session": 5, "last_seq": True, "lang": "pt", "recognition": ""}
    ) == protocol.Hello(None, None, None, None)
    # the visitor languages, a region subtag dropped
    assert parse({"type": "hello", "lang": "fr-CA"}).lang == "fr"
    assert parse({"type": "hello", "lang": "PL"}).lang == "pl"
    assert parse({"type": "hello", "lang": 7}).lang is None
    assert parse({"type": "hello", "last_seq": -1}).last_seq is None
    assert parse({"type": "message", "id": "a", "text": "hi"}) == protocol.Message("a", "hi")
    assert parse({"type": "handover", "reason": "r" * 600}).reason == "r" * 500
    assert parse({"type": "handover", "reason": 3}) == protocol.HandoverRequest("")
    assert parse({"type": "forget"}) == protocol.Forget()
    assert parse({"type": "consent", "recognition": False}) == protocol.Consent(False)
    assert parse({"type": "profile"}) == protocol.ProfileRequest()


def test_outbound_frames_are_plain_json():
    built = [
        frames.welcome_frame(session=None, resumed=False, state="bot", turns=[]),
        frames.ack_frame(client_id="a", seq=1, session="t"),
        frames.delta_frame(seq=2, text="x"),
        frames.state_frame("waiting"),
        frames.error_frame(code=ErrorCode.EMPTY, message="m", client_id="a"),
        frames.forgotten_frame(),
        frames.consent_frame(recognition=True, token="t", max_age=9),
        frames.profile_frame(fields={}),
        frames.cases_frame(waiting=2),
    ]
    for frame in built:
        assert type(frame["type"]) is str
        assert json.loads(json.dumps(frame)) == frame
    assert frames.error_frame(code=ErrorCode.EMPTY, message="m") == {
        "type": "error",
        "code": "empty",
        "message": "m",
        "id": None,
    }
    assert frames.forgotten_frame() == {"type": "forgotten"}
    assert frames.is_forgotten(frames.forgotten_frame())


@pytest.mark.parametrize(
    "state, created, outcome",
    [
        ("bot", True, TurnOutcome.ANSWER),
        ("bot", False, TurnOutcome.ANSWER_IF_UNANSWERED),
        ("waiting", True, TurnOutcome.CASE_UPDATE),
        ("human", True, TurnOutcome.CASE_UPDATE),
        ("waiting", False, TurnOutcome.SILENT),
        ("closed", True, TurnOutcome.SILENT),
    ],
)
def test_what_happens_to_a_visitor_turn(state, created, outcome):
    assert turn_outcome(state=state, created=created) is outcome
