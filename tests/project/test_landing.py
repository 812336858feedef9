"""`/`: a page that says what the service is, in English and German, instead of a 404."""

import pytest


@pytest.mark.django_db
def test_front_page_says_what_this_is_and_links_admin_and_privacy(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response["Content-Language"] == "en"
    body = response.content.decode()
    assert "self-hosted AI chat assistant for web shops" in body
    assert 'href="/admin/"' in body
    assert 'href="/privacy/"' in body
    assert "README.md" in body  # no DOCS_URL: the documentation is named


@pytest.mark.django_db
def test_front_page_in_german_by_browser_language_or_choice(client):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert "selbst gehosteten KI-Chat-Assistenten" in body
    assert 'lang="de"' in body
    body = client.get("/?lang=de", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Verwaltung" in body
    body = client.get("/?lang=en", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Admin" in body and "Verwaltung" not in body


@pytest.mark.django_db
def test_docs_link_when_configured(client, settings):
    settings.DOCS_URL = "https://docs.example.com/chat"
    body = client.get("/").content.decode()
    assert 'id="docs-link" href="https://docs.example.com/chat"' in body


@pytest.mark.django_db
def test_admin_view_site_leads_to_the_front_page(admin_client):
    body = admin_client.get("/admin/").content.decode()
    assert 'href="/">' in body  # admin's "View site"
    landing = admin_client.get("/")
    assert landing.status_code == 200
    assert "signed in as admin" in landing.content.decode()
