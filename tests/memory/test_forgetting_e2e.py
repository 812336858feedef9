"""End to end, through the websocket consumer and the real openai client path: a card
number, a CVV, a password and a one-time code are typed; afterwards the whole database
(`dumpdata` of every app and a raw SQL scan of every column of every table), every log
record (DEBUG, every logger) and every request the model received contain none of them."""

import json
import logging
import re
from io import StringIO

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.db import connection

from chatwidget.logging import JsonFormatter, ScrubTextFilter
from tests.fakellm import Reply

CARD = "4539 1488 0343 6467"
CVV = "4719"
PASSWORD = "Kx9#vLp2Qw"
OTP = "583920"
ASSISTANT_CARD = "5555 5555 5555 4444"  # the model repeats a card number: stored redacted too

NEVER = {
    "card": re.compile(r"4539\D?1488\D?0343\D?6467"),
    # not a JSON number (`"latency_ms": 4719`): timings and counts may take any value
    "cvv": re.compile(rf"(?<![\w.:-])(?<!: ){CVV}(?![\w])"),
    "password": re.compile(re.escape(PASSWORD)),
    "otp": re.compile(rf"(?<![\w.:-])(?<!: ){OTP}(?![\w])"),
    "assistant card": re.compile(r"5555\D?5555\D?5555\D?4444"),
}


def found(text: str) -> list[str]:
    return [name for name, pattern in NEVER.items() if pattern.search(text)]


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.msg} {record.args!r} {vars(record)!r}")
        ScrubTextFilter().filter(record)
        self.lines.append(JsonFormatter().format(record))


@pytest.fixture
def debug_logs():
    capture = Capture()
    loggers = [logging.getLogger()] + [
        logging.getLogger(n) for n in list(logging.root.manager.loggerDict)
    ]
    saved = [(lg, lg.level, lg.disabled) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
        lg.disabled = False
    logging.getLogger().addHandler(capture)
    try:
        yield capture
    finally:
        logging.getLogger().removeHandler(capture)
        for lg, level, disabled in saved:
            lg.setLevel(level)
            lg.disabled = disabled


def dump_everything() -> tuple[str, str, int]:
    """`dumpdata` of all apps, and every value of every column of every table via raw SQL."""
    out = StringIO()
    call_command("dumpdata", stdout=out)
    values = []
    scanned = 0
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            columns = [
                c.name for c in connection.introspection.get_table_description(cursor, table)
            ]
            quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
            cursor.execute(f"SELECT {quoted} FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                scanned += 1
                # text and JSON only: a number column (a latency, a count) is no typed value
                values.extend(str(v) for v in row if isinstance(v, str | dict | list))
    return out.getvalue(), "\n".join(values), scanned


def stored_texts() -> list[str]:
    from memory.models import Turn

    return list(Turn.objects.order_by("seq").values_list("text", flat=True))


@pytest.mark.django_db(transaction=True)
async def test_never_kept_values_leave_no_trace_anywhere(site, connect, fake_llm, debug_logs):
    fake_llm.script.append(Reply(f"I noted the card {ASSISTANT_CARD} for you."))
    c = await connect(site.key)
    await c.hello()
    await c.say(f"My card is {CARD} and the CVV is {CVV}", "m1")
    await c.answer()
    await c.say(f"my password is {PASSWORD}", "m2")
    await c.answer()
    await c.say(f"the one-time code is {OTP}", "m3")
    final, frames = await c.answer()
    hints = [f for f in frames if f.get("type") == "message" and f.get("role") == "system"]
    assert hints and "never share" in hints[0]["text"], "the visitor is told why and where"

    ack = await c.say("thanks", "m4")
    await c.answer()
    # what the visitor sees on resume is redacted as well
    again = await connect(site.key, client=("10.0.0.2", 1))
    welcome = await again.hello(session=ack["session"])
    assert welcome["resumed"] is True
    assert found(json.dumps(welcome)) == []

    texts = await database_sync_to_async(stored_texts)()
    joined = "\n".join(texts)
    for placeholder in (
        "[card number removed]",
        "[security code removed]",
        "[password removed]",
        "[one-time code removed]",
    ):
        assert placeholder in joined, placeholder
    assert len(texts) >= 8, "turns were stored (visitor, hints, answers)"

    dump, raw, rows = await database_sync_to_async(dump_everything)()
    assert rows > 10 and "[card number removed]" in dump and "[password removed]" in raw
    assert found(dump) == [], "dumpdata"
    assert found(raw) == [], "raw SQL scan"

    assert len(fake_llm.requests) == 4
    sent = json.dumps(fake_llm.requests)
    assert "[card number removed]" in sent
    assert found(sent) == [], "requests to the model"

    assert len(debug_logs.lines) > 10
    assert found("\n".join(debug_logs.lines)) == [], "logs"
