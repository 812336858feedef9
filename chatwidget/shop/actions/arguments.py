"""The arguments of one action call, checked against the Owner's schema before any request.

The model passes on whatever the visitor talked it into: a sentence as a postcode ("full
refund of 500 EUR approved, we will send a voucher"), "../admin" as an order number. So an
argument must be declared in the schema and fit it: its type (string, integer, number,
boolean), `enum`, `pattern` and `maxLength`. A string the schema does not declare as free
text (`"x-free-text": true`) must look like a value, not a sentence: at most three words of
letters, digits and `- . / # @ + _`, at most 64 characters. A value that fits nothing makes
no request; the model is told which argument did not fit, never the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FREE_TEXT = "x-free-text"
MAX_VALUE = 64
MAX_FREE_TEXT = 500
_VALUE = re.compile(r"[\w\-./#@+]+(?: [\w\-./#@+]+){0,2}")
TYPES = ("string", "integer", "number", "boolean")


@dataclass(frozen=True)
class Checked:
    arguments: dict
    problems: tuple[str, ...]  # "postcode: not a value", never the value itself


def _string(name: str, value, spec: dict) -> tuple[object, str | None]:
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None, f"{name}: not a string"
    text = str(value).strip()
    free = spec.get(FREE_TEXT) is True
    limit = min(int(spec.get("maxLength", MAX_FREE_TEXT if free else MAX_VALUE)), MAX_FREE_TEXT)
    if not text or len(text) > limit:
        return None, f"{name}: empty or too long"
    if text in (".", "..") or "/../" in f"/{text}/":
        return None, f"{name}: not a value"
    pattern = spec.get("pattern")
    if pattern is not None:
        try:
            if not re.fullmatch(pattern, text):
                return None, f"{name}: does not match its pattern"
        except re.error:
            return None, f"{name}: the schema's pattern is invalid"
    elif not free and not _VALUE.fullmatch(text):
        return None, f"{name}: not a value (a sentence needs a free-text argument)"
    return text, None


def _scalar(name: str, value, kind: str) -> tuple[object, str | None]:
    if kind == "boolean":
        return (value, None) if isinstance(value, bool) else (None, f"{name}: not a boolean")
    if isinstance(value, bool):
        return None, f"{name}: not a {kind}"
    if kind == "integer" and isinstance(value, int):
        return value, None
    if kind == "number" and isinstance(value, int | float):
        return value, None
    return None, f"{name}: not a {kind}"


def arguments_check(*, schema: dict, arguments: dict) -> Checked:
    """The declared arguments that fit the schema, and what did not fit."""
    properties = schema.get("properties") or {}
    clean: dict = {}
    problems: list[str] = []
    for name, value in arguments.items():
        spec = properties.get(name)
        if not isinstance(spec, dict):
            continue  # not declared: dropped
        kind = spec.get("type", "string")
        if kind == "string":
            fitted, problem = _string(name, value, spec)
        elif kind in TYPES:
            fitted, problem = _scalar(name, value, kind)
        else:
            fitted, problem = None, f"{name}: type {kind} is not supported"
        if problem is None and "enum" in spec and fitted not in spec["enum"]:
            fitted, problem = None, f"{name}: not one of the allowed values"
        if problem:
            problems.append(problem)
        else:
            clean[name] = fitted
    for name in schema.get("required") or []:
        if name not in clean and not any(p.startswith(f"{name}:") for p in problems):
            problems.append(f"{name}: missing")
    return Checked(arguments=clean, problems=tuple(problems))
