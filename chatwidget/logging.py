"""Structured logs that never carry message text.

Our own code logs ids, counts and kinds only. As a second line of defence, the filter
replaces exception messages (which may quote user input) with their type, and drops any
`extra` field whose name suggests text.
"""

import json
import logging
import logging.config
import traceback

_TEXT_KEYS = {
    "text",
    "content",
    "message_text",
    "prompt",
    "messages",
    "body",
    "data",
}  # Celery's failure lines carry their whole context (traceback text) here
# Celery's format arguments (celery.app.trace): exception text, traceback, return value and
# the task's arguments may quote what a visitor wrote.
_CELERY_TEXT_ARGS = {"exc", "traceback", "return_value", "args", "kwargs"}
_STD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None)).keys()) | {"message", "asctime"}


def _scrub_arg(value):
    """An exception as its type: its message may quote user input (Daphne logs
    "Exception inside application: %s" with the exception, PostgreSQL's error context
    quotes the row)."""
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: [scrubbed]"
    return value


class ScrubTextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        for key in list(vars(record)):
            if key in _TEXT_KEYS and key not in _STD:
                setattr(record, key, "[scrubbed]")
        record.msg = _scrub_arg(record.msg)
        if isinstance(record.args, dict):
            record.args = {
                k: "[scrubbed]" if k in _CELERY_TEXT_ARGS else _scrub_arg(v)
                for k, v in record.args.items()
            }
        elif isinstance(record.args, tuple):
            record.args = tuple(_scrub_arg(arg) for arg in record.args)
        if record.exc_info and record.exc_info[1] is not None:
            exc_type, exc, tb = record.exc_info
            frames = "".join(traceback.format_tb(tb)) if tb else ""
            record.exc_text = (
                f"{frames}{exc_type.__name__ if exc_type else 'Exception'}: [scrubbed]"
            )
            record.exc_info = None
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data = {
            "ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "event": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STD and not key.startswith("_"):
                data[key] = value
        if record.exc_text:
            data["exc"] = record.exc_text
        return json.dumps(data, default=str)


class TextFormatter(logging.Formatter):
    """One readable line per record for a terminal (the demo): time, level, logger, event,
    then the same extra fields as the JSON lines as key=value."""

    def format(self, record: logging.LogRecord) -> str:
        extras = " ".join(
            f"{key}={value}"
            for key, value in vars(record).items()
            if key not in _STD and not key.startswith("_")
        )
        line = (
            f"{self.formatTime(record, '%H:%M:%S')} {record.levelname:<7} {record.name}: "
            f"{record.getMessage()}{' ' + extras if extras else ''}"
        )
        if record.exc_text:
            line += "\n" + record.exc_text
        return line


def configure(config: dict) -> None:
    """Django's LOGGING_CONFIG: the dictionary, plus Python's warnings routed through it
    (`py.warnings`), so a library's warning is printed in the same format as everything else."""
    logging.config.dictConfig(config)
    logging.captureWarnings(True)
