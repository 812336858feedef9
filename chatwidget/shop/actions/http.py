"""The HTTP request of one action to the shop's API (httpx, the openai SDK's own HTTP
library), and how its answer is classified: JSON, or one of the failures the model is told.

Secrets: header values and the URL's path and query are templates; `{env:NAME}` is replaced
by the environment variable NAME of this process at call time, when the operator allows the
name (chatwidget/shop/models/action_request.py; checked again here, before every call). The
URL's host is never a template; argument values are percent-encoded whole (`/`, `?`, `#`
and `.` included), so a value cannot change the path. The request goes through the egress
guard (chatwidget/platform/egress.py): no loopback, private or metadata address, no
redirect followed. Nothing here logs a header, a URL or a body.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from dataclasses import dataclass
from urllib.parse import quote

from chatwidget.platform.egress import EgressRefused, egress_async_client, httpx
from chatwidget.shop.actions.answer import AnswerMalformed, answer_parse
from chatwidget.shop.models.action_request import ENV_RE, URL_ARG_RE, request_problem
from chatwidget.shop.models.actions import ActionCall

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 256 * 1024  # a shop's answer larger than this is not read further
Outcome = ActionCall.Outcome


@dataclass(frozen=True)
class HttpResult:
    outcome: str
    data: object = None  # the parsed JSON when outcome is ok
    status_code: int | None = None
    latency_ms: int = 0


class SecretMissing(Exception):
    """A header names an environment variable that is not set."""


def _env(match) -> str:
    secret = os.environ.get(match.group(1))
    if not secret:
        raise SecretMissing(match.group(1))
    return secret


def headers_resolve(headers: dict[str, str]) -> dict[str, str]:
    return {name: ENV_RE.sub(_env, template) for name, template in headers.items()}


def _segment(value: object) -> str:
    """One value as part of one path segment: every byte that could end it, start a query
    or fragment, or make a dot segment (`..`, which HTTP clients resolve) is escaped."""
    return quote(str(value), safe="").replace(".", "%2E")


def request_build(*, config: dict, arguments: dict) -> tuple[str, dict, dict | None]:
    """(url, query parameters, JSON body) for the arguments: the URL's {names} are filled
    (each value quoted as one path segment), the rest go to the query (GET) or body (POST)."""
    in_url = set(URL_ARG_RE.findall(config["url"]))
    url = URL_ARG_RE.sub(lambda m: _segment(arguments.get(m.group(1), "")), config["url"])
    url = ENV_RE.sub(lambda m: quote(_env(m), safe=""), url)
    rest = {k: v for k, v in arguments.items() if k not in in_url}
    if config["method"] == "POST":
        return url, {}, rest
    return url, {k: v if isinstance(v, str) else json.dumps(v) for k, v in rest.items()}, None


async def action_request(*, config: dict, arguments: dict) -> HttpResult:
    """Make the request; never raises for what the shop or the network does."""
    problem = request_problem(url=config["url"], headers=config.get("headers") or {})
    if problem:  # saved before a rule existed, or the operator's lists changed since
        log.warning("shop action not made", extra={"reason": problem})
        return HttpResult(Outcome.NOT_CONFIGURED)
    try:
        headers = headers_resolve(config.get("headers") or {})
        url, params, body = request_build(config=config, arguments=arguments)
    except SecretMissing:
        return HttpResult(Outcome.NOT_CONFIGURED)
    started = time.monotonic()

    def took() -> int:
        return int((time.monotonic() - started) * 1000)

    try:  # the transport's timeout bounds each read; this one the whole request
        async with (
            asyncio.timeout(config["timeout"]),
            egress_async_client(timeout=config["timeout"], deadline_s=config["timeout"]) as client,
            client.stream(
                config["method"],
                url,
                params=params or None,
                json=body,
                headers={"Accept": "application/json", **headers},
            ) as resp,
        ):
            raw = b""
            async for chunk in resp.aiter_bytes():
                raw += chunk
                if len(raw) > MAX_BODY_BYTES:
                    break
    except (httpx.TimeoutException, TimeoutError):
        return HttpResult(Outcome.TIMEOUT, latency_ms=took())
    except EgressRefused as exc:  # the owner's host is this server's network: not contacted
        log.warning("shop action refused by the egress guard", extra={"reason": str(exc)})
        return HttpResult(Outcome.NETWORK, latency_ms=took())
    except (httpx.HTTPError, httpx.InvalidURL, ValueError):  # unreachable, refused, bad URL
        return HttpResult(Outcome.NETWORK, latency_ms=took())
    if resp.status_code >= 400:
        return HttpResult(Outcome.HTTP_ERROR, status_code=resp.status_code, latency_ms=took())
    try:
        data = answer_parse(raw[:MAX_BODY_BYTES])
    except AnswerMalformed:  # not JSON, or nested too deep (a RecursionError otherwise)
        return HttpResult(Outcome.MALFORMED, status_code=resp.status_code, latency_ms=took())
    return HttpResult(Outcome.OK, data=data, status_code=resp.status_code, latency_ms=took())
