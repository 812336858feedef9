"""The settings of the browser stacks' processes (tests/e2e/stacks.py): the local settings
`make demo` runs, with a fast password hasher. Django's default (PBKDF2, a million rounds) costs
about half a second of CPU per staff member made and per login, and the browser tests make and
log in staff in several modules: about 4 of their 140 CPU-s (tests.bench.suite_cpu). Nothing here
tests password hashing (Django's own tests do); `manage.py demo` itself keeps the default
(tests/integration/test_demo.py)."""

from chatwidget.settings.local import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
