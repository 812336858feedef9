"""Deterministic identifier extraction (memory/extract.py): what must survive condensation."""

import pytest

from memory.extract import identifiers_extract, normalise, numberish_tokens, occurs


def kinds(text):
    return [(f.kind, f.value) for f in identifiers_extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The cotton kurta KU-2291-M, please", [("article", "KU-2291-M")]),
        ("Art.-Nr. 4711 is out of stock", [("article", "4711")]),
        ("Return label for order 55-1031 sent", [("order", "55-1031")]),
        ("My order #100234567 has not arrived", [("order", "100234567")]),
        ("Bestellnummer 12345 fehlt", [("order", "12345")]),
        ("Kundennummer K-77812", [("customer", "K-77812")]),
        ("customer no. 998877", [("customer", "998877")]),
        ("contract number V2024/99", [("contract", "V2024/99")]),
        ("Vertragsnummer 55/778-A", [("contract", "55/778-A")]),
        ("delivery by 05.10.2026", [("date", "05.10.2026")]),
        ("on 2026-10-05 please", [("date", "2026-10-05")]),
        ("before 5 October", [("date", "5 October")]),
        ("am 5. Oktober", [("date", "5. Oktober")]),
        ("by October 5th, 2026", [("date", "October 5th, 2026")]),
        ("3 Stück bitte", [("quantity", "3 Stück")]),
        ("I need 2 pcs", [("quantity", "2 pcs")]),
        ("in size L", [("size", "L")]),
        ("Größe 42", [("size", "42")]),
        ("shoes EU 44", [("size", "EU 44")]),
        ("jeans 38/40", [("size", "38/40")]),
        ("do you have it in XL", [("size", "XL")]),
        ("in mint green", [("colour", "mint green")]),
    ],
)
def test_identifiers_and_values_are_found(text, expected):
    assert kinds(text) == expected


def test_several_in_order_of_appearance():
    found = kinds("Cotton kurta KU-2291-M in size L, mint, 2 pcs by 05.10.2026; order 55-1031.")
    assert found == [
        ("article", "KU-2291-M"),
        ("size", "L"),
        ("colour", "mint"),
        ("quantity", "2 pcs"),
        ("date", "05.10.2026"),
        ("order", "55-1031"),
    ]


def test_plain_prose_has_no_identifiers():
    assert kinds("I am in Berlin and I would like a nice shirt for a wedding") == []


def test_numberish_tokens_skip_turn_references():
    assert numberish_tokens("label for order 55-1031 sent (turn 5), 3 pcs, KU-2291-M.") == [
        "55-1031",
        "3",
        "KU-2291-M",
    ]


def test_occurs_is_whole_token():
    hay = normalise("Cotton kurta KU-2291-M, order 55-1031, 12 pcs")
    assert occurs("KU-2291-M", hay) and occurs("ku-2291-m", hay) and occurs("55-1031", hay)
    assert not occurs("2291", hay), "part of an identifier is not the identifier"
    assert not occurs("1", hay) and not occurs("55-10", hay)
    assert occurs("#55-1031", hay)


# --- the narrowed patterns (issue 30) find what the whole alternations find -----------------


def _corpus() -> list[str]:
    """Every text of the held-out sets (shop pages, conversations, never-kept values and their
    look-alikes), written apart from this module, plus the folds IGNORECASE makes."""
    import json
    from pathlib import Path

    heldout = Path(__file__).resolve().parents[1] / "bench" / "heldout"
    texts = []
    for path in heldout.rglob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            texts += [v for v in _strings(json.loads(line)) if len(v) > 2]
    return texts + [
        "ſilber and SİLBER and sılber",  # long s, dotted and dotless i: IGNORECASE's "i", "s"
        "WEISS, weiß, WEIẞ; Navy-Blue; MINT GREEN",
        "1. MÄRZ, 2 maerz, Jänner 3rd, DEC 24, 7 of jUNE 2026",
        "marmalade decade mayday 12 septic",  # month words inside others: no date
    ]


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_the_narrowed_patterns_find_what_the_whole_alternations_find(monkeypatch):
    import memory.extract as extract

    texts = _corpus()
    assert len(texts) > 2000  # the held-out sets are there
    narrowed = [identifiers_extract(t) for t in texts]
    # the reference: every digit pattern on every text, the whole month and colour lists
    monkeypatch.setattr(extract, "_DIGIT", type("Always", (), {"search": lambda self, t: 1})())
    monkeypatch.setattr(extract, "_held", lambda words, folded: tuple(w for w, _ in words))
    whole = [identifiers_extract(t) for t in texts]
    assert narrowed == whole
    assert sum(map(len, whole)) > 1000  # the corpus exercises the patterns


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in ſilber", [("colour", "ſilber")]),  # IGNORECASE's long s
        ("in sılber", [("colour", "sılber")]),  # and dotless i
        ("in SİLBER", [("colour", "SİLBER".lower())]),  # and dotted capital I
        ("in WEIẞ", [("colour", "weiß")]),
        ("am 1. MÄRZ", [("date", "1. MÄRZ")]),
        ("marmalade decade 12 mayday", []),
    ],
)
def test_folded_words_are_found_and_words_inside_words_are_not(text, expected):
    assert kinds(text) == expected


def test_every_character_ignorecase_takes_for_a_words_own_folds_to_it():
    """The narrowing's substring test is a superset of IGNORECASE's matches: every character
    of Unicode that IGNORECASE matches to a character of a month or colour word folds to
    that character's own fold (the fold is per character, so a match's span folds to the
    word's)."""
    import re

    import memory.extract as extract

    every = "".join(chr(i) for i in range(0x110000) if not 0xD800 <= i <= 0xDFFF)
    chars = set("".join(extract._MONTH_WORDS + extract._COLOUR_WORDS))
    differing = [
        (own, m.group())
        for own in chars
        for m in re.finditer(re.escape(own), every, re.IGNORECASE)
        if extract._folded(m.group()) != extract._folded(own)
    ]
    assert differing == []
