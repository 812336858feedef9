"""Export (Art. 15): the visitor's download from the widget (POST /widget/v1/<key>/export)
and the staff export in admin (owner-only, reason logged, masked by default)."""

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse
from django.utils import timezone

from memory.models import AuditEvent, Conversation
from memory.services import conversation_start, turn_append

pytestmark = pytest.mark.django_db

SHOP = "http://shop.test"
VISITOR_TEXT = "Please send the invoice to jane.roe@example.org, card 4539 1488 0343 6467"


@pytest.fixture
def session(site):
    conv, token = conversation_start(site_id=site.pk)
    turn_append(conversation_id=conv.pk, role="visitor", text=VISITOR_TEXT)
    turn_append(conversation_id=conv.pk, role="assistant", text="Invoice 55-1031 is on its way.")
    return conv, token


def export(client, site, body, origin=SHOP, **extra):
    headers = {"HTTP_ORIGIN": origin} if origin else {}
    return client.post(
        f"/widget/v1/{site.key}/export",
        data=json.dumps(body),
        content_type="application/json",
        **headers,
        **extra,
    )


# --- the visitor's download ------------------------------------------------------------------------


def test_visitor_downloads_json_with_own_text_and_placeholders(client, site, session):
    _, token = session
    response = export(client, site, {"session": token, "format": "json"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="conversation-')
    assert response["Cache-Control"] == "no-store"
    data = json.loads(response.content)
    assert [(t["seq"], t["role"]) for t in data["turns"]] == [(1, "visitor"), (2, "assistant")]
    first = data["turns"][0]["text"]
    assert "jane.roe@example.org" in first, "the visitor's own address, not masked for them"
    assert "[card number removed]" in first and "4539" not in response.content.decode()
    assert data["site"] == "Test shop"


def test_visitor_downloads_plain_text(client, site, session):
    _, token = session
    response = export(client, site, {"session": token, "format": "txt"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert "visitor: Please send the invoice to jane.roe@example.org" in body
    assert "assistant: Invoice 55-1031 is on its way." in body
    assert response["Content-Disposition"].endswith('.txt"')


def test_cors_only_for_allowed_origins(client, site, session):
    _, token = session
    allowed = export(client, site, {"session": token})
    assert allowed["Access-Control-Allow-Origin"] == SHOP
    assert "Content-Disposition" in allowed["Access-Control-Expose-Headers"]
    refused = export(client, site, {"session": token}, origin="http://evil.test")
    assert refused.status_code == 403
    assert "Access-Control-Allow-Origin" not in refused
    assert VISITOR_TEXT[:20].encode() not in refused.content
    no_origin = export(client, site, {"session": token}, origin=None)
    assert no_origin.status_code == 403
    preflight = client.options(f"/widget/v1/{site.key}/export", HTTP_ORIGIN=SHOP)
    assert preflight.status_code == 204 and preflight["Access-Control-Allow-Origin"] == SHOP
    evil_preflight = client.options(f"/widget/v1/{site.key}/export", HTTP_ORIGIN="http://evil.test")
    assert "Access-Control-Allow-Origin" not in evil_preflight


@pytest.mark.parametrize(
    "case", ["unknown", "forged", "expired", "other_site", "missing", "erased"]
)
def test_404_for_tokens_that_do_not_open_a_live_conversation(client, site, session, case):
    from chatwidget.sites.services import site_create
    from memory.erasure import conversation_erase

    conv, token = session
    if case == "unknown":
        token = "x" * 43
    elif case == "forged":
        token = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    elif case == "expired":
        Conversation.objects.filter(pk=conv.pk).update(
            last_activity_at=timezone.now() - timedelta(hours=25)
        )
    elif case == "other_site":
        other = site_create(name="Other shop", origins=[SHOP])
        response = export(client, other, {"session": token})
        assert response.status_code == 404
        return
    elif case == "missing":
        token = None
    elif case == "erased":
        conversation_erase(conversation_id=conv.pk)
    response = export(client, site, {"session": token})
    assert response.status_code == 404
    assert json.loads(response.content) == {"error": "not_found"}


def test_unknown_site_is_404(client):
    assert (
        client.post(
            "/widget/v1/nope/export", data="{}", content_type="application/json", HTTP_ORIGIN=SHOP
        ).status_code
        == 404
    )


def test_the_token_never_travels_in_a_url(client, site, session):
    _, token = session
    url = reverse("widget-export", kwargs={"site_key": site.key})
    assert token not in url
    assert client.get(f"{url}?session={token}", HTTP_ORIGIN=SHOP).status_code == 405
    # a token in the query string is ignored: only the body counts
    response = client.post(
        f"{url}?session={token}", data="{}", content_type="application/json", HTTP_ORIGIN=SHOP
    )
    assert response.status_code == 404


def test_bad_body_is_400(client, site):
    response = client.post(
        f"/widget/v1/{site.key}/export",
        data="not json",
        content_type="application/json",
        HTTP_ORIGIN=SHOP,
    )
    assert response.status_code == 400


# --- staff export in admin ------------------------------------------------------------------------


def staff_user(*codenames: str, name: str = "staff") -> User:
    user = User.objects.create_user(name, password="pw", is_staff=True)
    for codename in ("memory.view_conversation", *codenames):
        app, _, code = codename.partition(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app, codename=code)
        )
    return User.objects.get(pk=user.pk)


def test_staff_without_export_permission_cannot_export(client, session):
    conv, _ = session
    client.force_login(staff_user())
    url = f"/admin/memory/conversation/{conv.pk}/export/"
    assert client.get(url).status_code == 403
    assert client.post(url, {"confirm": "yes", "reason": "customer asked"}).status_code == 403
    assert not AuditEvent.objects.exists()


def test_staff_export_needs_a_reason_and_is_masked_by_default(client, session):
    conv, _ = session
    owner = staff_user("memory.export_conversation", name="owner")
    client.force_login(owner)
    url = f"/admin/memory/conversation/{conv.pk}/export/"
    page = client.get(url)
    assert page.status_code == 200 and b'name="reason"' in page.content
    assert b'name="plaintext"' not in page.content, "plaintext needs the reveal permission"
    assert client.post(url, {"confirm": "yes", "reason": ""}).context["form"].errors
    assert not AuditEvent.objects.exists()
    response = client.post(
        url, {"confirm": "yes", "reason": "Art. 15 request, ticket 981", "plaintext": "on"}
    )
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    text = data["turns"][0]["text"]
    assert "jane.roe@example.org" not in text and "[card number removed]" in text
    event = AuditEvent.objects.get(action="export")
    assert (event.actor, event.reason, event.conversation_ref) == (
        owner,
        "Art. 15 request, ticket 981",
        conv.pk,
    )
    assert event.details["masked"] is True


def test_owner_with_reveal_permission_may_export_plaintext(client, session):
    conv, _ = session
    client.force_login(
        staff_user("memory.export_conversation", "handover.reveal_plaintext", name="owner")
    )
    url = f"/admin/memory/conversation/{conv.pk}/export/"
    assert b'name="plaintext"' in client.get(url).content
    response = client.post(
        url, {"confirm": "yes", "reason": "visitor wants the full copy", "plaintext": "on"}
    )
    assert "jane.roe@example.org" in json.loads(response.content)["turns"][0]["text"]
    assert AuditEvent.objects.get(action="export").details["masked"] is False


def test_staff_export_several_from_the_list_action(client, site, session):
    conv, _ = session
    other, _ = conversation_start(site_id=site.pk)
    turn_append(conversation_id=other.pk, role="visitor", text="second conversation")
    client.force_login(staff_user("memory.export_conversation", name="owner"))
    chosen = [str(conv.pk), str(other.pk)]
    confirm = client.post(
        "/admin/memory/conversation/",
        {"action": "export_conversations", "_selected_action": chosen},
    )
    assert confirm.status_code == 200 and b'name="reason"' in confirm.content
    response = client.post(
        "/admin/memory/conversation/",
        {
            "action": "export_conversations",
            "_selected_action": chosen,
            "confirm": "yes",
            "reason": "audit by the data protection officer",
        },
    )
    data = json.loads(response.content)
    assert len(data["conversations"]) == 2
    assert AuditEvent.objects.filter(action="export").count() == 2
