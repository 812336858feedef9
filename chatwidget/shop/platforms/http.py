"""The HTTP session of a platform client: every request through the egress guard, 429 with
Retry-After honoured (waiting, then asking again, up to a bound), statuses turned into the
errors a connection check reports, and a count of requests (the sync's figures).

Synchronous: the sync runs on the Celery worker or in a command, and an order lookup from
the websocket runs in a worker thread (`sync_to_async`), never on the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any

from django.conf import settings

from chatwidget.platform.egress import EgressRefused, egress_client, httpx
from chatwidget.shop.platforms.base import PlatformError

MAX_BODY_BYTES = 32 * 1024 * 1024  # one page of a catalogue is far smaller


def retry_after_seconds(value: str | None, *, default: float = 2.0) -> float:
    """Retry-After as seconds (a number, Shopify's "2.0" included, or an HTTP date)."""
    if not value:
        return default
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return default


class Session:
    """Requests to one shop. `sleep` is replaceable so tests and benches do not wait."""

    def __init__(
        self,
        *,
        base_url: str,
        headers: dict[str, str] | None = None,
        auth: tuple[str, str] | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = {"Accept": "application/json", **(headers or {})}
        self.auth = auth
        self.sleep = sleep
        self.requests = 0
        self.waited = 0.0
        self.timeout = float(getattr(settings, "SHOP_PLATFORM_TIMEOUT_SECONDS", 20.0))
        self.max_wait = float(getattr(settings, "SHOP_PLATFORM_MAX_WAIT_SECONDS", 30.0))
        self.retries = 5

    def wait(self, seconds: float) -> None:
        if seconds > self.max_wait:
            raise PlatformError(PlatformError.THROTTLED, f"asked to wait {seconds:.0f} s")
        self.waited += seconds
        (self.sleep or time.sleep)(seconds)

    def _send(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        try:
            with egress_client(timeout=self.timeout, deadline_s=self.timeout * 3) as client:
                response = client.request(method, url, auth=self.auth, **kwargs)
                response.read()
                return response
        except EgressRefused as exc:
            raise PlatformError(PlatformError.NETWORK, str(exc)) from None
        except (httpx.TimeoutException, TimeoutError):
            raise PlatformError(PlatformError.NETWORK, "timed out") from None
        except (httpx.HTTPError, httpx.InvalidURL, ValueError) as exc:
            raise PlatformError(PlatformError.URL, type(exc).__name__) from None
        finally:
            self.requests += 1

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict | None = None,
        json: Any = None,
        data: dict | None = None,
        headers: dict[str, str] | None = None,
        ok_404: bool = False,
    ) -> httpx.Response:
        """One request, asked again after a 429 as the shop says; errors by status."""
        url = path if path.startswith(("http://", "https://")) else self.base_url + path
        for attempt in range(self.retries + 1):
            response = self._send(
                method,
                url,
                params=params,
                json=json,
                data=data,
                headers={**self.headers, **(headers or {})},
            )
            if response.status_code != 429:
                break
            if attempt == self.retries:
                raise PlatformError(PlatformError.THROTTLED, "429")
            self.wait(retry_after_seconds(response.headers.get("Retry-After")))
        status = response.status_code
        if status == 404 and ok_404:
            return response
        if status == 401:
            detail = _detail(response)
            if "cannot" in detail:  # WooCommerce: a valid key without Read permission
                raise PlatformError(PlatformError.SCOPE, detail)
            raise PlatformError(PlatformError.CREDENTIAL, "401")
        if status == 403:
            raise PlatformError(PlatformError.SCOPE, _detail(response) or "403")
        if status in (404, 405, 410):
            raise PlatformError(PlatformError.URL, str(status))
        if status >= 400:
            raise PlatformError(PlatformError.NETWORK, f"status {status}")
        if len(response.content) > MAX_BODY_BYTES:
            raise PlatformError(PlatformError.MALFORMED, "answer too large")
        return response

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.request(method, path, **kwargs)
        try:
            return response.json()
        except ValueError:
            raise PlatformError(PlatformError.MALFORMED, "not JSON") from None


def _detail(response: httpx.Response) -> str:
    """A short reason from an error body (WooCommerce's `code`, Shopware's `errors`)."""
    try:
        body = response.json()
    except ValueError:
        return ""
    if isinstance(body, dict):
        if isinstance(body.get("code"), str):
            return body["code"][:100]
        errors = body.get("errors")
        if isinstance(errors, list) and errors and isinstance(errors[0], dict):
            return str(errors[0].get("detail") or errors[0].get("code") or "")[:100]
    return ""
