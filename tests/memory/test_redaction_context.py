"""Never-kept values that do not depend on the phrase (issue 25): a credential word anywhere
in the sentence, what the conversation's previous turns leave open (a correction, the rest
of a card number, an announced password), and the second gate where stored text leaves its
turn (export, the case page, e-mail)."""

import pytest

from memory.models import Turn, TurnRole
from memory.redaction import never_kept_found, never_kept_scrub, redact
from memory.services import conversation_start, turn_append, visitor_message_receive

pytestmark = pytest.mark.django_db

SPLIT_CARD = ("4539 1488 0343", "0007 sorry, hit enter too early")  # 4539148803430007


@pytest.mark.parametrize(
    "text, value",
    [
        ("Hamburg2019! - that is my password, it stopped working", "Hamburg2019!"),
        ("Passwort? Ich glaube es war Seemann#77", "Seemann#77"),
        ("I got 274 918 by SMS a minute ago, where do I type it?", "274 918"),
        ("die App zeigt mir gerade den Code XR7-4KP an", "XR7-4KP"),
        ("the PIN printed on the back of my gift card is 8302", "8302"),
        ("Sicherheitscode hinten auf der Karte: 912", "912"),
        ("my card begins 5400 6129 1437, is that the right card?", "5400 6129 1437"),
        ("Login-Daten: Sommer2027 ist das Passwort, E-Mail wie immer", "Sommer2027"),
    ],
)
def test_a_credential_word_anywhere_in_the_sentence_removes_the_value(text, value):
    assert value not in redact(text).text
    assert never_kept_found(text)


@pytest.mark.parametrize(
    "text",
    [
        "My password reset e-mail never came, order 10453 is stuck",
        "the 6-digit postcode 560001 is refused at checkout",
        "Can I use the discount code AUTUMN25 with my order 88213?",
        "error E-403 when I enter the code from the SMS",
        "Kundennummer 4711-0815, ich habe mein Passwort vergessen",
        "I changed my PIN in 2019 and the card still works",
        "Sendungsnummer per SMS: 00340434161234567890",
    ],
)
def test_look_alikes_near_a_credential_word_are_kept(text):
    assert redact(text).removed == {}, redact(text).text


def _say(conv, text: str, n: int):
    result, _conv, _token, _hint = visitor_message_receive(
        site_id=conv.site_id, token=None, client_id=f"m{n}", text=text, conversation_id=conv.pk
    )
    return result.turn


def _texts(conv) -> list[str]:
    return list(
        Turn.objects.filter(conversation=conv, role=TurnRole.VISITOR)
        .order_by("seq")
        .values_list("text", flat=True)
    )


def test_a_corrected_code_is_removed_too(site):
    conv, _ = conversation_start(site_id=site.pk)
    _say(conv, "the code is 481 922", 1)
    _say(conv, "oops typo 481 992", 2)
    assert "481 992" not in _texts(conv)[1] and "481 922" not in _texts(conv)[0]


def test_a_code_after_the_assistant_asked_for_it_is_removed(site):
    conv, _ = conversation_start(site_id=site.pk)
    _say(conv, "I cannot sign in", 1)
    turn_append(conversation_id=conv.pk, role="assistant", text="Did you get a code by SMS?")
    _say(conv, "yes, 6611 29", 2)
    assert "6611 29" not in _texts(conv)[1]


def test_a_card_number_over_two_messages_is_removed_from_both(site):
    conv, _ = conversation_start(site_id=site.pk)
    first = _say(conv, SPLIT_CARD[0], 1)
    assert Turn.objects.get(pk=first.pk).text == SPLIT_CARD[0], "alone it is no card number"
    _say(conv, SPLIT_CARD[1], 2)
    stored = _texts(conv)
    assert "4539" not in stored[0] and "0343" not in stored[0], stored
    assert "0007" not in stored[1], stored
    assert "[card number removed]" in stored[0]


def test_an_announced_password_is_removed_whole(site):
    conv, _ = conversation_start(site_id=site.pk)
    _say(conv, "mein Passwort ist ein ganzer Satz, soll ich den schicken?", 1)
    _say(conv, "Drei Eulen fliegen nachts", 2)
    assert "Eulen" not in _texts(conv)[1]


def test_what_is_left_open_is_words_never_values(site):
    conv, _ = conversation_start(site_id=site.pk)
    _say(conv, "my card: 5400 6129", 1)
    conv.refresh_from_db()
    assert set(conv.redaction_open.split(",")) >= {"card", "card_digits"}
    assert not any(ch.isdigit() for ch in conv.redaction_open)
    _say(conv, "Where is my order 10453?", 2)  # a new subject: nothing is left open
    conv.refresh_from_db()
    assert conv.redaction_open == ""


def test_an_ordinary_message_after_a_code_keeps_its_numbers(site):
    conv, _ = conversation_start(site_id=site.pk)
    _say(conv, "my TAN is 552 903", 1)
    _say(conv, "and please send the invoice for order 10453 to my office", 2)
    assert "10453" in _texts(conv)[1]


def test_the_second_gate_scrubs_what_the_first_let_through(site, admin_client):
    """A turn stored with a card number (a rule that did not know it then) leaves it neither
    in the export, nor on the case page, nor in the transcript e-mail."""
    from handover.selectors import turn_masked
    from memory.export import conversation_export

    conv, _ = conversation_start(site_id=site.pk)
    turn = _say(conv, "hello", 1)
    Turn.objects.filter(pk=turn.pk).update(text="my card is 4539 1488 0343 0007, thanks")
    for masked in (True, False):
        content, _, _ = conversation_export(conversation_id=conv.pk, fmt="json", masked=masked)
        assert "4539" not in content and "[card number removed]" in content
    assert "4539" not in turn_masked(Turn.objects.get(pk=turn.pk))["text"]
    assert never_kept_scrub("PIN 4711 please", language="de") == "PIN [PIN entfernt] please"
