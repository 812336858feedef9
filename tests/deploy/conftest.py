"""The deploy tests read files and run external tools (docker-compose, nginx, kubectl); they
import nothing from Django and run with or without pytest-django (`-p no:django`)."""

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Replaces tests/conftest.py's autouse fixture of the same name, which clears Django's
    cache: these tests configure no Django settings."""
    yield
