"""Embedded single-machine defaults: SQLite, in-memory channel layer, filesystem broker."""

from .base import *  # noqa: F403
from .base import LOGGING, STATIC_ROOT, STORAGES, env

DEBUG = env.bool("DEBUG", default=True)

# WhiteNoise serves the source folders here (WHITENOISE_USE_FINDERS). Pointed at a STATIC_ROOT
# that `collectstatic` has not created, it warns "No directory at" in every process
# (whitenoise#215), so it gets the folder only once there is one. `collectstatic` (the image
# build) still writes to $STATIC_ROOT: the storage is given the folder directly.
STORAGES = {
    **STORAGES,
    "staticfiles": {**STORAGES["staticfiles"], "OPTIONS": {"location": str(STATIC_ROOT)}},
}
if not STATIC_ROOT.is_dir():
    STATIC_ROOT = None

# A terminal, not a log collector: one readable line per record (LOG_FORMAT=json for JSON).
LOGGING["handlers"]["console"]["formatter"] = env("LOG_FORMAT", default="text")
# `manage.py demo` prints one banner once every process listens; Daphne's and Celery's own
# start-up lines ("Listening on", "HTTP/2 support not enabled" (it needs TLS, which a proxy
# terminates), "celery@host ready") would repeat it. Their warnings and errors still show.
# SERVER_LOG_LEVEL=INFO brings those lines back (task received/succeeded, for debugging).
_server_level = env("SERVER_LOG_LEVEL", default="WARNING")
LOGGING["loggers"].update({"daphne": {"level": _server_level}, "celery": {"level": _server_level}})
