"""The privacy page and the README table list every cookie and storage place with the
lifetime the code enforces (memory.privacy.storage_places, the site's retention policy)."""

import re
from html import unescape
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation

from memory.models import RetentionPolicy
from memory.privacy import storage_places

pytestmark = pytest.mark.django_db


def set_policy(site, **values) -> None:
    RetentionPolicy.objects.update_or_create(site=site, defaults=values)


def page_text(response) -> str:
    return unescape(re.sub(r"\s+", " ", response.content.decode()))


def table_rows(response) -> list[str]:
    body = response.content.decode().split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [unescape(re.sub(r"<[^>]+>", " | ", row)) for row in body.split("<tr>")[1:]]


def test_privacy_page_lists_every_place_with_the_current_policy(client, site):
    set_policy(site, session_hours=48, case_days=60, profile_months=6, audit_days=400)
    response = client.get(f"/privacy/{site.key}/")
    assert response.status_code == 200
    places = storage_places(site=site)
    rows = table_rows(response)
    assert len(rows) == len(places) == 9
    for place, row in zip(places, rows, strict=True):
        for key in ("name", "kind", "content", "lifetime", "purpose"):
            assert str(place[key]) in row, (key, place["name"])
    text = page_text(response)
    for expected in (
        "48 hours after your last message",
        "48 hours after the last message",
        "60 days after the case is resolved",
        "6 months after your last visit",
        "400 days",
        settings.SESSION_COOKIE_NAME_WIDGET,
        settings.RECOGNITION_COOKIE_NAME,
        "cw_open",
        "Signed-in customer",  # issue 28: only when the shop signs the visitor in
    ):
        assert expected in text, expected
    assert "24 hours" not in text, "the site's policy, not the defaults"


def test_privacy_page_follows_a_policy_change(client, site):
    assert "24 hours after your last message" in page_text(client.get(f"/privacy/{site.key}/"))
    set_policy(site, session_hours=2)
    assert "2 hours after your last message" in page_text(client.get(f"/privacy/{site.key}/"))


def test_privacy_page_in_german(client, site):
    set_policy(site, session_hours=36, case_days=14, profile_months=3, audit_days=90)
    response = client.get(f"/privacy/{site.key}/?lang=de")
    assert response.status_code == 200
    assert '<html lang="de">' in response.content.decode()
    text = page_text(response)
    with translation.override("de"):
        places = storage_places(site=site)
        for place in places:
            for key in ("kind", "content", "lifetime", "purpose"):
                assert str(place[key]) in text, (key, str(place[key]))
        translated = translation.gettext("Privacy and cookies") != "Privacy and cookies"
    for number in ("36", "14", "3", "90"):
        assert re.search(rf"\b{number}\b", text), number
    if not translated:
        pytest.skip(
            "German catalogue not compiled yet (python -m chatwidget.i18n); "
            "numbers and structure checked, wording not"
        )
    assert "Datenschutz" in text
    assert "36 Stunden" in text and "14 Tage" in text and "3 Monate" in text
    assert "Privacy and cookies" not in text


def test_default_privacy_page_shows_the_product_defaults(client, db):
    text = page_text(client.get("/privacy/"))
    assert "24 hours after your last message" in text and "12 months" in text


def test_unknown_site_privacy_page_is_404(client, db):
    assert client.get("/privacy/nope/").status_code == 404


def test_privacy_table_command_prints_the_markdown_table(site):
    out = StringIO()
    call_command("privacy_table", stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert lines[0].startswith("| Name | Where | Content | Lifetime | Purpose |")
    assert lines[1].startswith("|---|")
    places = storage_places()
    assert len(lines) == 2 + len(places)
    for place, line in zip(places, lines[2:], strict=True):
        assert line.startswith(f"| `{place['name']}` |")
        assert str(place["lifetime"]) in line
        assert line.count(" | ") == 4, "no stray pipes inside cells"


def test_privacy_table_command_for_a_site_uses_its_policy(site):
    set_policy(site, session_hours=72)
    out = StringIO()
    call_command("privacy_table", f"--site={site.key}", stdout=out)
    assert "72 hours after your last message" in out.getvalue()


def test_cookie_lifetime_matches_the_policy(site):
    set_policy(site, session_hours=10, profile_months=2)
    places = {p["name"]: p for p in storage_places(site=site)}
    assert places[settings.SESSION_COOKIE_NAME_WIDGET]["seconds"] == 10 * 3600
    assert places[settings.RECOGNITION_COOKIE_NAME]["seconds"] == 2 * 30 * 86400


def test_readme_cookie_table_is_the_generated_one(db):
    """README's table is `manage.py privacy_table` output: regenerate it when this fails."""
    from io import StringIO
    from pathlib import Path

    from django.core.management import call_command

    out = StringIO()
    call_command("privacy_table", stdout=out)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    rows = [line for line in out.getvalue().splitlines() if line.startswith("| `")]
    assert rows and all(row in readme for row in rows)
