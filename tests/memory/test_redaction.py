"""Table-driven tests for memory.redaction (no Django, no database).

Run alone with:  .venv/bin/python -m pytest tests/memory/test_redaction.py -q -p no:django

The rows are in tests/memory/redaction_table.py (CASES).
``test_zz_precision_recall_report`` prints precision and recall per kind over the whole
table and writes the same report to test-artifacts/redaction_report.txt.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from memory import redaction
from memory.redaction import (
    HINTS,
    MARKED_KINDS,
    PLACEHOLDERS,
    PLACEHOLDERS_DE,
    REMOVED_KINDS,
    RedactionResult,
    Span,
    mask,
    placeholders_localise,
    redact,
)
from tests.memory.redaction_table import (
    ADDR,
    CARD,
    CASES,
    EMAIL,
    EXP,
    HEALTH,
    IBAN,
    PHONE,
    PIN,
    PW,
    Case,
)

ALL_KINDS = (*REMOVED_KINDS, *MARKED_KINDS)

REPO_ROOT = Path(__file__).resolve().parents[2]
REPORT_PATH = REPO_ROOT / "test-artifacts" / "redaction_report.txt"


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Overrides the autouse cache reset of tests/conftest.py for this module.

    Redaction is pure Python: these tests touch neither Django nor a cache, so they run
    without Django settings (``-p no:django``).
    """


def _occurrences(text: str, value: str) -> list[int]:
    found, at = [], text.find(value)
    while at >= 0:
        found.append(at)
        at = text.find(value, at + 1)
    return found


def _case_id(index: int, row: Case) -> str:
    return f"{index:03d}-{row.text[:40]}"


def _params() -> list:
    params = []
    for index, row in enumerate(CASES):
        marks = [pytest.mark.xfail(strict=True, reason=row.known_miss)] if row.known_miss else []
        params.append(pytest.param(row, id=_case_id(index, row), marks=marks))
    return params


def test_table_is_large_and_covers_every_kind() -> None:
    assert len(CASES) >= 150
    assert len({row.text for row in CASES}) == len(CASES), "duplicate rows"
    positives = Counter(kind for row in CASES for kind in row.kinds)
    for kind in ALL_KINDS:
        assert positives[kind] >= 5, kind
    assert sum(1 for row in CASES if not row.kinds) >= 40  # false-positive probes


@pytest.mark.parametrize("row", _params())
def test_redaction_table(row: Case) -> None:
    result = redact(row.text)

    assert set(result.findings) == row.kinds
    for value in row.absent:
        assert value not in result.text
    for kind in row.kinds & set(REMOVED_KINDS):
        assert PLACEHOLDERS[kind] in result.text
    if not row.kinds & set(REMOVED_KINDS):
        assert result.text == row.text  # kept-but-marked text is unchanged


# --- invariants over the whole table --------------------------------------------------


@pytest.mark.parametrize("row", [pytest.param(r, id=_case_id(i, r)) for i, r in enumerate(CASES)])
def test_result_invariants(row: Case) -> None:
    result = redact(row.text)

    previous_end = 0
    for span in result.spans:
        assert span.kind in MARKED_KINDS
        assert 0 <= previous_end <= span.start < span.end <= len(result.text)
        previous_end = span.end
        # a span never touches a placeholder
        for placeholder in PLACEHOLDERS.values():
            assert placeholder not in result.text[max(0, span.start - 40) : span.end + 40] or all(
                not (span.start < at + len(placeholder) and at < span.end)
                for at in _occurrences(result.text, placeholder)
            )
    assert set(result.removed) <= set(REMOVED_KINDS)
    for kind, count in result.removed.items():
        assert count > 0
        assert result.text.count(PLACEHOLDERS[kind]) == count
    expected = Counter(result.removed) + Counter(span.kind for span in result.spans)
    assert result.findings == dict(expected)
    # findings hold kinds and counts, never values
    assert all(isinstance(k, str) and isinstance(v, int) for k, v in result.findings.items())
    assert result.health == (HEALTH in result.findings)
    assert result.spans_json() == [[s.kind, s.start, s.end] for s in result.spans]


@pytest.mark.parametrize("row", [pytest.param(r, id=_case_id(i, r)) for i, r in enumerate(CASES)])
def test_redaction_is_idempotent(row: Case) -> None:
    once = redact(row.text)
    twice = redact(once.text)
    assert twice.text == once.text
    assert twice.removed == {}
    assert twice.spans == once.spans


def test_patterns_are_gated_consistently() -> None:
    # The cheap pre-checks may never hide a match of the pattern they guard.
    for row in CASES:
        lower = row.text.lower()
        for pattern, gate in redaction.GATES.items():
            if pattern.search(row.text):
                if isinstance(gate, tuple):
                    assert any(keyword in lower for keyword in gate), (
                        pattern.pattern[:40],
                        row.text,
                    )
                else:
                    assert gate.search(row.text), (pattern.pattern[:40], row.text)


# --- spans point at the right values --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("IBAN: de89 3704 0044 0532 0130 00 bitte", IBAN, "de89 3704 0044 0532 0130 00"),
        ("Tel. +49 30 1234567, danke", PHONE, "+49 30 1234567"),
        ("call me at (212) 555-0199 tomorrow", PHONE, "(212) 555-0199"),
        ("Mail an max@example.com.", EMAIL, "max@example.com"),
        ("Bitte an Hauptstraße 5, 10115 Berlin.", ADDR, "Hauptstraße 5, 10115 Berlin"),
        ("Ich bin schwanger.", HEALTH, "schwanger"),
    ],
)
def test_span_covers_the_value(text: str, kind: str, value: str) -> None:
    result = redact(text)
    assert [(s.kind, result.text[s.start : s.end]) for s in result.spans] == [(kind, value)]


def test_spans_are_offsets_into_the_redacted_text() -> None:
    result = redact("PIN 1234, Mail max@example.com, Tel +49 30 1234567")
    assert result.removed == {PIN: 1}
    assert [result.text[s.start : s.end] for s in result.spans] == [
        "max@example.com",
        "+49 30 1234567",
    ]


def test_overlap_iban_is_not_also_a_phone_or_card() -> None:
    result = redact("IBAN DE89 3704 0044 0532 0130 00")
    assert result.findings == {IBAN: 1}


def test_card_is_removed_before_anything_else_sees_it() -> None:
    result = redact("Tel 4111 1111 1111 1111")
    assert result.findings == {CARD: 1}
    assert result.text == "Tel [card number removed]"


def test_counts_in_findings() -> None:
    result = redact("PIN 1234 und PIN 5678, max@example.com und eva@example.com")
    assert result.removed == {PIN: 2}
    assert result.findings == {PIN: 2, EMAIL: 2}


def test_result_is_frozen() -> None:
    result = redact("hello")
    assert isinstance(result, RedactionResult)
    with pytest.raises(AttributeError):
        result.text = "changed"  # type: ignore[misc]


# --- placeholders and hints -----------------------------------------------------------


def test_placeholders_and_hints_cover_every_removed_kind() -> None:
    assert set(PLACEHOLDERS) == set(REMOVED_KINDS)
    assert set(PLACEHOLDERS_DE) == set(REMOVED_KINDS)
    # an expiry date is only removed next to a card number, whose hint covers it
    assert set(HINTS) == set(REMOVED_KINDS) - {EXP}
    assert PLACEHOLDERS[CARD] == "[card number removed]"
    assert PLACEHOLDERS[PIN] == "[PIN removed]"
    assert "forgot password" in HINTS[PW].lower()
    assert "checkout" in HINTS[CARD].lower()


def test_placeholders_localise() -> None:
    result = redact("mein Passwort ist Sommer2024! und TAN 583920")
    german = placeholders_localise(result.text, language="de-DE")
    assert german == "mein Passwort ist [Passwort entfernt] und TAN [Einmalcode entfernt]"
    assert placeholders_localise(result.text, language="en") == result.text


# --- mask() ---------------------------------------------------------------------------


def test_mask_each_kind() -> None:
    text = "max@example.com +49 30 1234567 de89 3704 0044 0532 0130 00 Hauptstraße 5 schwanger"
    result = redact(text)
    assert [s.kind for s in result.spans] == [EMAIL, PHONE, IBAN, ADDR, HEALTH]
    assert mask(result.text, result.spans) == (
        "m•••@e•••.com •••• ••67 DE•• •••• 3000 [address] [health detail]"
    )


def test_mask_accepts_json_lists_and_span_objects() -> None:
    result = redact("Schreib an jan@example.de oder ruf an: 030 1234567")
    from_json = json.loads(json.dumps(result.spans_json()))
    assert mask(result.text, from_json) == mask(result.text, result.spans)
    assert mask(result.text, from_json) == "Schreib an j•••@e•••.de oder ruf an: •••• ••67"
    assert mask("Mail a@b.de", [Span(kind=EMAIL, start=5, end=11)]) == "Mail a•••@b•••.de"


def test_mask_without_spans_is_identity() -> None:
    assert mask("nothing here", []) == "nothing here"


def test_mask_rejects_bad_spans() -> None:
    with pytest.raises(ValueError):
        mask("short", [[PHONE, 2, 50]])
    with pytest.raises(ValueError):
        mask("0123456789", [[PHONE, 0, 6], [EMAIL, 5, 9]])


@pytest.mark.parametrize("row", [pytest.param(r, id=_case_id(i, r)) for i, r in enumerate(CASES)])
def test_mask_hides_every_marked_value(row: Case) -> None:
    result = redact(row.text)
    masked = mask(result.text, result.spans_json())
    for span in result.spans:
        value = result.text[span.start : span.end]
        if len(value) >= 5:
            assert value not in masked


# --- report ---------------------------------------------------------------------------


def _score() -> dict[str, dict[str, float]]:
    counts = {kind: Counter() for kind in ALL_KINDS}
    for row in CASES:
        found = set(redact(row.text).findings)
        for kind in ALL_KINDS:
            if kind in found and kind in row.kinds:
                counts[kind]["tp"] += 1
            elif kind in found:
                counts[kind]["fp"] += 1
            elif kind in row.kinds:
                counts[kind]["fn"] += 1
    scores = {}
    for kind, c in counts.items():
        tp, fp, fn = c["tp"], c["fp"], c["fn"]
        scores[kind] = {
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "precision": tp / (tp + fp) if tp + fp else 1.0,
            "recall": tp / (tp + fn) if tp + fn else 1.0,
        }
    return scores


def test_zz_precision_recall_report() -> None:
    scores = _score()
    lines = [
        f"redaction: precision/recall per kind over {len(CASES)} table rows (per message)",
        f"{'kind':<15}{'TP':>5}{'FP':>5}{'FN':>5}{'precision':>11}{'recall':>8}",
    ]
    for kind, s in scores.items():
        lines.append(
            f"{kind:<15}{s['tp']:>5}{s['fp']:>5}{s['fn']:>5}"
            f"{s['precision']:>11.3f}{s['recall']:>8.3f}"
        )
    report = "\n".join(lines) + "\n"
    REPORT_PATH.parent.mkdir(parents=True, exist_ok=True)
    REPORT_PATH.write_text(report, encoding="utf-8")
    print("\n" + report)

    for kind, s in scores.items():
        assert s["precision"] >= 0.95, (kind, s)
        assert s["recall"] >= 0.95, (kind, s)
