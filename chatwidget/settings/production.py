"""Production: every secret from the environment, no silent defaults, secure transport.

Beyond one machine: PostgreSQL (`DATABASE_URL`), Redis (`REDIS_URL`: the channel layer, so
every Daphne process reaches every tab of a conversation, and the cache, which holds rate
limits and condensation locks) and Celery on Redis (`CELERY_BROKER_URL`, default `REDIS_URL`).
A missing or unsafe value stops the start with ImproperlyConfigured and a message naming it.
Every variable is documented in deploy/README.md ("Configuration").
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import CELERY_BROKER_URL, CONTENT_SECURITY_POLICY, DATABASES, PUBLIC_URL, REDIS_URL, env
from .operations import long_tasks_check, pooler_apply
from .outbound import VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY, VAPID_SUBJECT

DEBUG = False

# --- secrets and hosts: no defaults -------------------------------------------------------------
SECRET_KEY = env("SECRET_KEY")  # no default: ImproperlyConfigured "Set the SECRET_KEY ..."
if len(SECRET_KEY) < 32 or SECRET_KEY.startswith(("insecure", "django-insecure")):
    raise ImproperlyConfigured(
        "SECRET_KEY is too short or a placeholder: use 50 random characters, e.g. "
        'python3 -c "import secrets; print(secrets.token_urlsafe(50))"'
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")  # no default; health probes need no entry here
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set ALLOWED_HOSTS to the host names this service answers to.")

# --- PostgreSQL -------------------------------------------------------------------------------
if DATABASES["default"]["ENGINE"].endswith("sqlite3") and not env.bool(
    "ALLOW_SQLITE", default=False
):
    raise ImproperlyConfigured("Set DATABASE_URL to PostgreSQL in production (or ALLOW_SQLITE=1).")
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # a connection broken by a restart is replaced
pooler_apply(DATABASES)  # DATABASE_POOLER=pgbouncer: no persistent conns, no server cursors
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # An unreachable database fails a request (and /readyz) in seconds instead of hanging it.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env.int("DATABASE_CONNECT_TIMEOUT", default=5)
    )

# --- Redis: channel layer, cache, broker ------------------------------------------------------
if not REDIS_URL:
    raise ImproperlyConfigured(
        "Set REDIS_URL in production: the channel layer, cache and broker need Redis "
        "for more than one process."
    )
if not CELERY_BROKER_URL.startswith(("redis://", "rediss://", "amqp://", "amqps://")):
    raise ImproperlyConfigured(
        "Set CELERY_BROKER_URL to Redis (or AMQP) in production; the embedded broker serves "
        "one machine only."
    )
# With REDIS_URL set, base.py builds the Redis channel layer and the django-redis cache
# (short timeouts, a retry across a Redis restart).
# Celery's own logging would bypass the JSON formatter and the text scrubber.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- Web Push (issue 32): both keys and a subject, or none (push off) ---------------------------
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY) or (VAPID_PUBLIC_KEY and not VAPID_SUBJECT):
    raise ImproperlyConfigured(
        "Set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT together (manage.py "
        "vapid_keys makes a pair), or none of them to turn Web Push alerts off."
    )

# --- transport security -----------------------------------------------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]  # answered earlier anyway (health.py)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[PUBLIC_URL] if PUBLIC_URL else [])

# Content-Security-Policy for our own pages (admin, the handover case page, the privacy page,
# the demo shop): scripts only from this origin, no inline script; websockets over TLS only
# (plain ws: stays allowed for a trial over http, SECURE_SSL_REDIRECT=false).
if SECURE_SSL_REDIRECT:
    CONTENT_SECURITY_POLICY = {
        **CONTENT_SECURITY_POLICY,
        "DIRECTIVES": {
            **CONTENT_SECURITY_POLICY["DIRECTIVES"],
            "connect-src": ["'self'", "wss:"],
            "upgrade-insecure-requests": True,
        },
    }

# --- static files: collected, hashed, compressed; served by whitenoise ------------------------
WHITENOISE_USE_FINDERS = False  # `collectstatic` ran at build time (the image does it)
WHITENOISE_AUTOREFRESH = False

# --- long tasks: the broker never hands out a task again while it may still run --------------
long_tasks_check(globals())
