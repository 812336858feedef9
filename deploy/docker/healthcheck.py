"""Container health check: GET /healthz on the local Daphne, exit 0 when it answers 200.

Used by the image's HEALTHCHECK (the slim base has no curl). Standard library only.

The request carries a Host header taken from ALLOWED_HOSTS (first usable entry), so Django's
host validation accepts it, and ``X-Forwarded-Proto: https`` so the SSL redirect does not
answer it with a 301 (production.py also exempts /healthz and /readyz from the redirect).

Environment: HEALTHCHECK_PORT (default 8000), HEALTHCHECK_PATH (default /healthz),
HEALTHCHECK_TIMEOUT seconds (default 4), ALLOWED_HOSTS.
"""

from __future__ import annotations

import http.client
import os
import sys


def host_header(allowed_hosts: str) -> str:
    for entry in allowed_hosts.split(","):
        entry = entry.strip()
        if not entry or entry == "*":
            continue
        # ".example.com" allows example.com and its subdomains.
        return entry.lstrip(".")
    return "localhost"


def main() -> int:
    port = int(os.environ.get("HEALTHCHECK_PORT", "8000"))
    path = os.environ.get("HEALTHCHECK_PATH", "/healthz")
    timeout = float(os.environ.get("HEALTHCHECK_TIMEOUT", "4"))
    host = host_header(os.environ.get("ALLOWED_HOSTS", ""))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(
            "GET",
            path,
            headers={"Host": host, "X-Forwarded-Proto": "https", "User-Agent": "healthcheck"},
        )
        status = connection.getresponse().status
    except OSError as exc:
        print(f"healthcheck: {path} unreachable on port {port}: {exc}", file=sys.stderr)
        return 1
    finally:
        connection.close()
    if status != 200:
        print(f"healthcheck: {path} answered {status} (Host: {host})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
