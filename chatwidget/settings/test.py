"""Settings for the pytest suite. Integration tests opt into PostgreSQL/Redis themselves."""

from .base import *  # noqa: F403
from .base import BASE_DIR, env

# `make test` points TEST_DATABASE_URL at PostgreSQL where one is running (CI does); without
# it the suite runs on in-memory SQLite and the PostgreSQL-only tests skip with a message.
DATABASES = {
    "default": env.db("TEST_DATABASE_URL", default="sqlite:///:memory:"),
}
if env("TEST_DB_NAME", default=""):  # parallel runs on one server need their own test DB
    DATABASES["default"]["TEST"] = {"NAME": env("TEST_DB_NAME")}
# Redis for the tests that need a real one (channel layer across processes, Celery broker).
TEST_REDIS_URL = env("TEST_REDIS_URL", default="")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_ALWAYS_EAGER = False
CELERY_BROKER_URL = "memory://"
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
OPENAI_API_KEY = ""
DEMO_MODE = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LLM_MAX_RETRIES = 1
RATE_LIMIT_PER_SESSION = "20/60"
RATE_LIMIT_PER_ADDRESS = "60/60"
TEST_ARTIFACTS = BASE_DIR / "test-artifacts"
