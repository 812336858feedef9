"""Connecting a site to its shop platform, checked at once.

`connection_connect` refuses what cannot work before anything is stored: a variable that is
not set or names one of the server's own secrets, a URL the egress guard refuses, and
whatever the platform itself says (a wrong URL, wrong or expired credentials, a missing
scope, 429). It stores the variables' names, never their values, and the connection's
knowledge source; the site's tool definitions are forgotten so the order lookup appears.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from chatwidget.platform.egress import url_problem
from chatwidget.shop.actions.tools import site_actions_forget
from chatwidget.shop.models.action_request import ENV_DENIED_RE
from chatwidget.shop.models.connections import Connection
from chatwidget.shop.models.knowledge import KnowledgeSource
from chatwidget.shop.platforms.base import PlatformError
from chatwidget.shop.platforms.registry import NEEDED_ENV, platform_build
from chatwidget.sites.models import Site

ENV_NAME_RE = re.compile(r"^[A-Z_][A-Z0-9_]{0,99}$")
OPTIONS = {"token_env": "--token-env", "key_env": "--key-env", "secret_env": "--secret-env"}


class ConnectError(Exception):
    """The connection cannot be made; `str(exc)` says why, for the person connecting."""


def _names_check(platform: str, names: dict[str, str]) -> None:
    for field_name in NEEDED_ENV[Connection.Platform(platform)]:
        if not names.get(field_name):
            raise ConnectError(
                _("%(platform)s needs %(option)s NAME.")
                % {"platform": Connection.Platform(platform).label, "option": OPTIONS[field_name]}
            )
    for name in filter(None, names.values()):
        if not ENV_NAME_RE.match(name):
            raise ConnectError(_("%(name)s is not a variable name.") % {"name": name})
        if ENV_DENIED_RE.fullmatch(name):
            raise ConnectError(
                _("%(name)s is one of the server's own secrets and is never sent.") % {"name": name}
            )


def connection_check(*, platform: str, base_url: str, **names: str) -> None:
    """Raise ConnectError unless the platform answers these settings as it should."""
    if platform not in Connection.Platform.values:
        raise ConnectError(_("Unknown platform %(name)s.") % {"name": platform})
    _names_check(platform, names)
    problem = url_problem(base_url)
    if problem:
        raise ConnectError(problem)
    label = Connection.Platform(platform).label
    try:
        platform_build(platform=platform, base_url=base_url, **names).check()
    except PlatformError as exc:
        raise ConnectError(
            exc.explain(platform=label, names=", ".join(filter(None, names.values())))
        ) from None


def connection_source(*, connection: Connection) -> KnowledgeSource:
    """The knowledge source that holds the connection's documents."""
    source, _created = KnowledgeSource.objects.get_or_create(
        site_id=connection.site_id,
        location=f"{connection.platform}: {connection.base_url}",
        defaults={"kind": KnowledgeSource.Kind.PLATFORM},
    )
    return source


def connection_connect(
    *, site: Site, platform: str, base_url: str, check: bool = True, **names: Any
) -> Connection:
    """Connect (or re-connect) the site; raises ConnectError with a reason."""
    base_url = base_url.strip().rstrip("/")
    names = {k: (names.get(k) or "").strip() for k in OPTIONS}
    if check:
        connection_check(platform=platform, base_url=base_url, **names)
    with transaction.atomic():
        connection, _created = Connection.objects.update_or_create(
            site=site,
            defaults={"platform": platform, "base_url": base_url, "enabled": True, **names},
        )
        connection_source(connection=connection)
    site_actions_forget(site_id=site.pk)
    return connection
