"""The site's identity secret (chatwidget/sites/identity.py): the key of `hello.identity`,
printed by `manage.py identity_secret` (made on first use, `--rotate` replaces it), shown once
in the Site admin after it is made or rotated and masked otherwise; and the signature check."""

import hashlib
import hmac
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from chatwidget.sites.identity import (
    Identity,
    identity_secret_get,
    identity_signature,
    identity_verify,
)
from chatwidget.sites.models import Site

pytestmark = pytest.mark.django_db


def command(*args: str) -> str:
    out = StringIO()
    call_command("identity_secret", *args, stdout=out)
    return out.getvalue().strip()


def test_the_command_makes_the_secret_once_and_rotates_it(site):
    assert site.identity_secret == "", "none before first use"
    first = command("--site", site.key)
    assert len(first) == 64 and command("--site", site.key) == first
    rotated = command("--site", site.key, "--rotate")
    assert rotated != first and command("--site", site.key) == rotated
    site.refresh_from_db()
    assert site.identity_secret == rotated


def test_the_command_refuses_an_unknown_site(site):
    with pytest.raises(CommandError):
        command("--site", "no-such-site")


def test_the_signature_is_the_contracts_hmac(site):
    """DESIGN.md: hex HMAC-SHA256, key the site's secret, message id + "\\n" + email, UTF-8."""
    secret = identity_secret_get(site_id=site.pk)
    expected = hmac.new(
        secret.encode(), "kund-ü-1\nJürgen@Example.de".encode(), hashlib.sha256
    ).hexdigest()
    assert identity_signature(secret=secret, customer_id="kund-ü-1", email="Jürgen@Example.de") == (
        expected
    )
    good = Identity(id="kund-ü-1", email="Jürgen@Example.de", name="J", signature=expected)
    assert identity_verify(secret=secret, identity=good)
    assert identity_verify(secret=secret, identity=Identity(**{**good.__dict__, "name": "X"}))
    assert identity_verify(
        secret=secret, identity=Identity(**{**good.__dict__, "signature": expected.upper()})
    )
    for changed in ({"id": "kund-ü-2"}, {"email": "jurgen@example.de"}, {"signature": "00"}):
        assert not identity_verify(secret=secret, identity=Identity(**{**good.__dict__, **changed}))
    assert not identity_verify(secret="", identity=good)


def test_the_admin_shows_the_secret_once_then_masked(admin_client, site):
    change = f"/admin/sites/site/{site.pk}/change/"
    page = admin_client.get(change).content.decode()
    assert "Make the identity secret" in page
    shown = admin_client.post(f"/admin/sites/site/{site.pk}/identity-secret/")
    assert shown.status_code == 200 and "no-cache" in shown["Cache-Control"]
    secret = Site.objects.get(pk=site.pk).identity_secret
    assert secret and secret in shown.content.decode()
    page = admin_client.get(change).content.decode()
    assert secret not in page and secret[-4:] in page, "masked: its last characters"
    assert "Rotate the identity secret" in page
    rotated = admin_client.post(f"/admin/sites/site/{site.pk}/identity-secret/").content.decode()
    assert Site.objects.get(pk=site.pk).identity_secret in rotated
    assert secret not in rotated
    assert admin_client.get(f"/admin/sites/site/{site.pk}/identity-secret/").status_code == 405


def test_a_site_added_in_admin_shows_its_new_secret_once(admin_client):
    response = admin_client.post("/admin/sites/site/add/", _site_form(name="New shop"))
    html = response.content.decode()
    assert "errornote" not in html, [line for line in html.splitlines() if "errorlist" in line]
    site = Site.objects.get(name="New shop")
    assert response.status_code == 200, "the shown-once page, not a redirect"
    assert site.identity_secret and site.identity_secret in response.content.decode()


def test_staff_without_change_permission_cannot_rotate(client, site):
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="sam", role="Staff"))
    response = client.post(f"/admin/sites/site/{site.pk}/identity-secret/")
    assert response.status_code in (302, 403)
    assert Site.objects.get(pk=site.pk).identity_secret == ""


def _site_form(**values) -> dict:
    from django.forms.models import model_to_dict

    data = {k: v for k, v in model_to_dict(Site(name="x")).items() if v is not None}
    data.update(allowed_origins="https://new.example", **values)
    data.pop("id", None)
    for inline in ("closed_days", "away_messages"):  # the inlines' empty formsets
        data.update({f"{inline}-TOTAL_FORMS": "0", f"{inline}-INITIAL_FORMS": "0"})
    return data
