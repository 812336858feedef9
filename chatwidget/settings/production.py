"""Production: every secret from the environment, no silent defaults, secure transport."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DATABASES, env

DEBUG = False
SECRET_KEY = env("SECRET_KEY")  # no default: fails at start-up with a clear message
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
if not env("REDIS_URL", default=""):
    raise ImproperlyConfigured(
        "Set REDIS_URL in production: the channel layer, cache and broker need Redis "
        "for more than one process."
    )
if DATABASES["default"]["ENGINE"].endswith("sqlite3") and not env.bool(
    "ALLOW_SQLITE", default=False
):
    raise ImproperlyConfigured("Set DATABASE_URL to PostgreSQL in production (or ALLOW_SQLITE=1).")
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
WHITENOISE_USE_FINDERS = False
