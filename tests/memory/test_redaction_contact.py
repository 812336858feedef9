"""Contact details staff see masked however they are typed (issue 25): spelled-out and
domain-less e-mail addresses, mobile numbers without their "0" or "+", numbers libphonenumber
calls unassigned but that are written as nothing else; and the look-alikes that stay."""

import pytest

from memory.redaction import redact
from memory.redaction.masking import mask


def staff_view(text: str) -> str:
    result = redact(text)
    return mask(result.text, result.spans)


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("Write to max (at) example (dot) com", "max (at) example (dot) com", "email"),
        ("max[at]example.com please", "max[at]example.com", "email"),
        ("mail: max at example dot com", "max at example dot com", "email"),
        ("Schreib an max (ät) beispiel (punkt) de", "max (ät) beispiel (punkt) de", "email"),
        ("my mail is max@example", "max@example", "email"),
        ("171 2345678", "171 2345678", "phone"),
        ("Tel 1712345678", "1712345678", "phone"),
        ("4917123456789", "4917123456789", "phone"),
        ("call (555) 555-0199", "(555) 555-0199", "phone"),
        ("+1 555 555 0199", "+1 555 555 0199", "phone"),
    ],
)
def test_the_value_is_marked_and_masked_for_staff(text, value, kind):
    result = redact(text)
    assert [(s.kind, result.text[s.start : s.end]) for s in result.spans] == [(kind, value)]
    view = staff_view(text)
    assert value not in view
    assert "2345678" not in view and "example" not in view and "555-0199" not in view


def test_masked_forms_keep_only_a_hint():
    assert staff_view("my mail is max@example") == "my mail is m•••@e•••"
    assert staff_view("max (at) example (dot) com") == "•••"
    assert staff_view("171 2345678") == "•••• ••78"


@pytest.mark.parametrize(
    "text",
    [
        "Order 171 2345678 has not arrived",
        "Bestellung 4917123456789 ist da",
        "EAN 4006381333931",
        "4006381333931",
        "article 1712345678",
        "price 3@5 EUR",
        "we meet at noon, the dot on the i",
        "look at it dot by dot",
        "follow @shop on social media",
        "Kundennummer 1712345678",
    ],
)
def test_look_alikes_stay_unmarked(text):
    assert redact(text).spans == ()
