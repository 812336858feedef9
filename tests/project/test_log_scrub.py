"""Logs without message text, proven (issue 15): text with a marker goes through the failure
paths (a task failing with a database error that quotes it, a task failing with it in the
exception, Daphne's "Exception inside application", the model's error event), and the output of the configured log handler (Django's LOGGING: the same
filter and formatter the web and worker processes use) holds no marker."""

import asyncio
import io
import logging

import pytest
from celery import shared_task
from django.db import connection

from tests.fakellm import Raw

MARKER = "ZEBRA-7731-marker"


@shared_task(name="tests.log_scrub.fail_with_text")
def fail_with_text(text: str) -> None:
    raise ValueError(f"could not store {text!r}")


@shared_task(name="tests.log_scrub.fail_in_database")
def fail_in_database(text: str) -> None:
    with connection.cursor() as cursor:  # PostgreSQL and SQLite quote the bad value
        cursor.execute("SELECT CAST(%s AS INTEGER) + 'x'", [text])


@pytest.fixture
def log_output():
    """Everything the configured console handler writes during the test."""
    handlers = [
        h
        for h in logging.getLogger().handlers
        if isinstance(h, logging.StreamHandler) and h.filters
    ]
    assert handlers, "Django's LOGGING console handler (with the scrub filter) is configured"
    buffer = io.StringIO()
    previous = [h.setStream(buffer) for h in handlers]
    root_level = logging.getLogger().level
    logging.getLogger().setLevel(logging.INFO)
    try:
        yield buffer
    finally:
        logging.getLogger().setLevel(root_level)
        for handler, stream in zip(handlers, previous, strict=True):
            handler.setStream(stream)


@pytest.mark.django_db(transaction=True)
def test_celery_task_failures_leave_no_text_in_logs(log_output):
    fail_with_text.apply(args=[MARKER])
    fail_in_database.apply(args=[MARKER])
    out = log_output.getvalue()
    assert "fail_with_text" in out and "fail_in_database" in out, out  # the failures are logged
    assert "ValueError" in out, out
    assert MARKER not in out


def test_daphne_exception_inside_application_leaves_no_text(log_output):
    from daphne.server import Server

    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()
        future.set_exception(RuntimeError(f"bad frame {MARKER}"))
        server = Server(application=None, endpoints=["tcp:port=0"])  # never started
        server.connections = {object(): {"application_instance": future, "disconnected": 1.0}}
        server.application_checker()  # Daphne's own code logs the exception
    finally:
        loop.close()
    out = log_output.getvalue()
    assert "Exception inside application" in out and "RuntimeError" in out, out
    assert MARKER not in out


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_model_error_with_text_leaves_no_text_in_logs(site, connect, fake_llm, log_output):
    fake_llm.script.append(Raw(events=['{"error": {"message": "cannot answer: ' + MARKER + '"}}']))
    c = await connect(site.key)
    await c.hello()
    await c.say(f"Where is my parcel {MARKER}?", "m1")
    error, _ = await c.recv_until("error")
    assert error["code"] == "model_unavailable"
    assert MARKER not in log_output.getvalue()


def test_a_django_record_is_printed_once_by_the_root_handler():
    """Django's DEBUG console handler on the "django" logger printed every 404 a second time
    (issue 27); its records reach the root handler only."""
    import logging

    django_logger = logging.getLogger("django")
    assert django_logger.handlers == [] and django_logger.propagate
