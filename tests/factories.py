"""Test data, in one place (factory_boy). Fixtures in the conftest files build on these;
tests import factories and the fixed clock times from here, never from a conftest."""

from datetime import UTC, datetime

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from factory.django import DjangoModelFactory

from memory.models import Conversation, TurnRole
from memory.services import conversation_start, turn_append

# A Tuesday, 10:00 in Berlin: inside the default staff hours "mon-fri 09:00-17:00".
OPEN_TIME = datetime(2026, 6, 2, 8, 0, tzinfo=UTC)
# A Sunday, 12:00 in Berlin: outside.
CLOSED_TIME = datetime(2026, 6, 7, 10, 0, tzinfo=UTC)


# The roles as the migrations left them in the test database: group -> (app, codename).
_ROLES: dict[str, list[tuple[str, str]]] = {}


def roles_snapshot_take() -> None:
    """Note the groups and their permissions once the test database is migrated."""
    for group in Group.objects.prefetch_related("permissions__content_type"):
        _ROLES[group.name] = [
            (p.content_type.app_label, p.codename) for p in group.permissions.all()
        ]


def roles_ensure() -> None:
    """The groups come from data migrations; a transactional test's flush removes them (and
    its post_migrate brings the permissions back): make them again as migrations made them."""
    if Group.objects.filter(name__in=_ROLES).count() == len(_ROLES):
        return
    for name, perms in _ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        for app_label, codename in perms:
            group.permissions.add(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )


class UserFactory(DjangoModelFactory):
    """An admin user; `role` is "Staff", "Owner" or None (logged in, in neither role).
    The password is "pw-<username>"."""

    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = ""
    is_staff = True
    email = factory.LazyAttribute(lambda u: f"{u.username}@shop.test")

    @classmethod
    def _create(cls, model_class, *args, role: str | None = None, **kwargs):
        roles_ensure()
        manager = cls._get_manager(model_class)
        user = manager.create_user(*args, password="pw-" + kwargs["username"], **kwargs)
        if role:
            user.groups.add(Group.objects.get(name=role))
        return user


class ConversationFactory(factory.Factory):
    """A conversation of `site` whose visitor wrote `texts`, an assistant answer after each
    (built through memory's services, so turns are redacted and counted like real ones).
    The visitor's token is on `.token`."""

    class Meta:
        model = Conversation

    site = None
    texts: list[str] = []
    language = "en"

    @classmethod
    def _create(cls, model_class, *, site, texts, language):
        conv, token = conversation_start(site_id=site.pk, language=language)
        for i, text in enumerate(texts):
            turn_append(
                conversation_id=conv.pk, role=TurnRole.VISITOR, text=text, client_id=f"c{i}"
            )
            turn_append(conversation_id=conv.pk, role=TurnRole.ASSISTANT, text=f"Answer {i}.")
        conv.refresh_from_db()
        conv.token = token
        return conv
