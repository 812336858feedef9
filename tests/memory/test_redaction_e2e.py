"""End to end, through the websocket consumer: never-kept values typed the way people really
type them (issue 13) leave no trace in any table, any request to the model, any log record,
any staff page (conversation and case admin) or the profile.

Each value is searched for in every spelling: the haystacks are normalised like redaction
normalises (NFKC, zero-width characters dropped, Unicode digits folded, spoken digits read)
and JSON escapes are undone first, so a full-width or spoken card number counts as found.
"""

from __future__ import annotations

import json
import logging
import re

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.urls import reverse

from memory.redaction.normalise import normalise
from tests.fakellm import JsonReply, Reply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# (what the visitor types, the value's digits or the password itself)
TYPED: list[tuple[str, str]] = [
    ("order 4539.1488.0343.6467 please check", "4539148803436467"),
    (
        "Karte \uff15\uff15\uff15\uff15 \uff15\uff15\uff15\uff15 \uff15\uff15\uff15\uff15 "
        "\uff14\uff14\uff14\uff14",
        "5555555555554444",
    ),
    (
        "my card is four zero one two eight eight eight eight eight eight eight eight "
        "one eight eight one",
        "4012888888881881",
    ),
    ("Visa 4111\u200b1111\u200b1111\u200b1111 exp 09/31", "4111111111111111"),
    ("the four digits on the back are 7093", "7093"),
    ("Prüfziffer 8362", "8362"),
    ("my password is now Tz7!qLm4", "Tz7!qLm4"),
    ("I changed my password to Rb5%wNe8", "Rb5%wNe8"),
    ("Zugangsdaten: kunde77 / Hx3$vKp9", "Hx3$vKp9"),
    ("the code is 638214", "638214"),
    ("Der Code lautet 905 417", "905417"),
    ("one-time code 7 2 8 5 1 6", "728516"),
    ("meine Geheimzahl ist 8642", "8642"),
]
BARE_REPLY = ("481 736", "481736")  # sent right after the assistant asked for "the code"
ALL = [*TYPED, BARE_REPLY]


def _pattern(value: str) -> re.Pattern[str]:
    if value.isdigit():
        sep = r"[\s./_\-,]{0,3}"
        return re.compile(r"(?<![\w.:-])" + sep.join(value) + r"(?!\w)")
    return re.compile(re.escape(value))


PATTERNS = {value: _pattern(value) for _, value in ALL}


def leaks(haystack: str) -> list[str]:
    """The never-kept values found in ``haystack`` in any spelling."""
    unescaped = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), haystack)
    folded = normalise(unescaped).text
    return [v for v, p in PATTERNS.items() if p.search(unescaped) or p.search(folded)]


def every_value_in_every_table() -> tuple[str, int]:
    values, rows = [], 0
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            description = connection.introspection.get_table_description(cursor, table)
            quoted = ", ".join(connection.ops.quote_name(c.name) for c in description)
            cursor.execute(f"SELECT {quoted} FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                rows += 1
                # text and JSON only: a number column (a latency of 7093 ms) is no typed value
                values.extend(str(v) for v in row if isinstance(v, str | dict | list))
    return "\n".join(values), rows


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        # the record's text attributes: its numbers (times, ids, counts) are no typed value
        texts = {k: v for k, v in vars(record).items() if isinstance(v, str | dict | list)}
        self.lines.append(f"{record.getMessage()} {texts!r}")


@pytest.fixture
def all_logs():
    capture = Capture()
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(capture)
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        root.setLevel(level)


def staff_pages(client, django_user_model, conversation_id: int) -> str:
    from handover.models import Case
    from handover.services.transitions import handover_request

    user = django_user_model.objects.create_superuser("owner", "owner@shop.test", "pw")
    client.force_login(user)
    case = handover_request(
        conversation_id=conversation_id,
        trigger="visitor",
        reason="please help, my password is now Tz7!qLm4 and the code is 638214",
    ) or Case.objects.get(conversation_id=conversation_id)
    pages = [
        reverse("admin:memory_conversation_change", args=[conversation_id]),
        reverse("admin:memory_conversation_changelist"),
        reverse("admin:handover_case_change", args=[case.pk]),
        reverse("admin:handover_case_changelist"),
    ]
    out = []
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        out.append(response.content.decode())
    return "\n".join(out)


def condense_and_profile(conversation_id: int) -> str:
    from memory.condense.service import core_refresh_inline
    from memory.models import Conversation, ProfileFact

    core_refresh_inline(conversation_id=conversation_id)
    conv = Conversation.objects.get(pk=conversation_id)
    facts = list(ProfileFact.objects.filter(profile_id=conv.profile_id).values())
    return json.dumps(facts, default=str, ensure_ascii=False)


async def test_never_kept_values_as_typed_leave_no_trace(
    site, connect, fake_llm, all_logs, client, django_user_model
):
    c = await connect(site.key)
    await c.hello()
    await c.send({"type": "consent", "recognition": True})
    await c.recv_until("consent")
    session = None
    for index, (text, _) in enumerate(TYPED):
        fake_llm.script.append(Reply(f"Thanks, noted ({index})."))
        ack = await c.say(text, f"m{index}")
        session = ack["session"]
        await c.answer()
    fake_llm.script.append(Reply("Which code did you get by SMS?"))
    await c.say("I got a code by SMS", "q1")
    await c.answer()
    fake_llm.script.append(Reply("Thanks."))
    await c.say(BARE_REPLY[0], "q2")
    await c.answer()

    from memory.models import Conversation
    from memory.selectors import token_hash

    conv = await database_sync_to_async(Conversation.objects.get)(token_hash=token_hash(session))
    # the condensation model tries to carry a card number and a code into the core
    fake_llm.script.append(
        JsonReply(
            {
                "request": "check order 4539148803436467",
                "objects": [{"kind": "order", "id": "4539148803436467", "label": "order"}],
                "constraints": [],
                "open_points": [],
                "promises": ["code 638214 confirmed"],
                "corrections": [],
                "settled": [],
            }
        )
    )
    profile = await database_sync_to_async(condense_and_profile)(conv.pk)
    pages = await database_sync_to_async(staff_pages)(client, django_user_model, conv.pk)
    tables, rows = await database_sync_to_async(every_value_in_every_table)()

    assert rows > 20 and "[card number removed]" in tables and "[password removed]" in tables
    assert leaks(tables) == [], "tables"
    assert len(fake_llm.requests) >= len(ALL)
    assert leaks(json.dumps(fake_llm.requests, ensure_ascii=False)) == [], "model requests"
    assert len(all_logs.lines) > 10
    assert leaks("\n".join(all_logs.lines)) == [], "logs"
    assert "[card number removed]" in pages or "[Kartennummer entfernt]" in pages
    assert leaks(pages) == [], "staff pages"
    assert leaks(profile) == [], "profile"
