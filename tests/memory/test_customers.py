"""A signed-in customer's data rights (memory/customers.py, memory.retention): erasure of a
verified customer removes the customer row, its links and every conversation's copy of the
identity (its transcripts, lookups with its e-mail, case copies); the export includes the
customer; the purge takes a customer row once no conversation is left."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from chatwidget.sites.identity import Identity
from handover.models import Case
from handover.services import handover_request
from memory.customers import customer_erase, customer_export, customer_link
from memory.erasure import conversation_erase_by_visitor
from memory.export import conversation_export
from memory.models import AuditEvent, Conversation, Customer, Turn
from memory.retention import retention_purge_expired
from memory.services import turn_append
from tests.factories import ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db

ANNA = Identity(id="cust-4711", email="anna.meyer@example.com", name="Anna Meyer", signature="")


def linked(site, texts=("Where is my order 10452?",)) -> Conversation:
    conv = ConversationFactory(site=site, texts=list(texts))
    customer_link(site_id=site.pk, conversation_id=conv.pk, identity=ANNA)
    return Conversation.objects.get(pk=conv.pk)


def test_erasing_a_customer_removes_the_row_its_links_and_every_copy(site):
    first, second = linked(site), linked(site)
    # a lookup made with the identity's e-mail: a copy of it in the transcript
    turn_append(
        conversation_id=first.pk,
        role="tool",
        text=f'Lookup order_status {{"email": "{ANNA.email}", "order_number": "10452"}} → ok',
        publish=False,
    )
    handover_request(conversation_id=second.pk, trigger="visitor", reason="where is it")
    other = ConversationFactory(site=site, texts=["anonymous"])
    owner = UserFactory(username="olga", role="Owner")

    counts = customer_erase(
        customer_id=first.customer_id, actor=owner, reason="customer asked by e-mail"
    )

    assert counts == {"conversations": 2, "customers": 1}
    assert not Customer.objects.exists()
    assert list(Conversation.objects.values_list("pk", flat=True)) == [other.pk]
    assert not Turn.objects.filter(text__contains=ANNA.email).exists()
    case = Case.objects.get()
    assert case.conversation_id is None and case.contact == [] and case.core == {}
    event = AuditEvent.objects.get(target=f"customer {first.customer_id}")
    assert event.action == "erase" and event.reason == "customer asked by e-mail"


def test_the_export_includes_the_customer(site):
    conv = linked(site)
    data = json.loads(conversation_export(conversation_id=conv.pk, fmt="json", masked=False)[0])
    assert data["customer"] == {"id": ANNA.id, "email": ANNA.email, "name": ANNA.name}
    masked = json.loads(conversation_export(conversation_id=conv.pk, fmt="json", masked=True)[0])
    assert masked["customer"]["email"] != ANNA.email
    text = conversation_export(conversation_id=conv.pk, fmt="txt", masked=False)[0]
    assert ANNA.email in text

    owner = UserFactory(username="olga", role="Owner")
    whole = json.loads(
        customer_export(customer_id=conv.customer_id, actor=owner, reason="Art. 15 request")
    )
    assert whole["customer"]["id"] == ANNA.id and whole["customer"]["email"] != ANNA.email
    assert [c["turns"][0]["text"] for c in whole["conversations"]] == ["Where is my order 10452?"]
    assert AuditEvent.objects.filter(action="export", target__startswith="customer").exists()


def test_an_anonymous_export_has_no_customer(site):
    conv = ConversationFactory(site=site, texts=["hi"])
    data = json.loads(conversation_export(conversation_id=conv.pk, fmt="json", masked=False)[0])
    assert data["customer"] is None


def test_the_visitors_forget_takes_the_customer_with_its_last_conversation(site):
    first, second = linked(site), linked(site)
    conversation_erase_by_visitor(conversation_id=first.pk)
    assert Customer.objects.count() == 1, "another conversation still links it"
    conversation_erase_by_visitor(conversation_id=second.pk)
    assert not Customer.objects.exists()


def test_the_purge_takes_customers_without_conversations(site):
    conv = linked(site)
    Conversation.objects.filter(pk=conv.pk).update(
        last_activity_at=timezone.now() - timedelta(days=3)
    )
    Customer.objects.update(last_seen_at=timezone.now() - timedelta(days=3))
    fresh = Customer.objects.create(site=site, external_id="just-made")  # link not yet written
    counts = retention_purge_expired()
    assert counts.conversations == 1 and counts.customers == 1
    assert list(Customer.objects.all()) == [fresh]


def test_a_conversation_stays_with_its_first_customer(site):
    conv = linked(site)
    bob = Identity(id="cust-9", email="bob@example.com", name="Bob", signature="")
    assert customer_link(site_id=site.pk, conversation_id=conv.pk, identity=bob) is None
    conv.refresh_from_db()
    assert conv.customer.external_id == ANNA.id


# --- the owners' admin ----------------------------------------------------------------------


def test_owners_export_and_erase_a_customer_in_admin(site, client):
    conv = linked(site)
    owner = UserFactory(username="olga", role="Owner")
    client.force_login(owner)
    changelist = "/admin/memory/customer/"
    page = client.get(changelist).content.decode()
    assert ANNA.id in page and ANNA.email not in page, "listed, e-mail masked"
    picked = {"_selected_action": [conv.customer_id]}
    form = client.post(changelist, {"action": "export_customers", **picked})
    assert form.status_code == 200 and b'name="reason"' in form.content
    export = client.post(
        changelist,
        {"action": "export_customers", "confirm": "yes", "reason": "Art. 15 by e-mail", **picked},
    )
    data = json.loads(export.content)
    assert data["customer"]["id"] == ANNA.id and len(data["conversations"]) == 1
    erased = client.post(
        changelist,
        {"action": "erase_customers", "confirm": "yes", "reason": "Art. 17 by e-mail", **picked},
    )
    assert erased.status_code == 302
    assert not Customer.objects.exists() and not Conversation.objects.exists()


def test_staff_do_not_see_customers(site, client):
    linked(site)
    client.force_login(UserFactory(username="sam", role="Staff"))
    assert client.get("/admin/memory/customer/").status_code == 403
