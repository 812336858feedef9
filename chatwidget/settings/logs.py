"""Logging: one configuration for Django, the Celery worker and Python's warnings, never
message text (chatwidget/logging.py scrubs it). Read into base.py; LOG_LEVEL and LOG_FORMAT
are in deploy/README.md ("Configuration")."""

import environ

env = environ.Env()

LOG_LEVEL = env("LOG_LEVEL", default="INFO")
# json: one JSON object a line, for log collectors; text: one readable line (local.py's default).
LOG_FORMAT = env("LOG_FORMAT", default="json")
# Django, the Celery worker (chatwidget/celery.py) and Python's warnings all go through this one
# configuration, so a process prints one format.
LOGGING_CONFIG = "chatwidget.logging.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"scrub": {"()": "chatwidget.logging.ScrubTextFilter"}},
    "formatters": {
        "json": {"()": "chatwidget.logging.JsonFormatter"},
        "text": {"()": "chatwidget.logging.TextFormatter"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["scrub"]}
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own console handler (DEBUG only) would print each line a second time,
        # e.g. every 404: its records go to the root handler only.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.db.backends": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "httpx2": {"level": "WARNING"},  # the openai SDK's HTTP library from openai 3 on
        "openai": {"level": "WARNING"},
    },
}
