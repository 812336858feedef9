"""No message text in logs at any level (chatwidget/logging.py, LOGGING in settings).

A whole conversation runs through the websocket consumer and the real openai client path
while every log record of every logger is captured at DEBUG: the raw records (what caplog
would hold: message, args, extra fields, exception) and the output of the configured
formatter behind the scrub filter. None may contain the visitor's text."""

import json
import logging

import pytest

from chatwidget.logging import JsonFormatter, ScrubTextFilter
from tests.fakellm import Reply

CARD = "4539 1488 0343 6467"
PASSWORD = "Kx9#vLp2Qw"
EMAIL = "ottilie.brandt@example.org"
SENTENCE = "the lavender scarf smelled of wet cardboard"
SECRETS = (CARD, CARD.replace(" ", ""), PASSWORD, EMAIL, SENTENCE, "lavender", "Brandt")


class Capture(logging.Handler):
    """Keeps every record raw (like caplog) and as the production formatter writes it."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.raw: list[str] = []
        self.formatted: list[str] = []
        self.scrub = ScrubTextFilter()
        self.formatter_ = JsonFormatter()

    def emit(self, record: logging.LogRecord) -> None:
        # raw first (the filter mutates the record, as it does in production)
        self.raw.append(
            " ".join(
                [
                    str(record.msg),
                    repr(record.args),
                    repr(vars(record)),
                    repr(record.exc_info[1]) if record.exc_info else "",
                ]
            )
        )
        self.scrub.filter(record)
        self.formatted.append(self.formatter_.format(record))


@pytest.fixture
def all_logs():
    """Every logger at DEBUG for the test's duration, as configured otherwise."""
    capture = Capture()
    root = logging.getLogger()
    loggers = [root] + [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)]
    saved = [(lg, lg.level, lg.disabled) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
        lg.disabled = False
    root.addHandler(capture)
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        for lg, level, disabled in saved:
            lg.setLevel(level)
            lg.disabled = disabled


def leaks(lines: list[str]) -> list[tuple[str, str]]:
    return [(secret, line[:200]) for line in lines for secret in SECRETS if secret in line]


@pytest.mark.django_db(transaction=True)
async def test_a_whole_conversation_logs_no_text_at_debug(site, connect, fake_llm, all_logs):
    fake_llm.script.append(Reply(f"Noted: {SENTENCE}. Please never send {EMAIL} a password."))
    c = await connect(site.key)
    await c.hello()
    ack = await c.say(
        f"My card is {CARD}, my password is {PASSWORD}, mail me at {EMAIL}. Also, {SENTENCE}.", "m1"
    )
    await c.answer()
    await c.say(f"And {SENTENCE} again", "m2")
    await c.answer()
    second = await connect(site.key, client=("10.0.0.9", 1))
    await second.hello(session=ack["session"])
    await c.send({"type": "handover", "reason": f"about {SENTENCE}"})
    await c.recv_until("state")
    await c.send({"type": "message", "id": "x" * 200, "text": SENTENCE})  # bad frame
    await c.recv_until("error")
    await c.send({"type": "forget"})
    await c.recv_until("forgotten")
    await second.recv_until("forgotten")

    assert len(all_logs.raw) > 5, "records were captured"
    assert any('"logger": "memory.services"' in line for line in all_logs.formatted)
    assert leaks(all_logs.formatted) == []
    assert leaks(all_logs.raw) == []
    for line in all_logs.formatted:
        json.loads(line)  # one JSON object per record


def test_exception_with_user_text_is_logged_scrubbed(all_logs):
    log = logging.getLogger("chatwidget.test")
    try:
        raise ValueError(f"could not parse {SENTENCE} / {EMAIL}")
    except ValueError:
        log.exception("answer failed", extra={"conversation": 7})
    line = json.loads(all_logs.formatted[-1])
    assert line["event"] == "answer failed" and line["conversation"] == 7
    assert "ValueError: [scrubbed]" in line["exc"]
    assert leaks(all_logs.formatted) == []


def test_text_like_extra_fields_are_scrubbed(all_logs):
    logging.getLogger("memory.test").warning(
        "odd turn", extra={"text": SENTENCE, "content": EMAIL, "conversation": 3}
    )
    line = json.loads(all_logs.formatted[-1])
    assert line["text"] == "[scrubbed]" and line["content"] == "[scrubbed]"
    assert line["conversation"] == 3


def test_configured_console_handler_scrubs(settings):
    """The LOGGING setting itself wires the filter and the formatter to the console."""
    handler = settings.LOGGING["handlers"]["console"]
    assert handler["filters"] == ["scrub"] and handler["formatter"] == "json"
    assert settings.LOGGING["root"]["handlers"] == ["console"]


@pytest.mark.django_db
def test_error_reports_of_views_do_not_carry_the_body(client, site, all_logs):
    """A failing request logs path and status, never the posted body."""
    response = client.post(
        f"/widget/v1/{site.key}/export",
        data=json.dumps({"session": SENTENCE}),
        content_type="application/json",
        HTTP_ORIGIN="http://evil.test",
    )
    assert response.status_code == 403
    assert any("Forbidden" in line for line in all_logs.formatted)
    assert leaks(all_logs.formatted) == [] and leaks(all_logs.raw) == []
