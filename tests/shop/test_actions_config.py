"""Shop actions without a socket: what the Owner may configure, the budget's `tools`
section, the visitor-argument rule, lookups in the core, and the case page."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from chatwidget.assistant.context import context_build
from chatwidget.demo_shop import demo_actions_configure
from chatwidget.shop.actions.admission import value_given_by_visitor
from chatwidget.shop.actions.services import tool_turn_text
from chatwidget.shop.actions.tools import site_actions, site_actions_forget
from chatwidget.shop.models.actions import Action
from handover import services as handover_services
from memory.core.extractive import core_extract
from memory.core.lookups import lookup_objects
from memory.models import TurnRole
from memory.services import turn_append
from tests.factories import ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db


def action(site, **changes) -> Action:
    fields = {
        "site": site,
        "name": "order_status",
        "description": "An order's status.",
        "parameters": {
            "type": "object",
            "properties": {"order_number": {"type": "string"}, "postcode": {"type": "string"}},
        },
        "visitor_args": ["order_number"],
        "factors": {"postcode": "postcode"},
        "url_template": "https://shop.example.com/api/orders/{order_number}",
        "headers": {"Authorization": "Bearer {env:SHOP_API_TOKEN}"},
    }
    return Action(**{**fields, **changes})


def test_a_secret_typed_into_a_header_is_refused(site):
    action(site).full_clean()  # the variable's name: fine
    for headers in (
        {"Authorization": "Bearer sk_live_abc123"},
        {"X-Api-Key": "abc123"},
        {"X-Shop-Token": "prefix {env:SHOP_API_TOKEN}"},
    ):
        with pytest.raises(ValidationError) as error:
            action(site, headers=headers).full_clean()
        assert "headers" in error.value.message_dict, headers


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "request_handover"}, "name"),
        ({"name": "order status"}, "name"),
        ({"visitor_args": ["email"]}, "visitor_args"),
        ({"url_template": "https://shop.example.com/api/orders/{number}"}, "url_template"),
        ({"url_template": "ftp://shop.example.com/{order_number}"}, "url_template"),
        ({"parameters": {"type": "string"}}, "parameters"),
    ],
)
def test_an_action_that_cannot_work_is_refused(site, changes, field):
    with pytest.raises(ValidationError) as error:
        action(site, **changes).full_clean()
    assert field in error.value.message_dict


def test_descriptions_are_counted_and_room_is_kept_for_results(site):
    conv = ConversationFactory(site=site, texts=["Where is my order 10452?"])
    before = context_build(conversation_id=conv.pk, request_seq=1)
    demo_actions_configure(site=site, shop_url="http://127.0.0.1:9")
    after = context_build(conversation_id=conv.pk, request_seq=1)
    described = site_actions(site_id=site.pk)
    assert {t["function"]["name"] for t in after.tools} == {"order_status", "stock_check"}
    assert after.sections["tools"] > before.sections["tools"] + 50, "descriptions counted"
    assert described.result_room == 2 * described.result_max_tokens
    # the cache is cleared when the Owner changes something
    Action.objects.filter(site=site, name="stock_check").update(enabled=False)
    assert len(site_actions(site_id=site.pk).tools) == 2, "cached for a minute"
    site_actions_forget(site_id=site.pk)
    assert [t["function"]["name"] for t in site_actions(site_id=site.pk).tools] == ["order_status"]


@pytest.mark.parametrize(
    ("value", "given"),
    [
        ("10452", True),
        ("1045", False),
        ("104520", False),
        ("LS-1180-S", True),
        ("ls 1180 s", True),
        ("10115", True),
        ("99999", False),
        ("", False),
    ],
)
def test_a_value_counts_only_as_whole_words_the_visitor_wrote(value, given):
    texts = ["Where is my order 10452?", "It was the LS1180-S shirt, postcode 10115."]
    assert value_given_by_visitor(value, texts) is given


def test_a_lookup_becomes_an_object_with_its_identifier_and_state():
    shipped = tool_turn_text(
        name="order_status",
        arguments={"order_number": "10452"},
        outcome="ok",
        result='{"status":"shipped","carrier":"DHL"}',
    )
    delivered = tool_turn_text(
        name="order_status",
        arguments={"order_number": "10452"},
        outcome="ok",
        result='{"status":"delivered"}',
    )
    failed = tool_turn_text(
        name="order_status", arguments={"order_number": "10453"}, outcome="timeout", result=""
    )
    cut = tool_turn_text(
        name="order_status",
        arguments={"order_number": "10454"},
        outcome="ok",
        result='{"status":"shipped","history":["a", […]',
    )
    assert lookup_objects(shipped) == [{"kind": "order", "id": "10452", "label": "shipped"}]
    assert lookup_objects(failed) == [] and lookup_objects(cut) == [], "no state is guessed"
    core = core_extract(
        previous=None,
        turns=[
            {"turn": 1, "role": "visitor", "text": "Where is my order 10452?"},
            {"turn": 3, "role": "tool", "text": shipped},
            {"turn": 5, "role": "visitor", "text": "And now?"},
            {"turn": 7, "role": "tool", "text": delivered},
            {"turn": 8, "role": "tool", "text": failed},
        ],
    )
    assert [o for o in core["objects"] if o["id"] == "10452"] == [
        {"kind": "order", "id": "10452", "label": "delivered"}
    ], "the newest state wins"
    assert not any(o["id"] == "10453" for o in core["objects"])


def test_staff_see_the_lookup_on_the_case_page_masked(client, site):
    conv = ConversationFactory(site=site, texts=["Where is my order 10452?"])
    turn_append(
        conversation_id=conv.pk,
        role=TurnRole.TOOL,
        publish=False,
        text=tool_turn_text(
            name="order_status",
            arguments={"order_number": "10452"},
            outcome="ok",
            result='{"status":"shipped","contact":"anna@example.com"}',
        ),
    )
    case = handover_services.handover_request(conversation_id=conv.pk, trigger="visitor")
    client.force_login(UserFactory(username="sam", role="Staff"))
    html = client.get(reverse("admin:handover_case_change", args=[case.pk])).content.decode()
    transcript = html[html.index('id="case-transcript"') :]
    assert "Shop lookup" in transcript and "order_status" in transcript
    assert "shipped" in transcript and "anna@example.com" not in html, "redacted and masked"


def test_lookups_and_their_records_go_with_the_transcript(site):
    from datetime import timedelta

    from django.utils import timezone

    from chatwidget.shop.models.actions import ActionCall
    from memory.models import Conversation, Turn
    from memory.retention import retention_purge_expired

    conv = ConversationFactory(site=site, texts=["Where is my order 10452?"])
    turn = turn_append(
        conversation_id=conv.pk,
        role=TurnRole.TOOL,
        publish=False,
        text=tool_turn_text(
            name="order_status",
            outcome="ok",
            arguments={"order_number": "10452"},
            result='{"status":"shipped"}',
        ),
    ).turn
    ActionCall.objects.create(
        conversation=conv,
        name="order_status",
        request_seq=1,
        turn_seq=turn.seq,
        outcome="ok",
        tokens=5,
    )
    Conversation.objects.filter(pk=conv.pk).update(
        last_activity_at=timezone.now() - timedelta(days=30)
    )
    retention_purge_expired()
    assert not Turn.objects.filter(conversation_id=conv.pk).exists()
    assert not ActionCall.objects.exists(), "the call's record is purged with the transcript"


def test_a_model_that_drops_the_orders_status_is_corrected(site, fake_llm):
    from memory.condense.service import core_condense
    from memory.core import core_empty
    from tests.fakellm import JsonReply

    conv = ConversationFactory(site=site, texts=["Where is my order 10452?"])
    turn_append(
        conversation_id=conv.pk,
        role=TurnRole.TOOL,
        publish=False,
        text=tool_turn_text(
            name="order_status",
            outcome="ok",
            arguments={"order_number": "10452"},
            result='{"order_number":"10452","status":"shipped"}',
        ),
    )
    careless = {
        **core_empty(),
        "request": "Where is my order 10452?",
        "objects": [{"kind": "order", "id": "10452", "label": "in transit, probably"}],
    }
    fake_llm.script.append(JsonReply(careless))
    core = core_condense(conversation_id=conv.pk, through_seq=3)  # visitor, answer, lookup
    assert core.source == "model"
    assert [o for o in core.data["objects"] if o["id"] == "10452"] == [
        {"kind": "order", "id": "10452", "label": "shipped"}
    ]
    assert core.repairs.get("lookup_states") == 1


def test_a_site_with_actions_pays_no_query_per_build(site, django_assert_max_num_queries):
    conv = ConversationFactory(site=site, texts=["Where is my order 10452?"])
    context_build(conversation_id=conv.pk, request_seq=1)  # warm per-process caches
    with django_assert_max_num_queries(10) as without:
        context_build(conversation_id=conv.pk, request_seq=1)
    demo_actions_configure(site=site, shop_url="http://127.0.0.1:9")
    context_build(conversation_id=conv.pk, request_seq=1)  # the site's tools cached
    with django_assert_max_num_queries(10) as with_actions:
        built = context_build(conversation_id=conv.pk, request_seq=1)
    assert len(built.tools) == 2
    assert len(with_actions) == len(without)


def test_the_owner_configures_actions_and_staff_read_the_calls(client, site):
    owner = UserFactory(username="olga", role="Owner")
    staff = UserFactory(username="sam", role="Staff")
    client.force_login(owner)
    assert client.get(reverse("admin:shop_action_add")).status_code == 200
    response = client.post(
        reverse("admin:shop_action_add"),
        {
            "site": site.pk,
            "name": "order_status",
            "enabled": "on",
            "description": "An order's status.",
            "method": "GET",
            "parameters": '{"type": "object", "properties": {"order_number": {"type": "string"}}}',
            "visitor_args": '["order_number"]',
            "timeout_seconds": "5",
            "url_template": "https://shop.example.com/api/orders/{order_number}",
            "headers": '{"Authorization": "Bearer sk_live_typed_in"}',
        },
    )
    assert response.status_code == 200 and "looks like a secret" in response.content.decode()
    assert not Action.objects.exists(), "a typed-in secret is never stored"
    client.force_login(staff)
    assert client.get(reverse("admin:shop_actioncall_changelist")).status_code == 200
    assert client.get(reverse("admin:shop_action_add")).status_code == 403
