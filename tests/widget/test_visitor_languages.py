"""The visitor's language over HTTP (issue 28): the widget's config and the privacy page in
the five new languages, the greeting, and admin staying English or German whatever the
staff user's browser prefers."""

import pytest
from django.utils import translation

from chatwidget.platform.languages import language_normalise
from chatwidget.sites.models import STANDARD_GREETING
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SHOP = "http://shop.test"  # the `site` fixture's origin

FRENCH = {
    "send": "Envoyer",
    "placeholder": "Écrivez votre message…",
    "talk_to_person": "Parler à une personne",
    "remember_me": "Se souvenir de moi sur cet appareil pendant %(months)s mois",
}


def config(client, site, lang):
    return client.get(f"/widget/v1/{site.key}/config.json?lang={lang}", HTTP_ORIGIN=SHOP).json()


@pytest.mark.parametrize("lang", ["fr", "fr-CA", "FR"])
def test_the_config_sends_french_strings_for_french(client, site, lang):
    data = config(client, site, lang)
    assert data["lang"] == "fr"
    assert {k: data["strings"][k] for k in FRENCH} == FRENCH
    assert data["ai_disclosure"].startswith("Vous discutez avec un assistant IA.")
    assert data["greeting"] == "Bonjour\u202f! Comment puis-je vous aider aujourd’hui\u202f?"
    assert data["privacy_url"].endswith("?lang=fr")


@pytest.mark.parametrize("lang", ["es", "it", "nl", "pl", "de"])
def test_every_visitor_language_has_all_widget_strings_translated(client, site, lang):
    english = config(client, site, "en")["strings"]
    data = config(client, site, lang)
    assert data["lang"] == lang
    same = [k for k, v in data["strings"].items() if v == english[k]]
    # a word that is the same in both languages ("Options", "Assistant") may stay
    assert len(same) <= 2, same
    assert data["greeting"] != STANDARD_GREETING


def test_an_unknown_language_gets_the_sites_default(client, site):
    site.default_language = "it"
    site.save(update_fields=["default_language"])
    assert config(client, site, "pt")["lang"] == "it"
    assert config(client, site, "")["lang"] == "it"


def test_a_greeting_of_the_shops_own_is_sent_as_written(client, site):
    site.greeting = "Bienvenue chez Kurta ! Posez votre question."
    site.save(update_fields=["greeting"])
    assert config(client, site, "de")["greeting"] == site.greeting
    site.greeting = ""
    site.save(update_fields=["greeting"])
    assert config(client, site, "fr")["greeting"] == ""


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("fr", "Vos droits"),
        ("es", "Sus derechos"),
        ("it", "I suoi diritti"),
        ("nl", "Je rechten"),
        ("pl", "Twoje prawa"),
    ],
)
def test_the_privacy_page_in_each_language(client, site, lang, heading):
    page = client.get(f"/privacy/{site.key}/?lang={lang}")
    text = page.content.decode()
    assert f'<html lang="{lang}">' in text and page["Content-Language"] == lang
    assert heading in text and "Your rights" not in text


def test_language_tags():
    assert language_normalise("fr-CA") == "fr"
    assert language_normalise("nl_BE") == "nl"
    assert language_normalise(" PL ") == "pl"
    assert language_normalise("pt-BR") is None
    assert language_normalise(None) is None


@pytest.fixture
def staff_client(client):
    user = UserFactory(username="sam", role="Staff")
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("accept", "lang", "title"),
    [
        ("fr-FR,fr;q=0.9", "en", "Shop chat assistant"),
        ("pl", "en", "Shop chat assistant"),
        ("fr-FR,fr;q=0.9,de;q=0.8,en;q=0.5", "de", "Shop-Chat-Assistent"),
        ("de-AT", "de", "Shop-Chat-Assistent"),
    ],
)
def test_admin_speaks_english_or_german_whatever_the_browser_prefers(
    staff_client, accept, lang, title
):
    """Staff-facing text is English and German only: a French browser gets English admin
    (Django's own French admin strings included), never a half-French page."""
    page = staff_client.get("/admin/", HTTP_ACCEPT_LANGUAGE=accept)
    text = page.content.decode()
    assert page.status_code == 200
    assert f'<html lang="{lang}"' in text
    with translation.override(lang):
        assert str(translation.gettext("Shop chat assistant")) == title
    assert title in text
    assert "Déconnexion" not in text and "Wyloguj" not in text  # Django's own French/Polish
