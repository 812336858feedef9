# The two commands of README.md:
#   make demo   set everything up and run the product with a demo shop (embedded defaults)
#   make test   set everything up and run the whole test suite
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
export TIKTOKEN_CACHE_DIR ?= $(abspath ../shared/tiktoken)
# Real PostgreSQL and Redis for the tests where they run (CI has both); else SQLite and skips.
export TEST_DATABASE_URL ?= $(shell pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && echo postgres://postgres@127.0.0.1:5432/test)
export TEST_REDIS_URL ?= $(shell $(PYTHON) -c "import socket; socket.create_connection(('127.0.0.1', 6379), 1)" 2>/dev/null && echo redis://127.0.0.1:6379/13)

.PHONY: demo test test-long setup setup-test browser lint bench clean messages widget

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Installs run again only when pyproject.toml changed (a stamp in the virtualenv).
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

setup: $(VENV)/.installed
	$(PY) -m chatwidget.i18n

setup-test: $(VENV)/.installed-test
	$(PY) -m chatwidget.i18n
	@if command -v npm >/dev/null 2>&1; then cd .widget-build && npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm missing: the widget build check and the axe-core tests will be skipped"; fi

# Rebuild static/widget/v1/*.js from static/widget/src/ (esbuild; commit both).
widget:
	cd .widget-build && npm ci --no-audit --no-fund --loglevel=error && node build.mjs

# Real Chromium for the browser tests, from Debian (never a downloaded browser build).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium missing: browser tests will be skipped (sudo apt-get install chromium)"; fi; fi

demo: setup
	$(PY) manage.py demo

lint: setup-test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy --no-error-summary chatwidget memory handover | $(VENV)/bin/mypy-baseline filter --no-colors --hide-stats --baseline-path .ci/mypy-baseline.txt
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run
	@if [ -d .widget-build/node_modules ]; then cd .widget-build && npm run --silent lint && node --test --test-reporter=dot ../tests/widget/js/*.test.mjs; \
	else echo "npm missing: the widget's ESLint and JS unit tests are skipped"; fi

# The suite runs in TEST_WORKERS processes (pytest-xdist). Worker N uses the Redis database
# of TEST_REDIS_URL plus N (default 13 to 15) and a PostgreSQL test database of its own; the
# tests that start servers, workers or a browser keep to one process per group
# (tests/conftest.py). `--durations` prints the slowest tests.
# Three processes on two cores: the integration and browser tests mostly wait on the
# processes they start, so a third worker keeps both cores busy (measured: 234 s against 339 s
# with two on this 2-core machine).
TEST_WORKERS ?= 3
PYTEST_RUN := $(PY) -m pytest -q -rs -n $(TEST_WORKERS) --durations=25
test: setup-test browser lint
	$(PYTEST_RUN) || [ $$? = 5 ]

# The long run: the whole suite with 20 kills in the fault tests instead of 5.
test-long: setup-test browser lint
	FAULT_RUNS=20 $(PYTEST_RUN) || [ $$? = 5 ]

bench: setup-test
	$(PY) -m pip install --quiet -e '.[test,bench]'
	$(PY) -m tests.bench.run

clean:
	rm -rf .run staticfiles test-artifacts

# Refresh the German catalogue after changing marked strings (needs GNU gettext), then the
# visitor-only catalogues (fr, es, it, nl, pl) from its visitor-facing messages: translate
# what they add (tests/project/test_catalogues.py fails until then).
messages: setup-test
	$(PY) manage.py makemessages -l de --ignore=.venv --ignore=tests --ignore=deploy --ignore=staticfiles --ignore=.widget-build --no-obsolete
	$(PY) -m chatwidget.i18n --visitor
