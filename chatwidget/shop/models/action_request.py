"""What an action's request may contain, checked when the Owner saves it and again when it is
made (a row saved before a rule existed, a setting changed since).

- The URL: http or https; its scheme, host and port are typed in, never `{placeholders}` (a
  visitor's argument in the host would choose the server); a host that is this server or an
  address the egress guard refuses is said at once.
- Secrets come from environment variables, `{env:NAME}` in a header or in the URL's path or
  query, and only from names the operator listed in SHOP_ACTION_ENV_ALLOW. The platform's
  own secrets (SECRET_KEY, the database, Redis, the model's key, e-mail) are never sent,
  listed or not.
- A header value never holds a typed-in secret: a header named like a credential takes its
  value from a variable, and a value of any header that looks like a key (a long run of
  letters and digits, a known key prefix) is refused. Header values are stored in the
  database and in its backups, so a secret there is a secret leaked; the variable costs the
  Owner one line in the server's environment.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from chatwidget.platform.egress import url_problem

ENV_RE = re.compile(r"\{env:([A-Z_][A-Z0-9_]{0,99})\}")
URL_ARG_RE = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}")
CREDENTIAL_HEADER_RE = re.compile(
    r"auth|key|token|secret|passw|passphrase|cookie|session|signature|credential",
    re.IGNORECASE,
)
# The platform's own configuration: never sent to a shop, whatever SHOP_ACTION_ENV_ALLOW says.
ENV_DENIED_RE = re.compile(
    r"SECRET_KEY|DJANGO_\w*|\w*DATABASE\w*|DB_\w+|PG\w*|POSTGRES\w*|MYSQL\w*|REDIS\w*|"
    r"CELERY\w*|CACHE_URL|OPENAI\w*|AZURE_OPENAI\w*|ANTHROPIC\w*|LLM_\w*|EMBEDDING\w*|"
    r"EMAIL\w*|SMTP\w*|AWS_\w+|GOOGLE_APPLICATION_CREDENTIALS|SENTRY_DSN|TEST_\w*_URL"
)
_SCHEME_WORDS = frozenset({"bearer", "basic", "token", "apikey", "digest"})
_KEY_PREFIX = re.compile(
    r"^(?:[sprk]k_(?:live|test)_|gh[pousr]_|github_pat_|xox[abprs]-|AKIA[0-9A-Z]{8}|"
    r"eyJ[\w-]{6,}|glpat-|AIza[\w-]{10})"
)
_KEYISH = re.compile(r"[A-Za-z0-9_\-+/=~]{16,}")


def env_name_problem(name: str) -> str | None:
    """Why `{env:name}` may not be sent, or None."""
    if ENV_DENIED_RE.fullmatch(name):
        return _("%(name)s is one of the server's own secrets and is never sent.") % {"name": name}
    if name not in getattr(settings, "SHOP_ACTION_ENV_ALLOW", []):
        return _(
            "%(name)s is not among the variables the operator allows actions to send "
            "(SHOP_ACTION_ENV_ALLOW)."
        ) % {"name": name}
    return None


def _env_problem(text: str) -> str | None:
    for name in ENV_RE.findall(text):
        problem = env_name_problem(name)
        if problem:
            return problem
    return None


def url_template_problem(template: str) -> str | None:
    """Why the URL template cannot be used, or None (its arguments are checked elsewhere)."""
    parts = urlsplit(template or "")
    if parts.scheme not in ("http", "https"):
        return _("An http:// or https:// URL.")
    if "{" in parts.netloc or "}" in parts.netloc:
        return _(
            "The host and port are typed in: no placeholders before the path (an argument "
            "there would let the visitor choose the server)."
        )
    problem = url_problem(template)
    if problem:
        return problem + _(" (the operator may allow the host in EGRESS_ALLOW_HOSTS)")
    return _env_problem(template)


def value_looks_secret(value: str) -> bool:
    """Whether a header value's typed-in part looks like a key, token or password."""
    literal = ENV_RE.sub(" ", value)
    for token in re.split(r"[\s,;]+", literal):
        if not token or token.lower() in _SCHEME_WORDS:
            continue
        if _KEY_PREFIX.match(token):
            return True
        if _KEYISH.fullmatch(token) and re.search(r"\d", token) and re.search(r"[A-Za-z]", token):
            return True
    return False


def headers_problem(headers) -> str | None:
    """Why the headers cannot be stored or sent, or None."""
    if not isinstance(headers, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        return _('Header names and values, e.g. "Accept: application/json".')
    for name, value in headers.items():
        if "\r" in value or "\n" in value or "\r" in name or "\n" in name:
            return _("%(name)s: a header is one line.") % {"name": name}
        literal = ENV_RE.sub("", value).strip()
        if CREDENTIAL_HEADER_RE.search(name) and not ENV_RE.search(value):
            return _(
                "%(name)s looks like a secret: write {env:VARIABLE} and set the "
                "variable on the server."
            ) % {"name": name}
        if CREDENTIAL_HEADER_RE.search(name) and any(
            word.lower() not in _SCHEME_WORDS for word in literal.split()
        ):
            return _("%(name)s may hold only {env:VARIABLE} (and 'Bearer ').") % {"name": name}
        if value_looks_secret(value):
            return _(
                "The value of %(name)s looks like a secret: write {env:VARIABLE} and set "
                "the variable on the server (secrets are never stored here)."
            ) % {"name": name}
        problem = _env_problem(value)
        if problem:
            return problem
    return None


def request_problem(*, url: str, headers) -> str | None:
    """The checks of the URL and headers together, as made before each call."""
    return url_template_problem(url) or headers_problem(headers)
