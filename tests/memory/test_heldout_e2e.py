"""The held-out never-kept set (issue 25), end to end: every positive record of its "dev" half
is sent as a conversation (a consented visitor, so the recognition profile folds it), the
model's context is built for its last turn, the conversation is condensed and exported, the
case page rows and the continuation e-mail's reply are rendered, and the log is captured.
Then the whole database, every model request, the exports, the staff rows, the e-mail
text and the log are searched for every value: none that redaction removed is anywhere.

Values the first gate does not remove on that half are listed in KNOWN_MISSES (each a
phrasing the rules do not read yet); a new miss fails, a fixed one must leave the list.
The "test" half is never read while rules change: tests.bench.secrets_heldout reports it.
"""

import logging
import re

import pytest

from tests.bench.secrets_heldout import records
from tests.memory.test_forgetting_e2e import Capture, dump_everything

pytestmark = pytest.mark.django_db(transaction=True)

KNOWN_MISSES = {
    ("en-pp-011", "winter is coming 2024"),  # the passphrase before its word
    ("de-pw-008", "Katze123"),  # "tried X and Y": no credential word at all
    ("de-pw-008", "Katze321"),
    ("de-pp-011", "Mein Fahrrad ist rot!"),  # "als Passwort <sentence>"
    ("de-pin-014", "28 19"),  # "PIN fürs Kundenkonto: 28 19": the label wins
}


def pattern(secret: str) -> re.Pattern[str]:
    """A value as typed, or (digits) with any one separator between its digits; never
    inside a longer number, an id or a time stamp, nor a JSON number ("latency_ms": 791)."""
    if any(ch.isalpha() for ch in secret):
        return re.compile(re.escape(secret))
    digits = [ch for ch in secret if ch.isdigit()]
    body = r"[ \-]?".join(digits)
    # (a profile fact's key is a conversation's id: "key": "215")
    return re.compile(rf'(?<![\w.:+\-])(?<!": )(?<!"key": "){body}(?![\w:]|\.\d)')


@pytest.fixture
def logs():
    capture = Capture()
    root = logging.getLogger()
    saved = root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(capture)
    yield capture
    root.removeHandler(capture)
    root.setLevel(saved)


def _send(site, record) -> int:
    from chatwidget.assistant.context import context_build
    from memory import profiles
    from memory.condense.service import core_condense
    from memory.services import conversation_start, turn_append, visitor_message_receive

    conv, _token = conversation_start(site_id=site.pk, language=record["lang"])
    profiles.consent_grant(site_id=site.pk, conversation_id=conv.pk)
    last = None
    for n, turn in enumerate(record["turns"]):
        if turn["role"] == "visitor":
            result, *_ = visitor_message_receive(
                site_id=site.pk,
                token=None,
                client_id=f"m{n}",
                text=turn["text"],
                language=record["lang"],
                conversation_id=conv.pk,
            )
            last = result.turn.seq
        else:
            turn_append(conversation_id=conv.pk, role="assistant", text=turn["text"])
    built = context_build(conversation_id=conv.pk, request_seq=last)
    turn_append(conversation_id=conv.pk, role="assistant", text="Thank you, noted.")
    core_condense(conversation_id=conv.pk, through_seq=last, fallback=True, inline=True)
    return conv.pk, built.messages


# The records in four parts, each a test of its own, so that xdist runs them side by side
# (the whole half was one test of 50 s on an idle machine, the last to end in a busy run);
# every part is searched for its own records' values and holds its share of KNOWN_MISSES.
PARTS = 4


@pytest.mark.parametrize("part", range(PARTS))
def test_no_removed_value_of_the_dev_half_is_anywhere(site, logs, settings, part):
    from handover.selectors import turn_masked
    from memory.export import conversation_export
    from memory.models import Turn
    from memory.profiles.fold import profile_fold_conversation
    from memory.redaction import never_kept_scrub

    settings.DEMO_MODE = True  # the extractive condenser: no model
    positives = [r for r in records(part="dev") if r["kind"] != "benign"][part::PARTS]
    known = {(rid, secret) for rid, secret in KNOWN_MISSES if rid in {r["id"] for r in positives}}
    outside: list[str] = []
    for record in positives:
        conv_id, messages = _send(site, record)
        profile_fold_conversation(conversation_id=conv_id)
        outside += [m["content"] for m in messages]
        for masked in (True, False):
            outside.append(
                conversation_export(conversation_id=conv_id, fmt="txt", masked=masked)[0]
            )
        for turn in Turn.objects.filter(conversation_id=conv_id):
            outside.append(turn_masked(turn)["text"])
            outside.append(never_kept_scrub(turn.text))  # what the continuation e-mail sends
    dump, columns, _rows = dump_everything()
    # a past case's fact key is its conversation's id, a column of its own: an id, no value
    from memory.models import ProfileFact

    ids = set(
        ProfileFact.objects.filter(field=ProfileFact.Field.PAST_CASE).values_list("key", flat=True)
    )
    columns = "\n".join(line for line in columns.split("\n") if line not in ids)
    # the log as it is written (JSON lines; the raw records' numbers are times and ids)
    written = [line for line in logs.lines if line.startswith("{")]
    everywhere = "\n".join([dump, columns, *outside, *written])

    kept = set()
    for record in positives:
        for secret in record["secrets"]:
            if pattern(secret).search(everywhere):
                kept.add((record["id"], secret))
    leaked = sorted(kept - known)
    where = {
        item: everywhere[max(0, m.start() - 60) : m.end() + 20]
        for item in leaked
        if (m := pattern(item[1]).search(everywhere))
    }
    assert leaked == [], f"found downstream or not removed: {where}"
    fixed = sorted(known - kept)
    assert fixed == [], f"no longer missed: take them off KNOWN_MISSES: {fixed}"
