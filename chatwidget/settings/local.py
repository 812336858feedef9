"""Embedded single-machine defaults: SQLite, in-memory channel layer, filesystem broker."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DEBUG", default=True)
