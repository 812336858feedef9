"""Settings for the pytest suite. Integration tests opt into PostgreSQL/Redis themselves."""

import os
import secrets

from .base import *  # noqa: F403
from .base import BASE_DIR, STATIC_ROOT, env

# `make test` points TEST_DATABASE_URL at PostgreSQL where one is running (CI does); without
# it the suite runs on in-memory SQLite and the PostgreSQL-only tests skip with a message.
DATABASES = {"default": env.db("TEST_DATABASE_URL", default="sqlite:///:memory:")}
# Each run gets its own test database unless TEST_DB_NAME names one, so two suites can run
# side by side on one server. The name goes into the environment so that processes the
# tests start (workers, servers) see the same one.
if "sqlite" not in DATABASES["default"]["ENGINE"]:
    if not os.environ.get("TEST_DB_NAME"):
        os.environ["TEST_DB_NAME"] = f"test_chatwidget_{os.getpid()}_{secrets.token_hex(3)}"
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DB_NAME"]}
# Redis for the tests that need a real one (channel layer across processes, Celery broker).
TEST_REDIS_URL = env("TEST_REDIS_URL", default="")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_ALWAYS_EAGER = False
CELERY_BROKER_URL = "memory://"
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
if os.environ.get("TEST_WORKER_EMAIL_URL"):  # a worker the e-mail test starts sends by SMTP
    vars().update(env.email_url("TEST_WORKER_EMAIL_URL"))
# a worker a test starts on a queue of its own queues its follow-up tasks there too
if os.environ.get("TEST_WORKER_QUEUE"):
    CELERY_TASK_DEFAULT_QUEUE = os.environ["TEST_WORKER_QUEUE"]
STAFF_PRESENCE_REQUIRED = False  # tests that need presence turn it on
OPENAI_API_KEY = ""
DEMO_MODE = True
# The embedded model costs 0.1 s to load per process and tens of ms per query and passage:
# the suite runs full text unless a test turns it on (tests/shop/knowledge/test_knowledge_dense.py);
# EMBEDDING_MODEL in the environment wins (the held-out evaluation sets it).
EMBEDDING_MODEL = env("EMBEDDING_MODEL", default="")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "knowledge": {"BACKEND": "chatwidget.platform.storage.UploadFolderStorage"},
    "visitor_uploads": {"BACKEND": "chatwidget.platform.storage.VisitorUploadFolderStorage"},
}
# Static files come from the source folders (finders); a STATIC_ROOT that `collectstatic` never
# created would make WhiteNoise warn "No directory at" in every test that makes a request.
if not STATIC_ROOT.is_dir():
    STATIC_ROOT = None
LLM_MAX_RETRIES = 1
RATE_LIMIT_PER_SESSION = "20/60"
RATE_LIMIT_PER_ADDRESS = "60/60"
TEST_ARTIFACTS = BASE_DIR / "test-artifacts"
# The tests' own servers (fake shop, webhook receivers, knowledge pages) listen on 127.0.0.1;
# tests of the egress guard set these to [] or stub the resolver.
EGRESS_ALLOW_HOSTS = ["127.0.0.1", "localhost"]
SHOP_ACTION_ENV_ALLOW = ["SHOP_API_TOKEN", "TEST_SHOP_API_KEY", "DEMO_SHOP_API_KEY"]
