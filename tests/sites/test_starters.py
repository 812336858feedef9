"""The owner's suggested first questions (issue 33): buttons under the greeting, checked by
the same rule as the model's quick replies, and sent in the widget's config."""

import pytest
from django.core.exceptions import ValidationError

SHOP = "http://shop.test"  # the `site` fixture's origin


@pytest.mark.django_db
def test_suggested_questions_reach_the_widget_config(site, client):
    site.starter_choices = "Where is my order?\n\n  Returns  \nSizes"
    site.full_clean()
    site.save()
    config = client.get(f"/widget/v1/{site.key}/config.json", HTTP_ORIGIN=SHOP).json()
    assert config["starters"] == ["Where is my order?", "Returns", "Sizes"]


@pytest.mark.django_db
def test_no_suggested_questions_by_default(site, client):
    config = client.get(f"/widget/v1/{site.key}/config.json", HTTP_ORIGIN=SHOP).json()
    assert config["starters"] == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    "lines",
    [
        "x" * 41,
        "See https://evil.test",
        "<b>bold</b>",
        "a\nb\nc\nd\ne\nf",
    ],
)
def test_a_line_the_widget_would_not_show_is_refused_in_admin(site, lines):
    site.starter_choices = lines
    with pytest.raises(ValidationError) as error:
        site.full_clean()
    assert "starter_choices" in error.value.message_dict
