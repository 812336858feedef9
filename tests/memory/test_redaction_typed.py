"""Never-kept values as people really type them (issue 13), and the map back to the original.

Pure tests (no database) except the last ones, which go through memory.services.turn_append
to show that a bare code sent right after a message about a code is never stored.
"""

from __future__ import annotations

import pytest

from memory.redaction import PLACEHOLDERS, mask, never_kept_found, previous_turn_needed, redact
from memory.redaction.normalise import _walked, normalise

CARD = "4111111111111111"


def _grouped(sep: str) -> str:
    return sep.join(CARD[i : i + 4] for i in range(0, 16, 4))


@pytest.mark.parametrize(
    "sep", [" ", ".", "/", "-", "_", "\u00a0", "\u202f", "\u200b", "\u2013", "  ", " - "]
)
@pytest.mark.parametrize("before", ["", "order ", "Bestellung ", "Nr. ", "ref: "])
def test_card_found_whatever_separator_and_word_before(sep: str, before: str) -> None:
    typed = _grouped(sep)
    result = redact(f"{before}{typed} thanks")
    assert result.text == f"{before}{PLACEHOLDERS['card']} thanks"
    assert result.removed == {"card": 1}


@pytest.mark.parametrize(
    "typed",
    [
        "".join(chr(0xFF10 + int(d)) for d in CARD),  # full-width
        "".join(chr(0x0660 + int(d)) for d in CARD),  # Arabic-Indic
        " ".join(CARD),  # digit by digit
        " ".join(["four"] + ["one"] * 15),
        ", ".join(["vier"] + ["eins"] * 15),
        "-".join(["four"] + ["one"] * 15),
    ],
)
def test_card_in_other_spellings_is_replaced_as_typed(typed: str) -> None:
    result = redact(f"Karte: {typed}, danke")
    assert result.text == f"Karte: {PLACEHOLDERS['card']}, danke"


def test_only_the_value_is_replaced_and_the_rest_is_kept_verbatim() -> None:
    text = "Grüße\u200b! ４１１１ １１１１ １１１１ １１１１ und ＣＶＶ １２３ – danke"
    result = redact(text)
    assert result.text == (
        "Grüße\u200b! [card number removed] und ＣＶＶ [security code removed] – danke"
    )


def test_normalise_maps_every_character_back() -> None:
    norm = normalise("a\u200bb ４２ four one one one")
    assert norm.text == "ab 42 4 1 1 1"
    start = norm.text.index("4 1")
    assert norm.original(start, len(norm.text)) == (7, 23)
    assert normalise("plain ascii 123").starts is None  # the hot path allocates nothing


def test_not_cards() -> None:
    for text in [
        "4111 1111 1111 1112",  # Luhn fails, nobody called it a card
        "Sendung 0034 0434 1612 3456 7890",
        "Bestellung 302-1234567-1234567",
        "EAN 4006381333931",
        "4006381333931",
        "Tel +49 151 12345678",
        "IBAN DE89 3704 0044 0532 0130 00",
    ]:
        assert redact(text).removed == {}, text


def test_expiry_date_goes_with_the_card_but_not_alone() -> None:
    assert redact("4111 1111 1111 1111 exp 09/28").text == (
        "[card number removed] exp [expiry date removed]"
    )
    assert redact("Lieferung am 09/28 bitte").removed == {}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("the three digits on the back are 123", "security_code"),
        ("Prüfziffer 987", "security_code"),
        ("3-digit code: 655", "security_code"),
        ("my password is now Hunter22", "password"),
        ("I changed my password to Blue!Sky7", "password"),
        ("the password is still X-Wing9", "password"),
        ("Zugangsdaten: maxmuster / Geheim123", "password"),
        ("Benutzer jana88 Passwort River!Sky9", "password"),
        ("Das Passwort für mein Konto ist Winter&3", "password"),
        ("the code is 482913", "otp"),
        ("Der Code lautet 482913", "otp"),
        ("Your code: 482 913", "otp"),
        ("one-time code 4 8 2 9 1 3", "otp"),
        ("authenticator says 848178", "otp"),
        ("PIN sieben-drei-neun-null", "pin"),
    ],
)
def test_credentials_by_meaning(text: str, kind: str) -> None:
    result = redact(text)
    assert result.removed == {kind: 1}, result.text
    assert never_kept_found(text)


@pytest.mark.parametrize(
    "text",
    [
        "my password is working again",
        "I want to change my password to something safer",
        "Your password reset link: https://shop.example/reset",
        "I bought a season pass: 2 adults",
        "error code 4031 at checkout",
        "discount code 2024 does not work",
        "Gutscheincode 1234 5678 9012 3456",
        "I have three, four, five items",
    ],
)
def test_benign_phrasings_stay(text: str) -> None:
    assert redact(text).text == text
    assert not never_kept_found(text)


@pytest.mark.parametrize(
    ("previous", "reply", "kind"),
    [
        ("Please enter the code we sent you by SMS.", "482913", "otp"),
        ("Welche TAN haben Sie bekommen?", "482 913", "otp"),
        ("Wie lautet die PIN?", "4711", "pin"),
        ("TAN [one-time code removed]", "it's 583920", "otp"),
    ],
)
def test_bare_reply_after_a_message_about_a_code(previous: str, reply: str, kind: str) -> None:
    assert previous_turn_needed(reply)
    assert redact(reply, previous=previous).removed == {kind: 1}
    assert redact(reply).removed == {}  # alone, a number is just a number


@pytest.mark.parametrize(
    "previous", ["What is your postcode?", "Which order number?", "Your discount code?"]
)
def test_bare_reply_after_other_questions_stays(previous: str) -> None:
    assert redact("10115", previous=previous).removed == {}


@pytest.mark.parametrize(
    ("text", "kind", "masked"),
    [
        ("IBAN DE89-3704-0044-0532-0130-00", "iban", "IBAN DE•• •••• 3000"),
        ("Mail max\uff20example.com", "email", "Mail m•••@e•••.com"),
        ("Meine Nummer: 0151\u00a02345\u00a06789", "phone", "Meine Nummer: •••• ••89"),
        ("mobil 0176\u201312345678", "phone", "mobil •••• ••78"),
        ("Unter den Linden 77, 10117 Berlin", "address", "[address]"),
        ("Lieferung an Am Markt 3, 12345 Hinterdorf", "address", "Lieferung an [address]"),
    ],
)
def test_masking_for_staff(text: str, kind: str, masked: str) -> None:
    result = redact(text)
    assert [s.kind for s in result.spans] == [kind]
    assert mask(result.text, result.spans) == masked


@pytest.mark.django_db
def test_bare_code_after_the_bots_question_is_never_stored(site) -> None:
    from memory.models import Turn
    from memory.services import conversation_start, turn_append

    conv, _ = conversation_start(site_id=site.pk)
    turn_append(conversation_id=conv.pk, role="visitor", text="I got a code by SMS, what now?")
    appended = turn_append(conversation_id=conv.pk, role="visitor", text="4 8 2 9 1 3")
    assert appended.removed == {"otp": 1}
    stored = list(Turn.objects.filter(conversation=conv).values_list("text", flat=True))
    assert stored[-1] == PLACEHOLDERS["otp"]
    assert not any("4 8 2" in text for text in stored)


@pytest.mark.django_db
def test_bare_number_after_an_order_question_is_kept(site) -> None:
    from memory.services import conversation_start, turn_append

    conv, _ = conversation_start(site_id=site.pk)
    turn_append(conversation_id=conv.pk, role="assistant", text="Which order number?")
    appended = turn_append(conversation_id=conv.pk, role="visitor", text="100234")
    assert appended.turn.text == "100234"


@pytest.mark.django_db
@pytest.mark.parametrize("by", ["token", "socket"])
def test_bare_code_is_never_stored_however_the_conversation_is_found(site, by) -> None:
    """The visitor's message finds its conversation by the session token (no socket yet) or
    by the socket's conversation id: either way the previous turn is read for redaction."""
    from memory.models import Turn
    from memory.services import turn_append, visitor_message_receive

    _, conv, token, _ = visitor_message_receive(
        site_id=site.pk, token=None, client_id="a", text="Hello"
    )
    turn_append(conversation_id=conv.pk, role="assistant", text="Please tell me the SMS code.")
    result, _, _, _ = visitor_message_receive(
        site_id=site.pk,
        token=token if by == "token" else None,
        conversation_id=conv.pk if by == "socket" else None,
        client_id="b",
        text="4 8 2 9 1 3",
    )
    assert result.removed == {"otp": 1}
    assert not Turn.objects.filter(text__contains="4 8 2").exists()


def test_a_text_that_needs_no_walk_is_what_the_walk_gives() -> None:
    """normalise() skips the character walk for a text whose characters all stay and that
    reads no digits out (issue 30: most of a German message's redaction CPU); the result
    must be the walk's, text and map."""
    texts = [
        "Größe 38 in Grün, bitte nach Österreich",
        "Ça coûte combien, la livraison à Genève ?",
        "Bestellung 1, 2, 3 – ist die Rückseite grün?",
        "mein Code ist vier eins eins eins, grüße",
        "Größe ４２ bitte",
        "Größe\u00a042\u200b bitte",
        "ﬁnal ﬂat Straße",
        "Preis: 49,95 € für 2 Stück",
        "ИНН 7707083893",
    ]
    for text in texts:
        assert normalise(text) == _walked(text, plain=text.isascii()), text
