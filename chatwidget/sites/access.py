"""Which sites a staff user may see (issue 15): Owners see every site; a Staff user can be
limited to sites with Django groups named `site:<site key>` (admin, Users -> Groups). A Staff
user in no such group sees every site, as before.

Groups, not a new table: roles are groups already (Staff, Owner; handover migration 0003),
and an operator grants a site where they grant a role. Enforced in the admin's lists (cases,
conversations, profiles), the case page and its actions, the staff sockets and the exports
(they export what the list's queryset holds)."""

from __future__ import annotations

from django.db.models import QuerySet

from chatwidget.sites.models import Site

SITE_GROUP_PREFIX = "site:"
OWNER_GROUP = "Owner"


def staff_site_ids(user) -> frozenset[int] | None:
    """The ids of the sites `user` may see, or None for every site."""
    if user is None or not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return None
    names = list(user.groups.values_list("name", flat=True))
    if OWNER_GROUP in names:
        return None
    keys = [n[len(SITE_GROUP_PREFIX) :] for n in names if n.startswith(SITE_GROUP_PREFIX)]
    if not keys:
        return None
    return frozenset(Site.objects.filter(key__in=keys).values_list("pk", flat=True))


def queryset_for_staff(queryset: QuerySet, user, *, site_field: str = "site_id") -> QuerySet:
    """`queryset` narrowed to the sites `user` may see."""
    ids = staff_site_ids(user)
    return queryset if ids is None else queryset.filter(**{f"{site_field}__in": ids})
