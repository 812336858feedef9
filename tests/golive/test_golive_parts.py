"""Parts of the go-live check that need no model: the rubric's verdict parsing, the leak
scan over every table, and the clean-up that takes analytics counts back out."""

import pytest

from chatwidget.golive.cleanup import golive_conversations_delete
from chatwidget.golive.observe import leak_scan
from chatwidget.golive.probe import slice_around
from chatwidget.golive.rubric import verdict_parse
from memory.models import Conversation, DailyStat
from memory.services import visitor_message_receive

ANSWER = "You mean LS-1002. It is the navy one."


@pytest.mark.parametrize(
    ("content", "verdict"),
    [
        ('{"verdict": "pass", "evidence": "you mean  LS-1002", "reason": "names it"}', "pass"),
        ('{"verdict": "fail", "evidence": "the navy one", "reason": "x"}', "fail"),
        ('{"verdict": "pass", "evidence": "LS-1003", "reason": "x"}', "invalid"),
        ('{"verdict": "maybe", "evidence": "LS-1002", "reason": "x"}', "invalid"),
        ('{"verdict": "pass", "reason": "x"}', "invalid"),
        ("pass", "invalid"),
    ],
)
def test_a_verdict_counts_only_with_a_quote_from_the_answer(content, verdict):
    assert verdict_parse(content=content, answer=ANSWER, criterion="c").verdict == verdict


def test_the_evidence_slice_is_around_the_needle():
    text = "a" * 1000 + "LS-1002 navy" + "b" * 1000
    part = slice_around(text, ["LS-1002"], width=100)
    assert "LS-1002 navy" in part and part.startswith("…") and part.endswith("…")
    assert slice_around("short", ["x"]) == "short"


@pytest.mark.django_db
def test_the_leak_scan_finds_a_value_in_any_table(site):
    assert leak_scan(values=["Blue-Kettle-739"]) == []
    site.system_rules = "Never say Blue-Kettle-739."
    site.save()
    assert leak_scan(values=["Blue-Kettle-739"]) == ["sites.Site.system_rules (1)"]


@pytest.mark.django_db(transaction=True)
def test_clean_up_takes_the_counts_back_out_of_analytics(site):
    real = visitor_message_receive(site_id=site.pk, token=None, client_id="r", text="Hello")[1]
    before = DailyStat.objects.values("conversations", "visitor_turns", "redactions").get()
    check = visitor_message_receive(
        site_id=site.pk, token=None, client_id="c", text="My card number is 4111 1111 1111 1111."
    )[1]
    after = DailyStat.objects.values("conversations", "visitor_turns", "redactions").get()
    assert after != before, "the check's conversation was counted"

    assert golive_conversations_delete(conversation_ids=[check.pk]) == 1
    assert DailyStat.objects.values("conversations", "visitor_turns", "redactions").get() == before
    assert list(Conversation.objects.values_list("pk", flat=True)) == [real.pk]
    assert golive_conversations_delete(conversation_ids=[check.pk]) == 0, "safe twice"
