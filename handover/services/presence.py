"""Staff availability for a site: presence (chatwidget.platform.presence) of a staff user
who may take the site's cases.

"Someone is available" for a site means: within the site's staff hours AND at least one
staff user who may take the site's cases has a staff socket open. Without presence a visitor
inside staff hours would be told "a member of the team will reply" while nobody is there.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Q

from chatwidget.platform.presence import staff_present_user_ids
from chatwidget.sites.access import staff_site_ids


def staff_available(*, site_id: int) -> bool:
    """Is a staff user who may take this site's cases online now? (Staff hours are checked
    by the caller.) With STAFF_PRESENCE_REQUIRED off, staff hours alone decide."""
    if not getattr(settings, "STAFF_PRESENCE_REQUIRED", True):
        return True
    perm = Permission.objects.filter(content_type__app_label="handover", codename="change_case")
    users = list(
        get_user_model()
        .objects.filter(is_active=True, is_staff=True)
        .filter(
            Q(is_superuser=True) | Q(groups__permissions__in=perm) | Q(user_permissions__in=perm)
        )
        .distinct()
    )
    present = staff_present_user_ids(user_ids=[u.pk for u in users])
    for user in users:
        if user.pk in present:
            ids = staff_site_ids(user)
            if ids is None or site_id in ids:
                return True
    return False
