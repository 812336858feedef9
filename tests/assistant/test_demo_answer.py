"""Demo mode's answer (chatwidget.assistant.demo): the answer first, the accounting in one
closing line, the excerpt's relevant paragraphs, the handover when asked in words."""

import pytest

from chatwidget.assistant.demo import DemoFound, demo_answer, excerpt_quote, person_asked


@pytest.mark.parametrize(
    "text",
    [
        "I'd like to talk to a real person",
        "can I speak with a human?",
        "Kann ich mit einem Menschen sprechen?",
        "Ich möchte mit einem Mitarbeiter reden",
    ],
)
def test_a_person_asked_for_in_words(text):
    assert person_asked(text)


@pytest.mark.parametrize(
    "text", ["Is this personal data safe?", "What about size L?", "Wo ist meine Bestellung?"]
)
def test_not_every_message_is_a_request_for_a_person(text):
    assert not person_asked(text)


def test_a_long_excerpt_is_cut_to_the_paragraphs_the_message_asks_about():
    text = "\n\n".join(
        [
            "Returns within 30 days. " * 8,
            "Refunds are paid to the original payment method within 5 days. " * 3,
            "Exchanges of sizes are free of charge. " * 6,
        ]
    )
    quote = excerpt_quote(text, message="when are refunds paid?", limit=300)
    assert quote.startswith("Refunds are paid") and "Returns within" not in quote


def test_the_answer_leads_and_one_line_closes():
    found = DemoFound(
        title="Returns and refunds",
        url="https://shop.example/returns",
        text="# Returns and refunds\n\nYou can return items within 30 days.",
        searched=True,
        active=["KU-2291-M"],
    )
    text = demo_answer(
        message="can I send it back?", found=found, handover=False, total=900, budget=8000
    )
    first, quote, closing = text.split("\n\n")
    assert first == "From [Returns and refunds](https://shop.example/returns):"
    assert quote == "You can return items within 30 days.", "the title heading is not repeated"
    assert closing.startswith("*Demo mode") and "Remembered: KU-2291-M" in closing
    assert "900 of 8000 tokens" in closing


def test_german_answer_and_nothing_found():
    text = demo_answer(
        message="Gibt es Gutscheine?",
        found=DemoFound(searched=True),
        handover=False,
        total=10,
        budget=8000,
        language="de",
    )
    assert text.startswith("Dazu habe ich in den Seiten des Shops nichts gefunden.")
    assert "Demo-Modus" in text.rsplit("\n\n", 1)[1]


def test_a_lookups_answer_stands_alone():
    found = DemoFound(
        lookup=["The shop's system answered the lookup order_status:", "- status: shipped"],
        title="Shipping",
        url="https://shop.example/shipping",
        text="We ship to Austria.",
        searched=True,
    )
    text = demo_answer(
        message="Where is my order 10452?", found=found, handover=False, total=9, budget=8000
    )
    assert "status: shipped" in text and "We ship to Austria" not in text
