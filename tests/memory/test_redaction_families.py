"""memory.redaction.families matches a word against every family's pattern in one regex call
and skips a phrase whose words a text lacks (issue 30: a third of a turn's redaction CPU; a
text with umlauts was matched against every phrase until the seventh session). Both must
find exactly what trying every pattern on its own finds."""

import re

from memory.redaction import families
from memory.redaction.families import _PHRASES, _WORD_PATTERNS, TOKEN, mentions

WORDS = """
password passwort passwörter kennwort kennwörter pw pwd pword passphrase passsatz mein-passwort
login log-in anmelden einloggen zugangsdaten credentials sicherheitsfrage pin pins pin-code
pincode geheimzahl karten-pin cvv cvc2 prüfziffer kartenprüfnummer sicherheitscode code codes
rabattcode discount-code sms-code passcode otp 2fa tan mtan sms-tan tan-nummer einmalcode
verifizierungscode bestätigungscode authenticator sms texted digits ziffern 6-stellige card
cards karte kreditkarte kartennummer ec-karte visa mastercard amex hello kurta size shipping
blue codex pinch passage compass tangent cardigan smsx
""".split()

SENTENCES = [
    "My pass word is hunter2",
    "the pass: abc",
    "Please log in with it",
    "my security question answer is Rex",
    "the three digits on the back of the card",
    "it is on the signature strip",
    "hinten auf der Karte steht 123",
    "a one-time code by SMS",
    "Zwei-Faktor ist aktiv",
    "I'll send you my password next",
    "ich schicke dir den ganzen Satz",
    "a whole sentence as the passphrase",
    "Do you ship the kurta to Canada?",
    "Wann kommt mein Paket an?",
]


def _one_by_one(word: str) -> str | None:
    for pattern, family in _WORD_PATTERNS:
        if re.fullmatch(pattern, word):
            return family
    return None


def _every_phrase(text: str) -> list[tuple[str, int, int]]:
    return [
        (family, m.start(), m.end())
        for pattern, family, _ in _PHRASES
        for m in pattern.finditer(text)
    ]


def test_one_alternation_finds_each_words_first_matching_family():
    for word in WORDS:
        hit = families._WORDS.fullmatch(word)
        found = families._WORD_FAMILY[hit.lastgroup] if hit and hit.lastgroup else None
        assert found == _one_by_one(word), word


def test_a_phrase_skipped_for_want_of_its_words_would_not_have_matched():
    for base in SENTENCES:
        variants = (base, base.upper(), base.title(), base.lower())
        for text in (*variants, *(f"{v}, grüße aus Köln" for v in variants)):
            words = {m.group().lower() for m in TOKEN.finditer(text)}
            found = [(m.family, m.start, m.end) for m in mentions(text)]
            phrases = _every_phrase(text)
            assert all(p in found for p in phrases), (text, phrases, found)
            assert words  # every sentence has words to look at


def test_a_phrase_is_matched_in_text_that_is_not_ascii():
    """IGNORECASE folds characters that lower() does not (the long s, the Kelvin sign): a
    text that is not ASCII skips no phrase."""
    text = "My paſs word is hunter2"  # the long s: re.IGNORECASE matches it as "s"
    assert ("password", 3, 12) in [(m.family, m.start, m.end) for m in mentions(text)]


def test_a_german_text_finds_its_phrases():
    text = "Die drei Ziffern stehen auf der Rückseite, HINTEN AUF DER KARTE. Grüße!"
    found = [(m.family, m.start, m.end) for m in mentions(text)]
    assert all(p in found for p in _every_phrase(text))
    assert ("security_code", 24, 41) in found  # "auf der Rückseite"


def test_the_characters_that_fold_apart_are_every_one_there_is():
    """FOLDS_APART: every code point that IGNORECASE matches to a letter of the phrases'
    words while lower() makes it another; a text without them is gated by lower()."""
    letters = sorted({ch for _, _, words in _PHRASES for word in words for ch in word})
    any_letter = re.compile("[" + re.escape("".join(letters)) + "]", re.IGNORECASE)
    apart = {
        chr(cp)
        for cp in range(0x110000)
        if any_letter.fullmatch(chr(cp)) and chr(cp).lower() not in letters
    }
    assert apart == set(families.FOLDS_APART)
