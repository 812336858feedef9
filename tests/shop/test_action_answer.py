"""A shop's answer is JSON of bounded depth (chatwidget.shop.actions.answer): brackets inside
strings do not count, anything deeper than the limit is malformed before json parses it."""

import pytest

from chatwidget.shop.actions.answer import MAX_DEPTH, AnswerMalformed, answer_parse


def nested(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


def test_an_order_status_parses():
    raw = b'{"status": "shipped", "items": [{"sku": "LS-1002", "qty": 1}], "note": "[[{{"}'
    assert answer_parse(raw) == {
        "status": "shipped",
        "items": [{"sku": "LS-1002", "qty": 1}],
        "note": "[[{{",
    }


def test_the_limit_is_on_nesting_not_on_brackets_in_text():
    assert answer_parse(nested(MAX_DEPTH)) is not None
    text = b'"' + b"[" * 10_000 + b'\\"' + b"{" * 10_000 + b'"'
    assert answer_parse(b'{"a": ' + text + b"}") == {"a": "[" * 10_000 + '"' + "{" * 10_000}
    with pytest.raises(AnswerMalformed):
        answer_parse(nested(MAX_DEPTH + 1))


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000 + b"]" * 100_000,  # json.loads: RecursionError
        b"[" * 100_000,
        b'"unclosed',
        b"<html>not json</html>",
        b"\xff\xfe",
    ],
)
def test_what_is_not_json_of_bounded_depth_is_malformed(raw):
    with pytest.raises(AnswerMalformed):
        answer_parse(raw)
