"""Handover fixtures: users in the two roles, a conversation with contact details."""

import pytest

from tests.egress_stubs import egress_net  # noqa: F401
from tests.factories import ConversationFactory, UserFactory


@pytest.fixture
def staff_user(db):
    return UserFactory(username="sam", role="Staff", first_name="Sam")


@pytest.fixture
def owner_user(db):
    return UserFactory(username="olga", role="Owner", first_name="Olga")


@pytest.fixture
def outsider(db):
    """Logged into admin, but in neither role."""
    return UserFactory(username="otto")


@pytest.fixture
def conversation(site):
    return ConversationFactory(
        site=site,
        texts=[
            "I need the mint kurta KU-2291-M in size L.",
            "Please write to anna@example.com or call +49 30 1234567.",
        ],
    )
