"""ConversationAdmin (memory/admin.py, the memory part): what an owner sees of a conversation:
the current core as a form, its versions, what each model call was sent, and the transcript
with contact details masked."""

import pytest
from django.urls import reverse

from chatwidget.assistant.context import context_build
from memory.condense.service import core_condense
from memory.models import Conversation
from memory.services import conversation_start, turn_append

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(site):
    site.verbatim_window_turns = 8
    site.save()
    conv, _ = conversation_start(site_id=site.pk)
    turn_append(
        conversation_id=conv.pk,
        role="visitor",
        text="I need the cotton kurta KU-2291-M in size L. Mail me at anna@example.com",
    )
    for i in range(13):
        turn_append(
            conversation_id=conv.pk,
            role="assistant" if i % 2 == 0 else "visitor",
            text=f"Message {i} about delivery to Hamburg.",
        )
    core_condense(conversation_id=conv.pk)
    context_build(conversation_id=conv.pk, request_seq=14)
    return Conversation.objects.get(pk=conv.pk)


@pytest.fixture
def owner(client, django_user_model):
    user = django_user_model.objects.create_superuser("owner", "owner@shop.test", "pw")
    client.force_login(user)
    return client


def test_the_list_shows_turns_and_core_version(owner, conversation):
    page = owner.get(reverse("admin:memory_conversation_changelist")).content.decode()
    assert "Test shop" in page
    assert '<td class="field-turn_total">14</td>' in page
    assert '<td class="field-core_version">1</td>' in page


def test_the_detail_shows_core_versions_and_what_the_model_was_sent(owner, conversation):
    page = owner.get(
        reverse("admin:memory_conversation_change", args=[conversation.pk])
    ).content.decode()
    assert "Current condensed core" in page
    assert "Condensed from turns 1–6" in page
    assert "<strong>KU-2291-M</strong>" in page, "the core as a readable form"
    assert "core versions" in page.lower()
    assert "Tokens per section" in page and "verbatim: " in page and "core: " in page
    assert "v1, covers turns 1–6" in page


def test_the_transcript_is_masked(owner, conversation):
    page = owner.get(
        reverse("admin:memory_conversation_change", args=[conversation.pk])
    ).content.decode()
    assert "anna@example.com" not in page, "staff never see contact details here"
    assert "a•••@e•••.com" in page
    assert "Message 12 about delivery to Hamburg." in page


def test_the_transcript_names_a_visitors_photo(owner, conversation):
    from memory.models import Turn

    newest = conversation.turns.order_by("-seq").first()
    photo = {"kind": "image", "name": "<b>dent</b>.jpg", "type": "image/jpeg"}
    Turn.objects.filter(pk=newest.pk).update(attachments=[photo])
    page = owner.get(
        reverse("admin:memory_conversation_change", args=[conversation.pk])
    ).content.decode()
    assert "Attachment: &lt;b&gt;dent&lt;/b&gt;.jpg" in page, "named, as text"


def test_it_is_read_only(owner, conversation):
    assert owner.get(reverse("admin:memory_conversation_add")).status_code == 403
    page = owner.get(
        reverse("admin:memory_conversation_change", args=[conversation.pk])
    ).content.decode()
    assert 'name="_save"' not in page
