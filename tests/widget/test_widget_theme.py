"""The server side of the widget's theme, cookies and privacy page (issue 16)."""

import re

import pytest
from django.core.exceptions import ValidationError

from chatwidget.sites.theme import contrast_ratio, validate_primary_colour
from chatwidget.widget.config import site_cookie_name

SHOP = "http://shop.test"  # the `site` fixture's origin


def test_contrast_ratio_follows_wcag():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert contrast_ratio("#1f4fd1", "#ffffff") == pytest.approx(6.78, abs=0.01)
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("colour", ["#777777", "#ffcc00", "#1f4fd", "blue", ""])
def test_a_colour_white_text_cannot_be_read_on_is_refused(colour):
    with pytest.raises(ValidationError):
        validate_primary_colour(colour)


@pytest.mark.django_db
def test_site_with_a_pale_colour_does_not_validate(site):
    site.theme_primary = "#88aaff"
    with pytest.raises(ValidationError) as error:
        site.full_clean()
    assert "theme_primary" in error.value.message_dict
    site.theme_primary = "#8a1538"
    site.full_clean()


def test_cookie_names_differ_per_site_and_stay_cookie_safe():
    first = site_cookie_name(base="cw_session", site_key="abc-DEF_123")
    second = site_cookie_name(base="cw_session", site_key="other-key")
    assert first != second
    assert re.fullmatch(r"cw_session_[0-9a-f]{8}", first)
    assert first == site_cookie_name(base="cw_session", site_key="abc-DEF_123"), "stable"


@pytest.mark.django_db
def test_config_sends_theme_and_per_site_cookie_names(client, site):
    site.theme_primary, site.theme_position, site.launcher_label = "#8a1538", "left", "Hilfe?"
    site.save()
    data = client.get(f"/widget/v1/{site.key}/config.json", HTTP_ORIGIN=SHOP).json()
    assert data["theme"] == {
        "primary": "#8a1538",
        "position": "left",
        "scheme": "auto",
        "launcher_label": "Hilfe?",
    }
    assert data["session_cookie"]["name"] == site_cookie_name(base="cw_session", site_key=site.key)
    assert data["recognition_cookie"]["name"].startswith("cw_recognition_")
    assert data["strings"]["new_conversation"] == "Start a new conversation"


@pytest.mark.django_db
def test_config_from_an_origin_that_is_not_allowed_is_a_readable_403(client, site):
    response = client.get(
        f"/widget/v1/{site.key}/config.json", HTTP_ORIGIN="https://elsewhere.example"
    )
    assert response.status_code == 403
    assert response.json()["error"] == "origin_not_allowed"
    assert response["Access-Control-Allow-Origin"] == "https://elsewhere.example"
    assert "strings" not in response.json()
    same_origin = client.get(f"/widget/v1/{site.key}/config.json")  # no Origin header
    assert same_origin.status_code == 200


@pytest.mark.django_db
def test_privacy_page_follows_accept_language_and_names_the_operator(client, site):
    site.operator_name = "Kurta Handels GmbH"
    site.operator_contact = "Hauptstraße 1, 10115 Berlin\ndatenschutz@kurta.example"
    site.save()
    german = client.get(
        f"/privacy/{site.key}/", HTTP_ACCEPT_LANGUAGE="pt;q=1, de-DE;q=0.8, en;q=0.5"
    )
    text = german.content.decode()
    assert '<html lang="de">' in text and german["Content-Language"] == "de"
    assert "Kurta Handels GmbH" in text and "datenschutz@kurta.example" in text
    assert "Wer diesen Dienst betreibt" in text
    assert site_cookie_name(base="cw_session", site_key=site.key) in text
    english = client.get(f"/privacy/{site.key}/", HTTP_ACCEPT_LANGUAGE="en-GB,de;q=0.9")
    assert '<html lang="en">' in english.content.decode()
    forced = client.get(f"/privacy/{site.key}/?lang=en", HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="en">' in forced.content.decode()
    assert "Accept-Language" in german["Vary"]
    french = client.get(f"/privacy/{site.key}/", HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9,en;q=0.5")
    assert '<html lang="fr">' in french.content.decode() and french["Content-Language"] == "fr"
    assert "Qui gère ce service" in french.content.decode()


@pytest.mark.django_db
def test_admin_shows_the_theme_fields_and_a_preview(admin_client, site):
    site.theme_primary = "#8a1538"
    site.save()
    page = admin_client.get(f"/admin/sites/site/{site.pk}/change/").content.decode()
    for field in (
        "theme_primary",
        "theme_position",
        "theme_scheme",
        "launcher_label",
        "operator_name",
        "operator_contact",
    ):
        assert f'name="{field}"' in page, field
    assert 'id="theme-preview"' in page and "--cw-primary:#8a1538" in page
    assert "9.35" in page, "the contrast ratio is shown"
    response = admin_client.post(
        f"/admin/sites/site/{site.pk}/change/",
        {
            "name": site.name,
            "allowed_origins": f'["{SHOP}"]',
            "default_language": "en",
            "theme_primary": "#ffcc00",
            "theme_position": "right",
            "theme_scheme": "auto",
        },
    )
    assert response.status_code == 200 and "contrast" in response.content.decode()


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "You are chatting with an AI assistant."),
        ("de", "Sie chatten mit einem KI-Assistenten."),
    ],
)
def test_config_carries_the_ai_disclosure_in_the_visitors_language(client, site, lang, expected):
    data = client.get(f"/widget/v1/{site.key}/config.json?lang={lang}", HTTP_ORIGIN=SHOP).json()
    assert data["ai_disclosure"].startswith(expected)


def test_an_owners_disclosure_replaces_the_standard_one_but_blank_cannot_remove_it(client, site):
    site.ai_disclosure = "Our shop assistant is an AI (Mira)."
    site.save()
    data = client.get(f"/widget/v1/{site.key}/config.json", HTTP_ORIGIN=SHOP).json()
    assert data["ai_disclosure"] == "Our shop assistant is an AI (Mira)."
    site.ai_disclosure = "   "
    site.save()
    data = client.get(f"/widget/v1/{site.key}/config.json", HTTP_ORIGIN=SHOP).json()
    assert data["ai_disclosure"].startswith("You are chatting with an AI assistant.")


def test_the_privacy_page_says_the_assistant_is_an_ai(client, site):
    page = client.get(f"/privacy/{site.key}/?lang=de").content.decode()
    assert "Sie sprechen mit einer KI" in page
