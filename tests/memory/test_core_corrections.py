"""A correction changes the value, not the letters (issue 27): `text_replace` replaces whole
values only where they stand as a value, never inside a word or an identifier, and chained
corrections stay readable. Both condensers apply corrections through it."""

import pytest

from memory.core.extractive import core_extract
from memory.core.sources import text_replace


def T(seq, role, text):
    return {"turn": seq, "role": role, "text": text}


@pytest.mark.parametrize(
    ("text", "was", "now", "expected"),
    [
        # a one-letter size: not the M of the identifier, of "my" or of "mum"
        (
            "I would like the kurta KU-2291-M in size M for my mum, please",
            "M",
            "L",
            "I would like the kurta KU-2291-M in size L for my mum, please",
        ),
        ("size S please", "S", "M", "size M please"),
        ("I'm after size M", "M", "L", "I'm after size L"),
        # an identifier that contains the value is never touched
        ("Artikel KU-2291-M in Größe M", "M", "XL", "Artikel KU-2291-M in Größe XL"),
        ("order 10452-M, size M", "M", "S", "order 10452-M, size S"),
        # German words: whole words only, any case for words
        ("Die Hose in Blau, bitte", "blau", "Grün", "Die Hose in Grün, bitte"),
        ("Blaubeere und blau", "blau", "rot", "Blaubeere und rot"),
        # phrases
        (
            "a desk lamp for the small flat",
            "for the small flat",
            "for the office",
            "a desk lamp for the office",
        ),
        # literal: never a regex template
        ("in red", "red", "blue\\1", "in blue\\1"),
    ],
)
def test_a_correction_replaces_the_value_where_it_stands(text, was, now, expected):
    assert text_replace(text, was=was, now=now) == expected


def test_chained_corrections_stay_readable():
    text = "size S please"
    for was, now in (("S", "M"), ("M", "XS"), ("XS", "L")):
        text = text_replace(text, was=was, now=now)
    assert text == "size L please"


def test_the_seed_kurta_example_keeps_its_identifier_and_its_words():
    core = core_extract(
        previous=None,
        turns=[
            T(1, "visitor", "I would like the kurta KU-2291-M in size M for my mum, please."),
            T(2, "assistant", "KU-2291-M in size M is in stock."),
            T(3, "visitor", "Correction: size L, not M."),
        ],
    )
    assert core["request"] == "I would like the kurta KU-2291-M in size L for my mum, please."
    assert [c["value"] for c in core["constraints"] if c["what"] == "size"] == ["L"]
    assert any(c["now"].endswith("L") for c in core["corrections"])


def test_a_model_core_with_the_correction_keeps_identifier_and_words():
    from memory.core.verify import core_verify

    turns = [
        T(1, "visitor", "I would like the kurta KU-2291-M in size M for my mum, please."),
        T(2, "assistant", "KU-2291-M in size M is in stock."),
        T(3, "visitor", "Correction: size L, not M."),
    ]
    proposed = {
        "request": "I would like the kurta KU-2291-M in size M for my mum, please.",
        "objects": [{"kind": "article", "id": "KU-2291-M", "label": "kurta"}],
        "constraints": [{"what": "size", "value": "M"}],
        "corrections": [{"was": "M", "now": "L"}],
        "open_points": [],
        "promises": [],
        "settled": [],
    }
    core, _repairs = core_verify(data=proposed, previous=None, turns=turns, through_seq=3)
    assert core["request"] == "I would like the kurta KU-2291-M in size L for my mum, please."
    assert [c["value"] for c in core["constraints"] if c["what"] == "size"] == ["L"]


# --- the latest request and its deadline (issue 27) -------------------------------------------


def test_a_new_request_with_a_new_identifier_leads_and_its_deadline_is_kept():
    core = core_extract(
        previous=None,
        turns=[
            T(1, "visitor", "Do you have the cotton kurta KU-2291-M in blue?"),
            T(2, "assistant", "Yes, it comes in blue. Would you like size M?"),
            T(3, "visitor", "Also, my order 10452 hasn't arrived, I need it by Friday."),
            T(4, "visitor", "I want to talk to a person"),
        ],
    )
    assert core["request"] == "Also, my order 10452 hasn't arrived, I need it by Friday."
    assert {"what": "deadline", "value": "Friday", "turn": 3} in core["constraints"]
    assert core["open_points"] == ["Also asked: Do you have the cotton kurta KU-2291-M in blue?"]
    assert {o["id"] for o in core["objects"]} == {"KU-2291-M", "10452"}


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("Ich brauche die Bestellung 10453 bis spätestens Freitag.", "Freitag"),
        ("I need it before 12 December please", "12 December"),
        ("Kann das bis zum 24.12. da sein?", "24.12."),
        ("I need it by next Monday", "next Monday"),
    ],
)
def test_deadlines_in_english_and_german(text, when):
    core = core_extract(previous=None, turns=[T(1, "visitor", text)])
    assert {"what": "deadline", "value": when, "turn": 1} in core["constraints"]


@pytest.mark.parametrize(
    "text", ["Can I order before 10 items are sold?", "I bought it by mistake", "bis bald!"]
)
def test_no_deadline_where_none_is_named(text):
    core = core_extract(previous=None, turns=[T(1, "visitor", text)])
    assert not [c for c in core["constraints"] if c["what"] == "deadline"]


def test_a_follow_up_about_the_same_object_keeps_the_request():
    core = core_extract(
        previous=None,
        turns=[
            T(1, "visitor", "Do you have the cotton kurta KU-2291-M in blue?"),
            T(2, "assistant", "Yes."),
            T(3, "visitor", "Is the KU-2291-M machine washable at all?"),
        ],
    )
    assert core["request"] == "Do you have the cotton kurta KU-2291-M in blue?"
    assert core["open_points"] == []
